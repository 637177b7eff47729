"""Every number a page writes into SVG, CSS or a data attribute is locale-independent: German
readers get the same coordinates as English ones (a decimal point, never a decimal comma), so
icons, fleets and orbit rings stay where they belong and the standings chart is not garbled."""

import re
from html.parser import HTMLParser

import pytest

from battles.services.results import battle_result_enter
from tests.worlds import advance_to, chain, client_for, make_league

NUMBER = r"-?\d+(?:\.\d+)?"
LISTS = {"points": re.compile(rf"{NUMBER},{NUMBER}"), "viewbox": re.compile(NUMBER)}
# tiles are one hexagon moved to their centre
TRANSFORM = re.compile(rf"translate\(({NUMBER}) ({NUMBER})\)")
GEOMETRY = {"x", "y", "cx", "cy", "r", "x1", "x2", "y1", "y2", "width", "height", "size"}
TEXT = {"aria-label", "title", "alt", "placeholder", "content", "data-days", "data-passed",
        "value"}  # words in the reader's language; ``value`` carries form input as typed


class Attributes(HTMLParser):
    """The page's attributes: (tag, name, value, inside an SVG) in document order."""

    def __init__(self):
        super().__init__()
        self.found, self.svg = [], 0

    def handle_starttag(self, tag, attrs):
        self.svg += tag == "svg"
        self.found += [(tag, name, value or "", self.svg > 0) for name, value in attrs]

    def handle_startendtag(self, tag, attrs):
        self.found += [(tag, name, value or "", self.svg > 0 or tag == "svg")
                       for name, value in attrs]

    def handle_endtag(self, tag):
        self.svg -= tag == "svg"


def attributes(html: str) -> list[tuple]:
    parser = Attributes()
    parser.feed(html)
    return parser.found


def check_numbers(html: str) -> int:
    """Asserts every numeric attribute parses; returns how many SVG numbers were checked."""
    checked = 0
    for tag, name, value, in_svg in attributes(html):
        if name in LISTS and in_svg:
            tokens = value.split()
            assert tokens and all(LISTS[name].fullmatch(t) for t in tokens), (tag, name, value)
            checked += len(tokens)
        elif name in GEOMETRY and in_svg:
            assert re.fullmatch(NUMBER, value), (tag, name, value)
            checked += 1
        elif name == "transform" and in_svg:
            assert TRANSFORM.fullmatch(value), (tag, name, value)
            checked += 2
        elif name == "d" and in_svg:  # path data: commands, numbers, spaces
            tokens = re.split(r"[\s,]+|(?<=[A-Za-z])|(?=[A-Za-z])", value)
            numbers = [t for t in tokens if t and not t.isalpha()]
            assert all(re.fullmatch(NUMBER, t) for t in numbers), (tag, name, value)
            checked += len(numbers)
        elif name == "style" or name.startswith("data-") and name not in TEXT:
            assert not re.search(r"\d,\d", value), (tag, name, value)
    return checked


def numbers_of(html: str) -> list[tuple]:
    return [(tag, name, value) for tag, name, value, in_svg in attributes(html)
            if in_svg and (name in LISTS or name in GEOMETRY or name in ("transform", "d"))]


def page(user, url: str, language: str) -> str:
    response = client_for(user).get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    return html


@pytest.mark.parametrize("rest", ["", "map/", "standings/", "fleets/", "battles/"])
def test_svg_numbers_are_the_same_in_german_and_english(page_world, rest):
    world = page_world
    advance_to(world.rnd, "closed")  # a closed round: the standings chart has two columns
    url, anna = world.url(rest), world.lg.a.user
    english, german = page(anna, url, "en"), page(anna, url, "de")
    check_numbers(english)
    check_numbers(german)
    assert numbers_of(german) == numbers_of(english)


def test_the_map_and_chart_write_fractional_coordinates_with_a_point(page_world):
    world = page_world
    advance_to(world.rnd, "closed")
    anna = world.lg.a.user
    for rest, fractions in (("map/", 50), ("standings/", 2)):
        html = page(anna, world.url(rest), "de")
        assert check_numbers(html) > fractions
        coordinates = " ".join(value for *_, value in numbers_of(html))
        assert len(re.findall(r"\d\.\d", coordinates)) >= fractions, rest


def test_data_attributes_with_odds_are_locale_independent(db):
    lg = make_league()
    first = chain(lg)[0]
    battle_result_enter(battle=first, by_admin_user=lg.admin, outcome="moral_victory",
                        attacker_vp=10, defender_vp=5)
    url = f"/campaigns/{lg.campaign.pk}/battles/{first.pk}/"
    english, german = page(lg.a.user, url, "en"), page(lg.a.user, url, "de")
    for html in (english, german):
        check_numbers(html)

    def chances(html):
        return [v for _, name, v, _ in attributes(html) if name == "data-chance"]

    assert chances(german) == chances(english) and chances(english)


def test_the_german_map_draws_the_same_tiles_chart_and_arrows(page_world):
    """The whole theatre (tiles moved by ``transform``, the chart of areas with its fleets and
    the player's order arrows) has the same numbers in German as in English."""
    from fleets.models import Area, Fleet
    from tests.factories import AreaFactory, FleetOrderFactory

    world = page_world
    orbit = Area.objects.get(campaign=world.campaign, kind="orbit")
    reach = AreaFactory(campaign=world.campaign, name="Far Reach")
    orbit.adjacent.add(reach)
    FleetOrderFactory(round=world.rnd, fleet=Fleet.objects.get(owner=world.lg.a),
                      path=[reach.pk])
    url, anna = world.url("map/"), world.lg.a.user
    english, german = page(anna, url, "en"), page(anna, url, "de")
    assert check_numbers(german) > 100
    assert numbers_of(german) == numbers_of(english)
    names = {name for _, name, _ in numbers_of(german)}
    assert {"transform", "points", "viewbox", "cx", "d"} <= names
    assert '<path class="order" d="M' in german and "Meere und All" in german
