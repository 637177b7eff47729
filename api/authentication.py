"""The API's authentication: DRF's token and session classes, and the language the answer is
written in (``campaigns.languages``). DRF authenticates inside the view (``APIView.initial``),
after ``LocaleMiddleware`` has run, so the signed-in user's profile language is applied here,
at the moment the user is known and before the view or its permission checks write a word:

1. ``Accept-Language`` (or the switcher's cookie), when it names a language of the site;
2. the user's profile language;
3. the campaign's language on a campaign's endpoints (``api.base.CampaignScoped``), else the
   site's.

A token is read with its user's profile in the same query (no query of its own)."""

from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.authentication import SessionScheme
from rest_framework import authentication, exceptions

from campaigns import languages
from campaigns.models import Profile


def language_settled(request) -> bool:
    """Has the caller's own choice (a header, the cookie, the profile) set the language?"""
    django_request = getattr(request, "_request", request)
    return bool(getattr(django_request, "profile_language", None)) or \
        languages.requested_language(django_request) is not None


_UNREAD = object()


def apply_profile_language(request, user, profile=_UNREAD) -> None:
    """The signed-in ``user``'s profile language for the rest of ``request`` (DRF's), unless
    the request asks for a language of its own. ``profile`` if already read (None: none)."""
    django_request = getattr(request, "_request", request)
    if languages.requested_language(django_request) is not None:
        return
    if profile is _UNREAD:
        profile = Profile.objects.only("language").filter(user_id=user.pk).first()
    chosen = languages.profile_language(profile)
    if chosen:
        django_request.profile_language = chosen
        translation.activate(chosen)
        django_request.LANGUAGE_CODE = chosen


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's, reading the user's profile with the token."""

    def authenticate_credentials(self, key):
        model = self.get_model()
        token = model.objects.select_related("user", "user__profile").filter(key=key).first()
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token

    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None:
            apply_profile_language(request, found[0], getattr(found[0], "profile", None))
        return found


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's; the profile is read only when the request names no language."""

    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None:
            apply_profile_language(request, found[0])
        return found


class ProfileSessionScheme(SessionScheme):
    """The schema's ``cookieAuth`` for the session class above (drf-spectacular matches
    DRF's own by name)."""

    target_class = "api.authentication.SessionAuthentication"
