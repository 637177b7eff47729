"""Mail of the campaigns layer (issue 17: invitations, join requests): rendered from
``templates/emails/<name>_subject.txt`` / ``<name>.txt`` in the current language, with
absolute links from ``settings.SITE_URL``, and handed to the sending task after commit
(``campaigns.enqueue``: a broker that is down never reaches the caller)."""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from campaigns.enqueue import enqueue_on_commit

SUBJECT_MAX = 200


def absolute(path: str) -> str:
    """``path`` (from ``reverse``) as an absolute link on the site (``SITE_URL``)."""
    return f"{settings.SITE_URL}{path}"


def render_mail(name: str, context: dict) -> tuple[str, str]:
    subject = " ".join(render_to_string(f"emails/{name}_subject.txt", context).split())
    body = render_to_string(f"emails/{name}.txt", context)
    campaign = context.get("campaign")
    if campaign is not None:
        subject = f"[{' '.join(str(campaign.name).split())}] {subject}"
    return subject[:SUBJECT_MAX], body


def language_of(user) -> str | None:
    """The language a user chose in their profile, or None (then the caller's is used)."""
    from campaigns.models import Profile

    if user is None or user.pk is None:
        return None
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or None


def mail_after_commit(*, to: list[str], name: str, context: dict,
                      language: str | None = None) -> bool:
    """Render mail ``name`` now, in ``language`` (else the caller's), and send it to the
    addresses in ``to`` once the transaction commits. False when there is nobody to send
    to."""
    to = sorted({address for address in to if address})
    if not to:
        return False
    from campaigns.tasks import send_mail

    with translation.override(language or translation.get_language()):
        subject, body = render_mail(name, context)
    enqueue_on_commit(send_mail, subject, body, to)
    return True


def mail_users_after_commit(*, users, name: str, context: dict) -> int:
    """``mail_after_commit`` to each user with an address, in their own language."""
    sent = 0
    for user in users:
        if user.email:
            sent += mail_after_commit(to=[user.email], name=name, context=context,
                                      language=language_of(user))
    return sent
