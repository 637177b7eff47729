"""Writes for members' accounts: sign-up, the profile (display name,
language, time zone), e-mail change with confirmation, revoking credentials after a password
change, rotating the API token, and deleting an account.

Deleting an account keeps every row that points at the user: the ``User`` is deactivated and
anonymised (username ``former-member-<id>``, no e-mail, no password, no names, no profile data),
so seats, battles, results, their history and the dice log stay as they were and every foreign
key stays valid; pages show such a seat as "former member" (``is_former_member``)."""

import hashlib
import secrets
import zoneinfo
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from campaigns.errors import Conflict, DomainError
from campaigns.models import Campaign, PendingSignup, Profile, validate_time_zone

FORMER_MEMBER_PREFIX = "former-member-"
EMAIL_CHANGE_SALT = "feldzug.accounts.email-change"
EMAIL_MAX = get_user_model()._meta.get_field("email").max_length
LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA zone this system knows, sorted (the choices of the time zone fields)."""
    return tuple(sorted(zoneinfo.available_timezones() - {"localtime", "Factory"}))


def is_former_member(user) -> bool:
    """A deleted account (``account_delete``): shown as "former member"."""
    return user is not None and not user.is_active and \
        user.username.startswith(FORMER_MEMBER_PREFIX)


def profile_of(user) -> Profile:
    """The member's profile, created on first use (profiles are lazy)."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def profile_read(user) -> Profile:
    """The member's profile for reading: an unsaved default one if there is none yet (pages
    and answers that only show it write nothing)."""
    return Profile.objects.filter(user=user).first() or Profile(user=user)


# --- checks shared by sign-up, the profile page and the API ------------------------------

def _display_name(value) -> str:
    if not isinstance(value, str):
        raise DomainError(_("A display name is text."), field="display_name")
    value = value.strip()
    if any(ch in value for ch in "\r\n\t") or any(ord(ch) < 32 for ch in value):
        raise DomainError(_("A display name is a single line."), field="display_name")
    if len(value) > Profile.DISPLAY_NAME_MAX:
        raise DomainError(_("At most %(n)d characters.") % {"n": Profile.DISPLAY_NAME_MAX},
                          field="display_name")
    return value


def _language(value) -> str:
    if value != "" and value not in LANGUAGE_CODES:
        raise DomainError(_("Unknown language."), field="language")
    return value


def _time_zone(value) -> str:
    if not isinstance(value, str) or len(value) > Profile.TIME_ZONE_MAX:
        raise DomainError(_("Unknown time zone."), field="time_zone")
    try:
        validate_time_zone(value)
    except ValidationError:
        raise DomainError(_("Unknown time zone (an IANA name such as Europe/Berlin)."),
                          field="time_zone") from None
    return value


def email_in_use(email: str, *, except_user=None) -> bool:
    users = get_user_model().objects.filter(email__iexact=email)
    if except_user is not None:
        users = users.exclude(pk=except_user.pk)
    return users.exists()


# --- sign-up and profile --------------------------------------------------------------------

def _username(username: str) -> str:
    if username.lower().startswith(FORMER_MEMBER_PREFIX):
        raise DomainError(_("This username is reserved."), field="username")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise Conflict(_("This username is taken."), code="username_taken", field="username")
    return username


def signup_check(*, username: str, email: str, language: str = "", time_zone: str = ""):
    """Step one of sign-up: refuse what the visitor can fix (username, language, time zone),
    then return the account that has ``email``, or None. Nothing is written: the page answers
    alike either way and mails the address (a link to finish, or a note to its owner), so it
    never tells whether an address has an account."""
    _username(username), _language(language), _time_zone(time_zone)
    return get_user_model().objects.filter(email__iexact=email).order_by("pk").first()


@transaction.atomic
def account_signup(*, username: str, email: str, password: str = "", password_hash: str = "",
                   language: str = "", time_zone: str = ""):
    """A new member with a profile: ``password``, or its ``password_hash`` (``make_password``)
    kept while the address is confirmed. The caller has checked the password against
    ``AUTH_PASSWORD_VALIDATORS``, whether sign-up is open and that the visitor reads ``email``
    (the link mailed by step one, ``signup_check``)."""
    User = get_user_model()
    _username(username)
    if email_in_use(email):
        raise Conflict(_("An account with this e-mail address exists; log in or reset its "
                         "password."), code="email_taken", field="email")
    language, time_zone = _language(language), _time_zone(time_zone)
    user = User.objects.create_user(username=username, email=email, password=password or None)
    if password_hash:
        user.password = password_hash
        user.save(update_fields=["password"])
    Profile.objects.create(user=user, language=language, time_zone=time_zone)
    return user


