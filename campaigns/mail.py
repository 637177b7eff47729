"""Mail of the product, shared by every app: rendered from
``templates/emails/<name>_subject.txt`` / ``<name>.txt`` for ONE recipient at a time, in their
language and time zone (``recipient_locale``), with absolute links to the site's address
(``campaigns.site.site_url``),
people shown by their display name, and a footer linking the notification settings.

Every mail is queued, rendered, in the durable outbox (``queue_mail``,
``campaigns.services.outbox``) inside the caller's transaction and sent by a task after
commit: nothing here talks to a mail server from a request, and neither a broker nor an SMTP
outage loses a mail. Battle notifications have their own outbox
(``battles.services.notifications``) and use ``render_mail`` and ``deliver`` from here."""

import contextlib

from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from campaigns import languages, site
from campaigns.zones import zone

SUBJECT_MAX = 200


def absolute(path: str) -> str:
    """``path`` (from ``reverse``) as an absolute link on the site (``site.site_url``): every
    link that leaves the site (mail, invitations, feeds, webhooks, calendars) is made here."""
    return f"{site.site_url()}{path}"


def settings_link() -> str:
    """The profile page's notification section: where every mail says to change settings."""
    return absolute(reverse("profile") + "#notifications")


# --- recipients -----------------------------------------------------------------------------

def profiles_of(users) -> dict:
    """{user id: Profile} of ``users`` in one query (profiles are lazy: missing = defaults)."""
    from campaigns.models import Profile

    ids = {u.pk for u in users if u is not None and u.pk is not None}
    return {p.user_id: p for p in Profile.objects.filter(user__in=ids)} if ids else {}


def display(user, profile=None) -> str:
    """How mail names a person: their display name, else their username."""
    if user is None:
        return ""
    return (getattr(profile, "display_name", "") or "").strip() or user.get_username()


def name_of(user) -> str:
    """``display`` for one user, loading their profile."""
    if user is None or user.pk is None:
        return ""
    return display(user, profiles_of([user]).get(user.pk))


@contextlib.contextmanager
def recipient_locale(profile=None, *, campaign=None, language: str | None = None):
    """Render inside this: the recipient's language (else ``language``, else the language of
    ``campaign``, which its organiser chose for people the site does not know yet, such as an
    address invited without an account; else the current one) and time zone
    (``campaigns.zones.zone``: theirs, else the campaign's)."""
    chosen = (languages.profile_language(profile) or languages.supported(language)
              or (languages.campaign_language(campaign) if campaign is not None else None)
              or translation.get_language())
    with translation.override(chosen), timezone.override(zone(profile=profile,
                                                              campaign=campaign)):
        yield


def render_mail(name: str, context: dict) -> tuple[str, str]:
    """Subject (one line, "[campaign] ..." , bounded) and body of mail ``name`` in the active
    language and zone; the footer's settings link is added to the context."""
    context = {"settings_link": settings_link(), **context}
    subject = " ".join(render_to_string(f"emails/{name}_subject.txt", context).split())
    body = render_to_string(f"emails/{name}.txt", context)
    campaign = context.get("campaign")
    if campaign is not None:
        subject = f"[{' '.join(str(campaign.name).split())}] {subject}"
    return subject[:SUBJECT_MAX], body


# --- sending --------------------------------------------------------------------------------

def deliver(subject: str, body: str, address: str, headers: dict | None = None) -> int:
    """Send one mail now (raises what the mail server raises)."""
    return EmailMessage(subject, body, None, [address], headers=headers or None).send()


def queue_mail(subject: str, body: str, address: str, headers: dict | None = None) -> None:
    """Queue one rendered mail in the outbox; it is sent after the caller's transaction
    commits (at once outside one)."""
    queue_mails([(subject, body, address, headers)])


def queue_mails(mails: list) -> None:
    """``queue_mail`` for many: (subject, body, address[, headers]) each."""
    from campaigns.services.outbox import mail_outbox_add  # the service imports this module

    if mails:
        mail_outbox_add(mails=mails)


def _rendered(*, to: list[str], name: str, context: dict, language: str | None,
              profile) -> list[tuple[str, str, str]]:
    """(subject, body, address) of mail ``name`` for a recipient with ``profile`` (or None: an
    address without an account, then in ``language``, else the campaign's, else the
    caller's)."""
    if getattr(context.get("campaign"), "is_sandbox", False):
        return []  # a sandbox mails nobody
    with recipient_locale(profile, campaign=context.get("campaign"), language=language):
        subject, body = render_mail(name, context)
    return [(subject, body, address) for address in sorted({a for a in to if a})]


def mail_after_commit(*, to: list[str], name: str, context: dict,
                      language: str | None = None, profile=None) -> bool:
    """Render mail ``name`` now and queue it (``queue_mails``): sent once the transaction
    commits. False when there is nobody to send to."""
    mails = _rendered(to=to, name=name, context=context, language=language, profile=profile)
    queue_mails(mails)
    return bool(mails)


def _users_mails(users, name: str, context: dict) -> list[tuple[str, str, str]]:
    """Mail ``name`` for each user with an address, in their own language and zone, greeted
    by their display name (``recipient_name``); profiles in one query."""
    users = [u for u in users if u.email]
    profiles = profiles_of(users)
    mails = []
    for user in users:
        profile = profiles.get(user.pk)
        mails += _rendered(to=[user.email], name=name, language=None, profile=profile, context={
            **context, "recipient": user, "recipient_name": display(user, profile)})
    return mails


def mail_users_after_commit(*, users, name: str, context: dict) -> int:
    """``_users_mails``, queued (``queue_mails``): sent once the transaction commits, or at
    once outside one."""
    mails = _users_mails(users, name, context)
    queue_mails(mails)
    return len(mails)
