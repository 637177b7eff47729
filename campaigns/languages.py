"""Which language a text is written in, for readers the site may not know: the one definition.

- A page of a campaign for an anonymous reader: the language they chose with the switcher
  (the language cookie), else a supported language in their ``Accept-Language``, else the
  campaign's language (``web.middleware``).
- The API: ``Accept-Language`` (or the cookie), else the signed-in user's profile language,
  else the campaign's language, else the site's (``api.authentication``, ``api.base``).
- Mail to an address without an account (an invitation): the campaign's language
  (``campaigns.mail``).
- Feeds: a member's own feed in their profile language; a campaign's public feed in the
  campaign's language (``battles.services.feeds``, ``web.views.news_feed``).

``requested_language`` tells a language the reader asked for from Django's fallback to
``LANGUAGE_CODE``, which ``LocaleMiddleware`` does not distinguish."""

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import language_code_re, parse_accept_lang_header


def supported(code) -> str | None:
    """``code`` (``de``, ``de-AT``) as a language the site offers (``settings.LANGUAGES``), or
    None."""
    if not isinstance(code, str) or not code or len(code) > 20:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def site_language() -> str:
    """The site's default language (``LANGUAGE_CODE``)."""
    return supported(settings.LANGUAGE_CODE) or settings.LANGUAGES[0][0]


def campaign_language(campaign) -> str:
    """The language the organiser chose for ``campaign`` (or None), else the site's."""
    return supported(getattr(campaign, "language", "")) or site_language()


def profile_language(profile) -> str | None:
    """The language a member chose in their profile, or None (the default)."""
    return supported(getattr(profile, "language", ""))


def requested_language(request) -> str | None:
    """The language ``request`` asks for: the switcher's cookie, else the first supported
    language of ``Accept-Language``; None when it asks for none (then Django would fall back
    to ``LANGUAGE_CODE``)."""
    cookies = getattr(request, "COOKIES", {}) or {}
    chosen = supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))
    if chosen:
        return chosen
    meta = getattr(request, "META", {}) or {}
    for code, _quality in parse_accept_lang_header(meta.get("HTTP_ACCEPT_LANGUAGE", "")):
        if code == "*":
            break
        if language_code_re.search(code) and (found := supported(code)):
            return found
    return None