_UNSET = object()


@transaction.atomic
def profile_update(*, user, display_name=_UNSET, language=_UNSET, time_zone=_UNSET) -> Profile:
    """Change what is given; the rest keeps its value. Nothing is written (and no profile
    created) when nothing changes."""
    changes = {}
    if display_name is not _UNSET:
        changes["display_name"] = _display_name(display_name)
    if language is not _UNSET:
        changes["language"] = _language(language)
    if time_zone is not _UNSET:
        changes["time_zone"] = _time_zone(time_zone)
    profile = Profile.objects.select_for_update().filter(user=user).first() or Profile(user=user)
    if all(getattr(profile, field) == value for field, value in changes.items()):
        return profile
    for field, value in changes.items():
        setattr(profile, field, value)
    profile.save()
    return profile


# --- e-mail change --------------------------------------------------------------------------

def email_change_token(*, user, new_email: str) -> str:
    """A signed token to mail to ``new_email``; ``email_change_confirm`` applies it. It names
    the address it replaces, so it is void once the address changed another way."""
    new_email = get_user_model().objects.normalize_email(new_email.strip())
    if not new_email or len(new_email) > EMAIL_MAX:
        raise DomainError(_("Enter a valid e-mail address."), field="email")
    if new_email.lower() == (user.email or "").lower():
        raise DomainError(_("This is your current e-mail address."), field="email")
    if email_in_use(new_email, except_user=user):
        raise Conflict(_("Another account uses this e-mail address."), code="email_taken",
                       field="email")
    return signing.dumps({"user": user.pk, "new": new_email, "old": user.email or ""},
                         salt=EMAIL_CHANGE_SALT, compress=True)


def email_change_read(token: str) -> dict:
    """The change a token asks for; ``DomainError`` if it is forged, expired or stale."""
    try:
        data = signing.loads(token, salt=EMAIL_CHANGE_SALT,
                             max_age=settings.EMAIL_CHANGE_MAX_AGE)
    except signing.SignatureExpired:
        raise DomainError(_("This confirmation link has expired; ask for a new one."),
                          code="expired") from None
    except signing.BadSignature:
        raise DomainError(_("This confirmation link is not valid."), code="invalid") from None
    user = get_user_model().objects.filter(pk=data.get("user"), is_active=True).first()
    if user is None or (user.email or "") != data.get("old"):
        raise DomainError(_("This confirmation link was already used or is out of date."),
                          code="stale")
    return {"user": user, "new": data["new"]}


@transaction.atomic
def email_change_confirm(*, token: str):
    """Apply a confirmed e-mail change; returns the user."""
    change = email_change_read(token)
    user = get_user_model().objects.select_for_update().get(pk=change["user"].pk)
    if (user.email or "") != change["user"].email:
        raise DomainError(_("This confirmation link was already used or is out of date."),
                          code="stale")
    if email_in_use(change["new"], except_user=user):
        raise Conflict(_("Another account uses this e-mail address."), code="email_taken",
                       field="email")
    user.email = change["new"]
    user.save(update_fields=["email"])
    return user


# --- credentials ----------------------------------------------------------------------------

@transaction.atomic
def credentials_revoke(*, user) -> None:
    """After a password change or reset : the API token stops working. So
    does every session the user had, without reading any session: each one keeps a hash of
    the password it logged in with (``get_session_auth_hash``), and Django ends a session
    whose hash no longer matches at its next request. The session that changed the password
    stays when the page calls ``update_session_auth_hash`` (Django's password change does).
    Their rows go with the expired ones (``sessions_clear_expired``)."""
    Token.objects.filter(user=user).delete()


SESSIONS_CLEAR_BATCH = 5_000


