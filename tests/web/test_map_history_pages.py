"""The map history page: /campaigns/<id>/map/history/?round=n draws the map
as it stood when round n closed, offers the closed rounds and lists what changed; public facts
only (R-FLT-7), readable like the map (R-SEC-1), in English and German."""

import re
from html.parser import HTMLParser

import pytest

from campaigns.models import RoundMap
from tests.factories import FleetFactory, ShipFactory, TileMarkerFactory
from tests.module_world import module_world
from tests.web.queries import assert_constant_queries
from tests.web.test_svg_numbers import check_numbers, numbers_of
from tests.worlds import (
    HISTORY_COLOURS,
    HISTORY_SECRETS,
    advance_to,
    build_history_world,
    client_for,
    declare,
    play_history_rounds,
    row,
)

pytestmark = pytest.mark.django_db
PAGE = "map/history/"


def _played():
    world = build_history_world()
    play_history_rounds(world)
    return world


played = module_world(_played)  # two rounds played once per module


def get(world, user, query: str = "", language: str = "en", status: int = 200) -> str:
    response = client_for(user).get(world.url(PAGE) + query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == status
    return response.content.decode()


def changes(html: str, kind: str) -> list[str]:
    """The entries of one "what changed" list, as text."""
    block = re.search(rf'data-changes="{kind}">(.*?)</ul>', html, re.S)
    items = re.findall(r"<li>(.*?)</li>", block.group(1), re.S) if block else []
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def fills(html: str) -> dict[str, str]:
    """Tile id -> colour of the drawn hexes (an owner's tile is filled with the owner's
    pattern, ``url(#owner-<id>)``, whose first rectangle has the owner's colour)."""
    found, patterns, pattern = {}, {}, []

    class Hexes(HTMLParser):
        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "polygon" and "data-tile-id" in attrs:
                found[attrs["data-tile-id"]] = attrs["fill"]
            elif tag == "pattern":
                pattern[:] = [attrs.get("id")]
            elif tag == "rect" and pattern and pattern[0] not in patterns:
                patterns[pattern[0]] = attrs.get("fill")

        handle_startendtag = handle_starttag

    Hexes().feed(html)
    return {tile: patterns.get(fill[5:-1], fill) if fill.startswith("url(#") else fill
            for tile, fill in found.items()}


def test_the_latest_closed_round_is_shown_with_its_changes(played):
    html = get(played, played.lg.c.user)
    assert "after round 2" in html
    assert changes(html, "owners") == ["Hill 12 (Alpha): Orks → Mechanicus"]
    assert changes(html, "markers") == ["Alpha (0, 0): added Shield generator"]
    assert changes(html, "fleets") == ["Deep Ocean: Orks: fleets 1 → 0, ships 1 → 0",
                                       "Alpha Coast: Orks: fleets 0 → 1, ships 0 → 1"]
    tiles = played.tiles
    drawn = fills(html)
    assert drawn[str(tiles["b-edge"].pk)] == HISTORY_COLOURS[0]  # anna's now
    assert drawn[str(tiles["b-home"].pk)] == HISTORY_COLOURS[1]


def test_the_round_selector_offers_closed_rounds_and_shows_round_1(played):
    html = get(played, played.lg.a.user, "?round=1")
    options = re.findall(r'<option value="(\d+)"( selected)?>', html)
    assert options == [("1", " selected"), ("2", "")]
    assert "The map as set up before round 1 was not recorded" in html
    assert "Hill 12 (Alpha): Orks" in changes(html, "owners")
    assert fills(html)[str(played.tiles["b-edge"].pk)] == HISTORY_COLOURS[1]  # still ben's
    for query in ("?round=3", "?round=9", "?round=x", "?round=-1"):  # open, missing, junk
        get(played, played.lg.a.user, query, status=404)


def test_the_page_is_german_for_german_readers(played):
    html = get(played, played.lg.a.user, language="de")
    assert '<html lang="de">' in html and "Kartenverlauf" in html
    assert "Was sich geändert hat" in html and "nach Runde 2" in html
    assert changes(html, "owners") == ["Hill 12 (Alpha): Orks → Mechanicus"]
    assert changes(html, "fleets")[0] == "Deep Ocean: Orks: Flotten 1 → 0, Schiffe 1 → 0"
    assert changes(html, "markers") == ["Alpha (0, 0): Schildgenerator hinzugefügt"]
    assert '<a href="' in html and 'aria-current="page">Karte</a>' in html  # the map tab


def test_svg_numbers_are_the_same_in_german_and_english(played):
    english = get(played, played.lg.a.user)
    german = get(played, played.lg.a.user, language="de")
    assert check_numbers(german) > 20
    assert numbers_of(german) == numbers_of(english)


@pytest.mark.parametrize("role", ["player", "other", "admin", "outsider", "anonymous"])
def test_r_flt_7_the_page_shows_no_hidden_fleet_or_hazard(played, role):
    """Not even the fleet's owner or the admin: the history holds public facts only."""
    public = build_history_world("public")
    play_history_rounds(public, rounds=1)
    for world in (played, public):
        user = {"player": world.lg.a.user, "other": world.lg.b.user, "admin": world.lg.admin,
                "outsider": None, "anonymous": None}[role]
        if world is played and user is None:
            continue
        html = get(world, user)
        assert not [word for word in HISTORY_SECRETS if word in html]


def test_r_sec_1_private_history_is_hidden_like_the_map(played, outsider):
    for user, hidden in ((None, 302), (outsider, 404)):  # logged out: the login page
        assert client_for(user).get(played.url(PAGE)).status_code == hidden
        assert client_for(user).get(played.url("map/")).status_code == hidden
    public = build_history_world("public")
    assert client_for(None).get(public.url(PAGE)).status_code == 200
    assert client_for(outsider).get(public.url(PAGE)).status_code == 200


def test_before_any_round_closed_the_page_says_so(db):
    world = build_history_world()
    html = get(world, world.lg.a.user)
    assert "No round has closed yet" in html and 'name="round"' not in html


def test_a_round_closed_before_map_history_is_not_recorded(played):
    RoundMap.objects.filter(round__campaign=played.campaign, round__number=1).delete()
    html = get(played, played.lg.a.user, "?round=1")
    assert 'data-history="not-recorded"' in html and "<polygon" not in html
    assert "round 1 (not recorded)" in html
    later = get(played, played.lg.a.user, "?round=2")
    assert 'data-history="previous-not-recorded"' in later and "<polygon" in later
    assert 'data-changes="owners"' not in later


def test_standings_link_to_the_map_of_each_closed_round(played):
    html = client_for(played.lg.a.user).get(played.url("standings/")).content.decode()
    for number in (1, 2):
        assert f'href="{played.url(PAGE)}?round={number}" data-map-round="{number}"' in html


def _grow(world) -> None:
    """More tiles, markers, fleets, ships and a closed round whose map is shown."""
    lg = world.lg
    gamma = lg.planet("Gamma")
    for tile in row(gamma, lg.d, range(6)) + row(gamma, None, range(6), r=1):
        TileMarkerFactory(tile=tile)
    for owner in (lg.c, lg.d):
        ShipFactory(fleet=FleetFactory(area=world.areas["coast"], owner=owner))
    rnd = world.campaign.rounds.get(number=3)
    declare(lg.a, rnd, world.tiles["b-home"])
    advance_to(rnd, "closed")


@pytest.mark.parametrize("role", ["player", "admin"])
def test_page_queries_stay_constant_as_the_map_grows(played, role):
    user = played.lg.a.user if role == "player" else played.lg.admin
    assert_constant_queries(client_for(user), played.url(PAGE), lambda: _grow(played))


def test_a_past_map_offers_no_tile_buttons_nor_own_fleet_legend(played):
    """Nothing on a past round's map can be clicked or is "yours": no keyboard stops on its
    tiles and no legend lines for own fleets or movement orders (the live map has both)."""
    past = get(played, played.lg.a.user)
    live = client_for(played.lg.a.user).get(played.url("map/")).content.decode()
    for html, expected in ((past, False), (live, True)):
        tiles = re.findall(r"<polygon[^>]*data-tile-id[^>]*>", html)
        assert tiles and all(('role="button"' in t) is expected for t in tiles)
        assert ("Your movement order" in html) is expected


def test_the_legend_names_the_players_by_colour(played):
    legend = re.search(r'<section class="legend".*?</section>', get(played, played.lg.a.user),
                       re.S).group(0)
    assert "Mechanicus" in legend and "Orks" in legend
