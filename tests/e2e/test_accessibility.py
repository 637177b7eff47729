"""WCAG 2.2 AA in the browser: axe-core (axe-playwright-python's bundled axe.min.js) finds no
violation on any page of a campaign, for a visitor, a player and an organiser, in English and
German, at desktop width and on a phone; and a player reaches the main controls of the pages by
Tab alone, each with a visible focus outline, starting with the skip link.

Every rule of the wcag2a, wcag2aa, wcag21a, wcag21aa and wcag22aa tags runs, plus
``target-size`` (WCAG 2.5.8), and no rule is switched off. The whole module uses one live
server and one browser: one context per (role, language) with two tabs, each page loaded once
per (role, language, width); the language is the browser's (Accept-Language), the width the
viewport's. axe runs in one tab while the next page loads in the other (two cores)."""

import time

import pytest
from axe_playwright_python.base import AXE_SCRIPT

from campaigns.models import Tile
from tests.budget import one_of
from tests.e2e.conftest import DESKTOP, OUTPUT, PHONE
from tests.factories import PlayerFactory, TileFactory
from tests.worlds import battle_url, build_page_world, grow_battles, page_duel, row

pytestmark = pytest.mark.django_db(transaction=True)

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    "rules": {"target-size": {"enabled": True}},
    "resultTypes": ["violations"],
}
LANGUAGES = {"en": "en-GB", "de": "de-DE"}
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}
EXTRA_PLAYERS = 8  # twelve players in all, with tiles of their own on a third planet


def _league_world():
    """The public page world grown toward a league: twelve players, three planets, round 1 in
    battles with a duel and more battles (lists, proposals, results)."""
    world = build_page_world("public")
    gamma = world.lg.planet("Gamma")
    for index in range(EXTRA_PLAYERS):
        player = PlayerFactory(campaign=world.campaign, faction=f"Faction {index}")
        row(gamma, player, range(3 * index, 3 * index + 3), r=index % 2)
    TileFactory(planet=gamma, q=0, r=4, name="Grauer Pass")
    battle = page_duel(world, "battles")
    grow_battles(world, battle)
    return world, battle


def _pages(world, battle) -> dict[str, list[str]]:
    """The addresses each role reads (role: visitor, player anna, organiser)."""
    tile = Tile.objects.filter(campaign=world.campaign).order_by("pk").first()
    public = ["", "map/", f"map/?tile={tile.pk}", "map/text/", "map/history/", "fleets/",
              "standings/", "rounds/1/audit/"]
    member = ["battles/", battle_url(world, battle).removeprefix(world.url()), "log/"]
    admin = ["manage/", "manage/dashboard/", "manage/members/", "manage/webhooks/",
             "manage/guide/", "rules/",  # the rules with the organiser's guide link
             "manage/map/editor/", "manage/map/editor/areas/",
             f"manage/members/players/{world.lg.a.pk}/corrections/"]
    return {
        "visitor": ["/", "/rules/", "/accounts/login/", "/accounts/signup/",
                    "/accounts/password_reset/"] + [world.url(p) for p in public + ["rules/"]],
        "anna": ["/", "/accounts/profile/", "/accounts/password_change/"]
        + [world.url(p) for p in public + member + ["conquest/"]],
        world.lg.admin.username: ["/"] + [world.url(p) for p in public + member + admin],
    }