@transaction.atomic
def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def signup_pending_create(*, username: str, email: str, password_hash: str, language: str,
                          time_zone: str, next_url: str, now) -> str:
    """Keep a checked sign-up until its mailed link is opened, in any browser (a phone's mail
    app often opens links in another browser than the one that signed up); returns the
    link's token, of which only a hash is stored."""
    token = secrets.token_urlsafe(32)
    PendingSignup.objects.create(
        token_hash=_token_hash(token), username=username, email=email,
        password_hash=password_hash, language=language, time_zone=time_zone,
        next_url=next_url, created_at=now)
    return token


def signup_pending(*, token: str, now) -> PendingSignup | None:
    """The sign-up the link's ``token`` stands for, unless it expired or was used."""
    oldest = now - timedelta(seconds=settings.EMAIL_CHANGE_MAX_AGE)
    return PendingSignup.objects.filter(token_hash=_token_hash(token),
                                        created_at__gte=oldest).first()


@transaction.atomic
def signup_finish(*, token: str, now):
    """Make the account of a pending sign-up (step two, the mailed link) and drop the
    pending row; a used or expired link is a 400."""
    pending = (PendingSignup.objects.select_for_update()
               .filter(pk=getattr(signup_pending(token=token, now=now), "pk", None)).first())
    if pending is None:
        raise DomainError(_("This sign-up link has expired or was already used; sign up "
                            "again."), code="signup_link_invalid")
    user = account_signup(username=pending.username, email=pending.email,
                          password_hash=pending.password_hash, language=pending.language,
                          time_zone=pending.time_zone)
    pending.delete()
    return user


def signups_clear_expired(*, now) -> int:
    """The periodic job's step: pending sign-ups whose link expired."""
    oldest = now - timedelta(seconds=settings.EMAIL_CHANGE_MAX_AGE)
    deleted, _kinds = PendingSignup.objects.filter(created_at__lt=oldest).delete()
    return deleted


def sessions_clear_expired(*, now) -> int:
    """The periodic job's step: delete up to ``SESSIONS_CLEAR_BATCH`` expired database
    sessions (Django never deletes them by itself; ``clearsessions`` does all in one go).
    One indexed query when nothing expired; a backlog goes in bounded batches, a minute
    apart. Returns how many were deleted."""
    expired = Session.objects.filter(expire_date__lt=now).values("session_key")
    deleted, _kinds = Session.objects.filter(
        session_key__in=expired[:SESSIONS_CLEAR_BATCH]).delete()
    return deleted


@transaction.atomic
def token_rotate(*, user) -> Token:
    """A new API token for the user; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def token_of(user) -> Token | None:
    return Token.objects.filter(user=user).first()


# --- deleting an account --------------------------------------------------------------------

def campaigns_only_administered_by(user) -> list[Campaign]:
    """Campaigns not finished whose only admin is ``user`` (site admins aside)."""
    administered = Campaign.admins.through.objects.filter(user=user).values("campaign_id")
    mine = (Campaign.objects.filter(pk__in=administered)  # counts all admins, not the join's
            .exclude(status=Campaign.Status.FINISHED)
            .annotate(admin_count=Count("admins", distinct=True)).filter(admin_count=1))
    return list(mine.order_by("name", "pk"))


def _check_not_only_admin(user) -> None:
    """Deleting the only admin of a campaign would leave it without one: refused."""
    alone = campaigns_only_administered_by(user)
    if alone:
        names = ", ".join(campaign.name for campaign in alone[:10])
        raise Conflict(_("You are the only admin of %(campaigns)s. Name another admin on the "
                         "campaign's Members tab first, then delete your account.")
                       % {"campaigns": names}, code="only_admin")


@transaction.atomic
def account_delete(*, user) -> None:
    """Delete a member's account, keeping their seats and the campaigns' history: the user row
    stays (every seat, battle, result and log entry keeps pointing at it), deactivated and
    stripped of personal data. Their campaign admin rights, API token and profile are removed;
    their sessions end with the password (``credentials_revoke``)."""
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_active:
        raise Conflict(_("This account is already deleted."), code="deleted")
    _check_not_only_admin(user)
    Token.objects.filter(user=user).delete()  # its sessions end with the password below
    Campaign.admins.through.objects.filter(user=user).delete()
    Profile.objects.filter(user=user).delete()
    user.username = f"{FORMER_MEMBER_PREFIX}{user.pk}"
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
