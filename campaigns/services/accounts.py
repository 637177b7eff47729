"""Writes for members' accounts (issue 17 points 3 and 7): sign-up, the profile (display name,
language, time zone), e-mail change with confirmation, revoking credentials after a password
change, rotating the API token, and deleting an account.

Deleting an account keeps every row that points at the user: the ``User`` is deactivated and
anonymised (username ``former-member-<id>``, no e-mail, no password, no names, no profile data),
so seats, battles, results, their history and the dice log stay as they were and every foreign
key stays valid; pages show such a seat as "former member" (``is_former_member``)."""

import zoneinfo
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from campaigns.errors import Conflict, DomainError
from campaigns.models import Campaign, Profile, validate_time_zone

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

@transaction.atomic
def account_signup(*, username: str, email: str, password: str, language: str = "",
                   time_zone: str = ""):
    """A new member with a profile. The caller (the sign-up form) has checked the password
    against ``AUTH_PASSWORD_VALIDATORS`` and whether sign-up is open."""
    User = get_user_model()
    if username.lower().startswith(FORMER_MEMBER_PREFIX):
        raise DomainError(_("This username is reserved."), field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(_("This username is taken."), code="username_taken", field="username")
    if email_in_use(email):
        raise Conflict(_("An account with this e-mail address exists; log in or reset its "
                         "password."), code="email_taken", field="email")
    language, time_zone = _language(language), _time_zone(time_zone)
    user = User.objects.create_user(username=username, email=email, password=password)
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

def _sessions_end(user, *, keep: str | None = None) -> int:
    """Delete the user's database sessions except ``keep`` (a session key)."""
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.session_key != keep and \
                str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            session.delete()
            ended += 1
    return ended


@transaction.atomic
def credentials_revoke(*, user, keep_session: str | None = None) -> None:
    """After a password change or reset (issue 17 point 7): the API token and every other
    session of the user stop working; the session that changed the password may stay."""
    Token.objects.filter(user=user).delete()
    _sessions_end(user, keep=keep_session)


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
    stripped of personal data. Their campaign admin rights, API token, sessions and profile
    are removed."""
    User = get_user_model()
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.is_active:
        raise Conflict(_("This account is already deleted."), code="deleted")
    _check_not_only_admin(user)
    Token.objects.filter(user=user).delete()
    _sessions_end(user)
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
