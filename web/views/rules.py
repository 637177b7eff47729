"""/rules/, the players' rules in the reader's language (``?lang=en|de`` picks one),
with a contents list and a search (``?q=``: only the sections holding every word, the words
marked); /campaigns/<id>/rules/ adds that campaign's ruleset values beside the defaults at the
rules they change ("Ruleset keys"); /campaigns/<id>/manage/guide/ is the organiser's guide for
the campaign's admins, on the same page layout."""

import json

from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from rules.ruleset import KEYS, PHASE_HOURS_DEFAULTS, RulesetError, defaults, validate_ruleset
from web.presenters import rulebook
from web.views.scope import Scope, campaign_page

# Keys handled outside ``KEYS`` and the rule each one changes.
EXTRA_KEYS = {"phase_hours": "R-RND-1", "weekly_deadlines": "R-RND-1"}


def _language(request) -> str:
    wanted = request.GET.get("lang", "")
    return wanted if wanted in rulebook.LANGUAGES else translation.get_language() or "en"


def _rule_of(key: str) -> str:
    return EXTRA_KEYS.get(key) or KEYS[key].rule


def _shown(value) -> str:
    """A ruleset value as the admin writes it: codes plain, phase hours as "declare 48, ..."."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
        return ", ".join(f"{key} {hours}" for key, hours in value.items()) or "{}"
    return json.dumps(value, ensure_ascii=False)


def ruleset_notes(stored: dict) -> dict[str, list[dict]]:
    """Per section anchor, the ruleset keys that change its rule: the campaign's value, the
    default and whether they differ. ``stored`` is the campaign's ruleset as saved."""
    try:
        current = validate_ruleset(stored)
    except RulesetError:  # an outdated stored ruleset reads as the defaults (ruleset_of)
        current = defaults()
    default = defaults()
    default.setdefault("phase_hours", dict(PHASE_HOURS_DEFAULTS))
    notes: dict[str, list[dict]] = {}
    for key in [*EXTRA_KEYS, *KEYS]:
        if key not in default and key not in current:
            continue
        value, base = current.get(key), default.get(key)
        notes.setdefault(_rule_of(key).lower(), []).append(
            {"key": key, "value": _shown(value), "default": _shown(base), "changed": value != base})
    return notes


def _href(rules_url: str, lang: str, *, same_page: bool):
    """Rule ids link to their section: on this page when it shows the whole rules, else to
    ``rules_url`` in the page's language."""
    known = rulebook.known_anchors()
    prefix = "" if same_page else f"{rules_url}?lang={lang}"

    def href(rule_id: str) -> str | None:
        anchor = rule_id.lower()
        return f"{prefix}#{anchor}" if anchor in known else None
    return href


def _sections(shown, words, notes, href):
    rows = []
    for section in shown:
        body = rulebook.link_rule_ids(section.html, href)
        if words:
            body = rulebook.highlight(body, words)
        rows.append({"anchor": section.anchor, "level": section.level,
                     "html": mark_safe(body),  # sanitised by rulebook, links are ours
                     "notes": notes.get(section.anchor, [])})
    return rows


def _render(request, *, scope: Scope | None = None, name: str = "rules"):
    lang = _language(request)
    book = rulebook.document(name, lang)
    query = request.GET.get("q", "").strip()[:200]
    words, found = rulebook.search(book, query)
    notes = ruleset_notes(scope.campaign.ruleset) if scope and name == "rules" else {}
    if scope:
        rules_url = reverse("campaigns:campaign-rules", args=[scope.campaign.pk])
        base = rules_url if name == "rules" else reverse("campaigns:guide",
                                                         args=[scope.campaign.pk])
    else:
        rules_url = base = reverse("campaigns:rules")
    href = _href(rules_url, lang, same_page=name == "rules" and not words)
    with translation.override(lang):
        context = {
            "book": book, "doc": name, "lang": lang, "other_lang": "de" if lang == "en" else "en",
            "query": query, "words": words, "found_count": len(found), "base_url": base,
            "intro": mark_safe(rulebook.link_rule_ids(book.intro, href)),
            "toc": [] if words else rulebook.contents(book),
            "sections": _sections(found if words else book.sections, words, notes, href),
            "has_notes": bool(notes),
            "layout": "web/_layout.html" if scope else "base.html"}
        if scope:
            context = scope.context(**context)
        response = render(request, "web/rules.html", context)
    response["Content-Language"] = lang
    return response


@require_GET
def rules_page(request):
    return _render(request)


@require_GET
@campaign_page()
def campaign_rules_page(request, scope: Scope):
    return _render(request, scope=scope)


@require_GET
@campaign_page("admin")
def guide_page(request, scope: Scope):
    """The organiser's guide (``docs/organiser.<language>.md``), for the campaign's admins."""
    return _render(request, scope=scope, name="organiser")
