"""The map read on any screen and without colour (R-MAP-1, R-MAP-2): tile names whole, wrapped
and sized to stay inside their hex (``web.presenters.hex_text``), owners told apart by a
pattern and a short label as well as their colour, defence lines drawn light and dark, the
editor grid with terrain icons, and the map's numbers locale-independent."""

import re
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.models import Tile
from tests.web.test_svg_numbers import check_numbers
from tests.worlds import client_for
from web.presenters.hex_text import CAP, DESCENT, HALO, half_width, layout, text_width
from web.presenters.hexmap import owner_labels

RADIUS = 24
NAMES = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzÄÖÜäöüßWM- .'"),
                min_size=1, max_size=40).filter(lambda s: s.strip())


def _letters(text: str) -> str:
    return text.replace(" ", "").replace("-", "")


def _inside(fit, pad: float = 0.0) -> bool:
    for line, y in zip(fit.lines, fit.line_ys, strict=True):
        width = text_width(line, fit.size) + HALO
        for edge in (y - fit.size * CAP, y + fit.size * DESCENT):
            if width / 2 > half_width(edge, RADIUS) - pad:
                return False
    return True


@settings(max_examples=150, deadline=None)
@given(name=NAMES, label=st.booleans(), icons=st.integers(min_value=0, max_value=5))
def test_r_map_1_a_name_is_whole_and_inside_its_hex(name, label, icons):
    fit = layout(name, radius=RADIUS, label=label, icons=icons)
    assert _letters("".join(fit.lines)) == _letters(name)  # nothing cut off
    if len(fit.lines) <= 3:  # at most three lines whenever the name allows it
        assert _inside(fit, pad=1.5)
    if label:  # below the owner's label
        assert fit.line_ys[0] - fit.size * CAP > fit.label_y
    for x in fit.icon_x:  # the icons inside the hex too
        assert abs(x) <= half_width(fit.icon_y, RADIUS) and \
            abs(x + fit.icon_size) <= half_width(fit.icon_y, RADIUS)


def test_long_names_wrap_and_short_ones_stay_large():
    short = layout("Hive", radius=RADIUS)
    assert short.lines == ("Hive",) and short.size == 8
    long = layout("Nordmarkfestungsanlage der Ewigen Wacht", radius=RADIUS, label=True, icons=2)
    assert len(long.lines) == 3 and 3 <= long.size < short.size
    assert layout("Schmiedewelt-Außenposten Vier", radius=RADIUS).lines[0].endswith("-")
    assert "--" not in "".join(layout("Schmiedewelt-Außenposten Vier", radius=RADIUS).lines)


def test_owner_labels_are_short_and_unique():
    players = {pk: SimpleNamespace(faction=f) for pk, f in enumerate(
        ("Adeptus Mechanicus", "Astra Militarum", "Orks", "Orks", "T'au Empire", ""), start=1)}
    labels = owner_labels(players)
    assert labels[1] == "AM" and labels[2] == "AM2" and labels[3] == "ORK"
    assert len(set(labels.values())) == len(labels)
    assert all(1 <= len(label) <= 3 for label in labels.values())


def _tile_group(html: str, tile: Tile) -> str:
    start = html.index(f'data-tile-id="{tile.pk}"')
    return html[html.rindex("<g ", 0, start):html.index("</g>", start)]


def test_owners_have_a_pattern_and_label_on_the_tile_and_in_the_legend(page_world):
    lg, tiles = page_world.lg, page_world.tiles
    Tile.objects.filter(pk=tiles["free"].pk).update(name="Kathedrale des heiligen Imperators")
    html = client_for(lg.c.user).get(page_world.url("map/")).content.decode()
    labels = owner_labels({p.pk: p for p in sorted(lg.players, key=lambda p: p.pk)})
    for player in lg.players:  # colour, pattern and label in one fill per owner
        assert re.search(rf'<pattern id="owner-{player.pk}"[^>]*><rect [^>]*'
                         rf'fill="{player.colour}"/><rect [^>]*fill="url\(#own-\d\)"/>'
                         rf'<text class="owner"[^>]*>{labels[player.pk]}</text></pattern>', html)
    assert f'fill="url(#owner-{lg.b.pk})"' in _tile_group(html, tiles["b-home"])
    assert "#owner-" not in _tile_group(html, tiles["free"])  # neutral
    legend = html.split('id="legend-title"', 1)[1]
    assert re.search(rf'fill="url\(#own-\d\)"/></svg> <b class="owner-label">'
                     rf'{labels[lg.b.pk]}</b> {lg.b.faction}', legend)
    group = _tile_group(html, tiles["free"])
    assert "Kathedrale" in group and "Imperators" in group and "…" not in group
    assert re.search(r'<symbol id="icon-|<pattern id="own-7"', html)


def test_r_map_2_a_defence_line_is_drawn_dark_on_light(page_world):
    html = client_for(page_world.lg.c.user).get(page_world.url("map/")).content.decode()
    group = _tile_group(html, page_world.tiles["b-home"])
    assert 'class="tile defence"' in group
    assert '<use class="wall" href="#hex" fill="none"/>' in group
    assert '<use class="wall"' not in _tile_group(html, page_world.tiles["b-edge"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_map_numbers_stay_locale_independent(page_world, language):
    Tile.objects.filter(pk=page_world.tiles["free"].pk).update(name="Ödland jenseits der Wüste")
    html = client_for(page_world.lg.c.user).get(page_world.url("map/"),
                                                HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert check_numbers(html) > 50
    assert not re.search(r'(font-size|y)="-?\d+,\d', html)


def test_the_editor_grid_shows_terrain_icons_and_whole_names(page_world):
    lg, tiles = page_world.lg, page_world.tiles
    Tile.objects.filter(pk=tiles["b-home"].pk).update(name="Nordmarkfestungsanlage der Wacht")
    html = client_for(lg.admin).get(
        page_world.url(f"manage/map/editor/?planet={page_world.alpha.pk}")).content.decode()
    grid = html[html.index('<svg class="editor-grid"'):]
    cell = grid.split(f'data-tile-id="{tiles["b-home"].pk}"', 1)[1].split("</a>", 1)[0]
    assert 'href="#icon-macropole"' in cell and 'class="wall"' in cell
    assert "Nordmarkfest-" in cell and "Wacht" in cell and "…" not in cell
    assert "Macropole" in cell  # in its label for screen readers
    mountain = grid.split(f'data-tile-id="{tiles["b-edge"].pk}"', 1)[1].split("</a>", 1)[0]
    assert 'href="#icon-mountain"' in mountain
