"""On a phone (390 x 844) no page scrolls sideways (wide tables and maps
scroll inside their card) and every control is thumb-sized; at desktop width nothing spills
out either. The top of a campaign page (header, language menu, tabs) takes at most 120 px on a
phone, in English and German."""

import pytest

from tests.e2e.conftest import DESKTOP, PHONE
from tests.worlds import battle_url, page_duel

pytestmark = pytest.mark.django_db(transaction=True)

THUMB_PX = 44
TOP_PX = 120  # the site's header, the language menu and the campaign tabs together
BOX_PX = 24  # checkboxes and radio buttons

# Elements reaching past the right edge that are not inside a scrolling container, and
# visible controls smaller than a thumb.
MEASURE = """([thumb, box]) => {
  const width = document.documentElement.clientWidth;
  const inScroller = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
      if (/(auto|scroll)/.test(getComputedStyle(p).overflowX)) return true;
    return false;
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.name ? '[name=' + el.name + ']' : '') + ' ' + (el.textContent || '').trim().slice(0, 30);
  const spill = [], small = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 1 && !inScroller(el)) spill.push(name(el));
  }
  const controls = 'button, select, textarea, input:not([type=hidden])';
  for (const el of document.querySelectorAll(controls)) {
    const r = el.getBoundingClientRect();
    const least = ['checkbox', 'radio'].includes(el.type) ? box : thumb;
    if (r.width && r.height && r.height + 0.5 < least) small.push(name(el) + ' ' + r.height);
  }
  return {spill, small};
}"""


# How far the page scrolls sideways, and where the campaign's tab bar ends.
TOP = """() => ({
  sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  top: document.querySelector('nav.tabs').getBoundingClientRect().bottom,
})"""


def _pages(world):
    battle = page_duel(world, "battles")
    player = ["", "map/", "battles/", battle_url(world, battle).removeprefix(world.url()),
              "fleets/", "standings/", "conquest/", "rounds/1/audit/"]
    return {"anna": [world.url(p) for p in player] + ["/accounts/profile/", "/"],
            world.lg.admin.username: [world.url("manage/"), world.url("manage/members/")]}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_spills_sideways_and_controls_fit_a_thumb(browsing, page_world, viewport):
    problems = {}
    for username, urls in _pages(page_world).items():
        page = browsing.signed_in(username, viewport=viewport)
        for url in urls:
            page.goto(url)
            found = page.evaluate(MEASURE, [THUMB_PX, BOX_PX])
            if viewport is DESKTOP:
                found.pop("small")  # a mouse needs no thumb-sized controls
            if any(found.values()):
                problems[f"{username} {url}"] = found
    assert not problems, problems


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"], ids=["en", "de"])
def test_the_top_of_a_campaign_page_fits_in_120_px_on_a_phone(browsing, page_world, locale):
    battle = page_duel(page_world, "battles")
    pages = {"anna": ["", "map/", "battles/", battle_url(page_world, battle).removeprefix(
        page_world.url()), "fleets/", "standings/", "conquest/", "rounds/1/audit/"],
        page_world.lg.admin.username: ["manage/", "manage/members/"]}
    found = {}
    for username, rests in pages.items():
        page = browsing.signed_in(username, viewport=PHONE, locale=locale)
        for rest in rests:
            page.goto(page_world.url(rest))
            found[rest] = page.evaluate(TOP)
            browsing.shot(page, f"{locale[:2]}-{rest.strip('/').replace('/', '-') or 'home'}")
    too_tall = {rest: m["top"] for rest, m in found.items() if m["top"] > TOP_PX}
    sideways = {rest: m["sideways"] for rest, m in found.items() if m["sideways"] > 0}
    assert not too_tall and not sideways, (too_tall, sideways)
