"""Dates, times and numbers as people read them: one format per language, from the CLDR data
of Babel, in the active language (``translation``) and time zone (``timezone``). Pages
(``web.presenters.times``), mail (``campaigns.templatetags.mailtext``), services' messages
and feeds all format here, so a reader sees one format everywhere:

- English: ``Wed 6 Jan 2027, 17:25 CET``; German: ``Mi. 6. Jan. 2027, 17:25 MEZ``
- short (lists, logs): ``6 Jan, 17:25 CET`` / ``6. Jan., 17:25 MEZ`` (the year is added when it
  is not this year)
- dates: ``Wed 6 Jan 2027`` / ``Mi. 6. Jan. 2027``; relative times ``in 2 days`` /
  ``in 2 Tagen``; percentages ``58.3%`` / ``58,3 %``.

Machines (``<time datetime>``, data attributes, JSON, SVG and CSS) never get these texts."""

import functools
import re
from datetime import date, datetime, timedelta

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime, format_timedelta
from babel.numbers import format_decimal, format_percent
from django.utils import timezone, translation

# CLDR patterns (https://unicode.org/reports/tr35/tr35-dates.html) per language; a language
# without its own entry uses English's patterns with its own names.
PATTERNS = {
    "en": {"long": "EEE d MMM y, HH:mm", "short": "d MMM, HH:mm", "short_year": "d MMM y, HH:mm",
           "date": "EEE d MMM y", "date_short": "d MMM", "date_short_year": "d MMM y"},
    "de": {"long": "EEE d. MMM y, HH:mm", "short": "d. MMM, HH:mm",
           "short_year": "d. MMM y, HH:mm", "date": "EEE d. MMM y", "date_short": "d. MMM",
           "date_short_year": "d. MMM y"},
}
_NUMERIC_ZONE = re.compile(r"^(GMT|UTC)?[+-]")


def locale() -> Locale:
    """The active language as a Babel locale (English for one Babel does not know)."""
    return _locale(translation.get_language() or "en")


@functools.lru_cache(maxsize=32)
def _locale(language: str) -> Locale:
    try:
        return Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def _patterns(loc: Locale) -> dict:
    return PATTERNS.get(loc.language, PATTERNS["en"])


def _offset(moment: datetime) -> str:
    """``UTC+3``, ``UTC-3:30``: a zone without a common abbreviation."""
    minutes = round(moment.utcoffset().total_seconds() / 60)
    sign, minutes = ("+" if minutes >= 0 else "-"), abs(minutes)
    hours, rest = divmod(minutes, 60)
    return "UTC" if not minutes else f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def zone_abbreviation(local: datetime, loc: Locale | None = None) -> str:
    """The zone of ``local`` (an aware, local time) as readers of the language know it:
    ``MEZ``/``MESZ`` in German and ``CET``/``CEST`` in English for Europe/Berlin, ``UTC``,
    ``EST``; ``UTC+4`` where neither CLDR nor the zone database has a name."""
    loc = loc or locale()
    named = ""
    key = getattr(local.tzinfo, "key", None)
    if key:
        named = format_datetime(local, "z", tzinfo=local.tzinfo, locale=loc)
    if named and not _NUMERIC_ZONE.match(named):
        return named
    named = local.tzname() or ""
    return named if named and not _NUMERIC_ZONE.match(named) else _offset(local)


def datetime_text(value: datetime, length: str = "long", *, zone: bool = True,
                  now: datetime | None = None) -> str:
    """An instant in the active zone and language: ``long`` with weekday and year (``Wed 6 Jan
    2027, 17:25 CET``), ``short`` without them unless the year is not this year; the zone
    named unless ``zone`` is false. A naive time (as entered) is shown as it is, unnamed."""
    loc = locale()
    if timezone.is_naive(value):  # a wall-clock time someone entered: shown as it is
        return format_datetime(value, _patterns(loc)["long"], locale=loc)
    local = timezone.localtime(value)
    patterns = _patterns(loc)
    if length == "short":
        this_year = timezone.localtime(now or timezone.now()).year
        pattern = patterns["short" if local.year == this_year else "short_year"]
    else:
        pattern = patterns["long"]
    text = format_datetime(local, pattern, tzinfo=local.tzinfo, locale=loc)
    return f"{text} {zone_abbreviation(local, loc)}" if zone else text


def date_text(value: date, length: str = "long", *, today: date | None = None) -> str:
    """A calendar day (an absence, a season's start): ``Wed 6 Jan 2027`` / ``Mi. 6. Jan.
    2027``; ``short``: ``6 Jan`` / ``6. Jan.`` (with the year when it is not this year). An
    instant is taken as its day in the active zone."""
    if isinstance(value, datetime):
        value = timezone.localdate(value)
    loc = locale()
    patterns = _patterns(loc)
    if length == "short":
        this_year = (today or timezone.localdate()).year
        pattern = patterns["date_short" if value.year == this_year else "date_short_year"]
    elif length == "medium":  # no weekday, always the year: ``6 Jan 2027`` / ``6. Jan. 2027``
        pattern = patterns["date_short_year"]
    else:
        pattern = patterns["date"]
    return format_date(value, pattern, locale=loc)


def relative_text(value: datetime, now: datetime | None = None) -> str:
    """How far ``value`` is from now, rounded to its largest unit: ``in 2 days``, ``3 hours
    ago``; ``in 2 Tagen``, ``vor 3 Stunden``."""
    delta = value - (now or timezone.now())
    if abs(delta) < timedelta(minutes=1):
        delta = timedelta(minutes=1) if delta >= timedelta(0) else -timedelta(minutes=1)
    return format_timedelta(delta, add_direction=True, locale=locale())


def percent_text(fraction: float, digits: int = 1) -> str:
    """A share (0.583) as a percentage in the reader's language with ``digits`` decimals:
    ``58.3%``, ``58,3 %`` (a non-breaking space where the language puts one)."""
    loc = locale()
    pattern = loc.percent_formats[None].pattern
    if digits > 0:
        pattern = re.sub(r"0(?![0-9])", "0." + "0" * digits, pattern, count=1)
    return format_percent(fraction, pattern, locale=loc)


def number_text(value: float, digits: int = 0) -> str:
    """A number in the reader's language with exactly ``digits`` decimals (``1,234.5`` /
    ``1.234,5``)."""
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, pattern, locale=locale())
