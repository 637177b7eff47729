"""The standings table's rows and the tiles chart are built as markup once per request
(web/presenters/standings.py, web/presenters/chart.py) instead of per-cell template work; they
say what the template said (R-VP-2), escape what players typed, and stay locale-independent."""

from django.utils import translation

from campaigns.services.accounts import FORMER_MEMBER_PREFIX
from web.presenters.chart import tiles_chart
from web.presenters.standings import standings_rows

ROW = {"player": 7, "rank": 2, "faction": "<Orks & co>", "display_name": "", "username": "ada",
       "tiles": 12, "planets": 3, "battles_won": 4, "battles_drawn": 1, "battles_lost": 2,
       "victory_points": 1500, "fleets": 2, "ships": 11}


def test_standings_rows_hold_every_figure_escaped():
    html = standings_rows([ROW], {7: '#00ff00"'})
    assert html.startswith('<tr data-player-id="7"><td>2</td>')
    assert "&lt;Orks &amp; co&gt;" in html and "<Orks" not in html
    assert 'fill="#00ff00&quot;"' in html
    assert "(ada)" in html
    assert "<td>12</td><td>3</td><td>4/1/2</td><td>1500</td><td>2</td><td>11</td>" in html


def test_standings_rows_name_former_members_and_tolerate_old_frozen_rows():
    gone = {**ROW, "username": FORMER_MEMBER_PREFIX + "7"}
    old = {"player": 8, "rank": 1, "faction": "Eldar", "username": "bo"}  # no figures
    with translation.override("de"):
        html = standings_rows([gone, old], {})
    assert "(ehemaliges Mitglied)" in html
    assert FORMER_MEMBER_PREFIX not in html
    assert '<tr data-player-id="8"><td>1</td>' in html and "<td></td>" in html


def test_tiles_chart_is_the_same_markup_in_german_and_english():
    history = [("1", [ROW]), ("2", [{**ROW, "tiles": 13}])]
    players = [{"id": 7, "faction": "<Orks>", "colour": "#123456"}]
    with translation.override("en"):
        english = tiles_chart(history, players)
    with translation.override("de"):
        german = tiles_chart(history, players)
    assert '<polyline points="44,' in german["svg"] and "&lt;Orks&gt;, 2: 13" in german["svg"]
    assert str(german["svg"]).split("</desc>")[1] == str(english["svg"]).split("</desc>")[1]
    assert german["legend"].count("<li>") == 1 and "&lt;Orks&gt;" in german["legend"]