def _describe(violations: list[dict]) -> list[str]:
    lines = []
    for violation in violations:
        lines.append(f"  {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:6]:
            summary = " | ".join(node.get("failureSummary", "").splitlines()[1:3])
            lines.append(f"    {' '.join(map(str, node['target']))}: {summary.strip()[:240]}")
        if len(violation["nodes"]) > 6:
            lines.append(f"    ... {len(violation['nodes']) - 6} more")
    return lines


# One h1, the page's language on <html>, and the skip link first among the focusable elements.
BASICS = """() => {
  const focusable = document.querySelector(
    'a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])');
  return {h1: document.querySelectorAll('h1').length, lang: document.documentElement.lang,
          first: focusable && focusable.classList.contains('skip'),
          landmarks: ['header', 'nav', 'main', 'footer'].filter(
            tag => !document.querySelector(tag))};
}"""


def _basics(page, language: str) -> list[str]:
    basics = page.evaluate(BASICS)
    problems = []
    if basics["h1"] != 1:
        problems.append(f"{basics['h1']} h1 elements, not one")
    if basics["lang"] != language:
        problems.append(f"<html lang={basics['lang']!r}>, not {language!r}")
    if not basics["first"]:
        problems.append("the skip link is not the first focusable element")
    if basics["landmarks"]:
        problems.append(f"no {', '.join(basics['landmarks'])}")
    return problems


def _axe_start(page, role: str, url: str) -> None:
    """Starts axe on the open page without waiting for it (``_axe_result`` waits). The rule
    book's text is one document, whoever reads it: read in full by the visitor on the
    campaign's rules page (which adds the ruleset's boxes), its frame on the others."""
    whole = "/rules/" not in url or (role == "visitor" and "/campaigns/" in url)
    page.evaluate(AXE_SCRIPT)
    page.evaluate("""([context, options]) => {
      window.axeRun = axe.run(context || document, options).then(r => r.violations); }""",
                  [None if whole else {"exclude": [[".rules-text"]]}, AXE_OPTIONS])


def _axe_result(page) -> list[dict]:
    return page.evaluate("window.axeRun")


@pytest.mark.parametrize("reader", ["visitor", "player", "organiser"])
def test_axe_finds_no_wcag22_aa_violation_on_any_page(browsing, live_server, settings, reader):
    """One test per reader, so that the test workers share the page loads."""
    settings.OPEN_SIGNUP = True  # the signup form, not the invitation-only refusal
    started = time.monotonic()
    world, battle = _league_world()
    built = time.monotonic()
    report, loads = [], 0

    def collect(pending) -> None:
        tab, name, problems = pending
        violations = _axe_result(tab) + [
            {"id": "basics", "impact": "serious", "help": problem, "nodes": []}
            for problem in problems]
        if violations:
            report.append(name)
            report.extend(_describe(violations))

    role = {"visitor": "visitor", "player": "anna", "organiser": world.lg.admin.username}[reader]
    urls = _pages(world, battle)[role]
    for language, locale in LANGUAGES.items():
        first = (browsing.page(locale=locale) if role == "visitor"
                 else browsing.signed_in(role, start="/healthz", locale=locale))
        second = first.context.new_page()
        second.on("console", browsing._console)  # CSP violations fail the test too
        tabs, pending = (first, second), None
        for width in one_of(f"axe {reader} {language}", list(WIDTHS)):  # CI: both widths
            viewport = WIDTHS[width]
            if pending:  # no tab resized while axe reads it
                collect(pending)
                pending = None
            for tab in tabs:
                tab.set_viewport_size(viewport)
            for url in urls:
                tab = tabs[loads % 2]
                response = tab.goto(url)
                assert response and response.ok, f"{role} {url}: {response and response.status}"
                problems = _basics(tab, language)
                _axe_start(tab, role, url)
                loads += 1
                if pending:
                    collect(pending)
                pending = (tab, f"{role} {language} {width} {url}", problems)
        collect(pending)
    print(f"\naxe: {loads} page loads checked in {time.monotonic() - built:.1f} s (the world "
          f"built in {built - started:.1f} s)")
    assert not report, "axe-core found violations:\n" + "\n".join(report)


# The focused element (document.activeElement), where it is, and whether its focus shows: an
# outline of 2 px or more, or a ring drawn by box-shadow, per getComputedStyle.
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  const ring = style.boxShadow !== 'none';
  return {key: el.dataset.kbKey || null, tag: el.tagName.toLowerCase(),
          text: (el.getAttribute('aria-label') || el.name || el.textContent || '').trim()
            .slice(0, 40), type: el.type || '', skip: el.classList.contains('skip'),
          inMain: !!el.closest('main'), visible: outline || ring,
          outline: style.outlineStyle + ' ' + style.outlineWidth,
          focusVisible: el.matches(':focus-visible')};
}"""

# Every control a player can use on the page (visible, enabled, not in a closed <details>),
# each marked with a key; one key per radio group, since Tab reaches a group once.
CONTROLS = """() => {
  const selector = 'main :is(a[href], button, input:not([type=hidden]), select, textarea, '
    + 'summary, [tabindex]:not([tabindex="-1"]))';
  const keys = {};
  for (const el of document.querySelectorAll(selector)) {
    if (el.disabled || !el.checkVisibility({visibilityProperty: true})) continue;
    if (el.closest('svg')) continue;  // the map's own keyboard use is tested with the map
    const n = Object.keys(keys).length;
    const key = el.type === 'radio' && el.name ? 'radio:' + el.name : 'c' + n;
    el.dataset.kbKey = key;
    keys[key] = el.tagName.toLowerCase() + ' ' + (el.getAttribute('aria-label') || el.name
      || el.textContent || '').trim().slice(0, 40);
  }
  return keys;
}"""


def _tab_through(page, shot=None) -> tuple[list[str], list[dict]]:
    """Tab from the top of the page: the skip link first (Enter follows it), then through the
    page until every control was focused. Returns the controls never reached and the focused
    elements without a visible focus. ``shot``: a screenshot of the focused skip link there."""
    controls = page.evaluate(CONTROLS)
    wanted = set(controls)
    page.keyboard.press("Tab")
    first = page.evaluate(FOCUSED)
    unseen = [] if first and first["visible"] else [first]
    assert first and first["skip"], f"the first Tab reaches {first}, not the skip link"
    if shot:
        page.screenshot(path=str(shot))
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    after_skip = page.evaluate(FOCUSED)
    assert not wanted or (after_skip and after_skip["inMain"]), f"after the skip link: {after_skip}"
    reached = set()
    for _ in range(len(wanted) * 2 + 20):
        focused = page.evaluate(FOCUSED)
        if focused is None:
            break
        if not focused["visible"]:
            unseen.append(focused)
        if focused["key"]:
            reached.add(focused["key"])
        if reached >= wanted:
            break
        page.keyboard.press("Tab")
    return [controls[key] for key in sorted(wanted - reached)], unseen


def test_a_player_reaches_every_control_by_tab_with_a_visible_focus(browsing, page_world):
    world = page_world
    battle = page_duel(world, "lists")
    pages = ["", "battles/", battle_url(world, battle).removeprefix(world.url()), "fleets/",
             "standings/", "rounds/1/audit/", "conquest/"]
    page = browsing.signed_in("anna")
    problems = {}
    for url in [world.url(p) for p in pages] + ["/accounts/profile/"]:
        page.goto(url)
        missed, unseen = _tab_through(page, shot=OUTPUT / "keyboard-skip-link.png"
                                      if url == world.url("battles/") else None)
        if missed or unseen:
            problems[url] = {"never reached": missed, "focus not visible": unseen[:5]}
    assert not problems, "\n".join(f"{url}: {found}" for url, found in problems.items())


def test_the_phase_live_region_announces_a_deadline_coming_and_passing(browsing, page_world):
    """The phase in the tabs is a polite live region: while the page is open, an hour before
    the deadline and when it passes, it says so (the browser's clock run forward)."""
    from datetime import timedelta

    from django.utils import timezone

    world = page_world
    world.rnd.phase_deadline = timezone.now() + timedelta(hours=2)
    world.rnd.save(update_fields=["phase_deadline"])
    page = browsing.signed_in("anna", start="/healthz")
    page.clock.install()
    page.goto(world.url())
    status = page.locator("[data-phase-status]")
    assert status.get_attribute("aria-live") == "polite"
    assert status.get_attribute("role") == "status"
    said = status.locator("[data-announce]")
    assert said.text_content() == ""
    page.clock.run_for("01:01:00")
    assert said.text_content().strip() == "One hour left before the deadline."
    page.clock.run_for("01:00:00")
    assert said.text_content().strip() == "The deadline has passed; the phase moves on shortly."
