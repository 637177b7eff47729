"""Standings now and per round with the tiles chart, and the dice audit with its verifier."""

import re

from campaigns.models import DiceRoll
from tests.worlds import advance_to, client_for, declare

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_live_standings_rank_the_players(page_world):
    html = client_for(page_world.lg.d.user).get(page_world.url("standings/")).content.decode()
    order = re.findall(r'<tr data-player-id="(\d+)">', html)
    lg = page_world.lg  # carl 3 tiles; anna and ben 2 each (by name then); dora none
    assert order == [str(p.pk) for p in (lg.c, lg.a, lg.b, lg.d)]
    assert 'aria-current="page">now<' in html


def test_frozen_standings_and_the_chart_over_the_rounds(page_world):
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"])
    advance_to(page_world.rnd, "closed")  # the neutral tile falls to a conquest roll or not
    client = client_for(page_world.lg.d.user)
    frozen = client.get(page_world.url("standings/"), {"round": 1})
    html = frozen.content.decode()
    assert frozen.status_code == 200 and "after round 1" in html
    chart = html.split('<figure class="chart">', 1)[1]
    assert chart.count("<polyline") == 4  # one line per player: round 1 and now
    assert chart.count("<circle") == 8
    assert client.get(page_world.url("standings/"), {"round": 7}).status_code == 404
    assert client.get(page_world.url("standings/"), {"round": "x"}).status_code == 404


def test_audit_before_close_hides_the_seed_and_offers_no_verify(page_world):
    client = client_for(page_world.lg.a.user)
    html = client.get(page_world.url("rounds/1/audit/")).content.decode()
    assert page_world.rnd.seed_commitment in html
    assert "Secret until the round closes." in html and "Verify every roll" not in html
    refused = client.get(page_world.url("rounds/1/audit/verify/"), **HTMX)
    assert refused.status_code == 409 and "revealed when the round closes" in \
        refused.content.decode()
    assert client.get(page_world.url("rounds/9/audit/")).status_code == 404


def test_audit_after_close_verifies_every_roll(page_world):
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"])
    advance_to(page_world.rnd, "closed")
    rolls = DiceRoll.objects.filter(round=page_world.rnd).count()
    assert rolls > 0
    client = client_for(page_world.lg.b.user)
    html = client.get(page_world.url("rounds/1/audit/")).content.decode()
    assert bytes(page_world.rnd.server_seed).hex() in html and "Verify every roll" in html
    assert html.count("<code>conquest") == rolls
    report = client.get(page_world.url("rounds/1/audit/verify/"), **HTMX).content.decode()
    assert 'data-verified="true"' in report and "<html" not in report
    page = client.get(page_world.url("rounds/1/audit/verify/")).content.decode()
    assert 'data-verified="true"' in page and "<html" in page


def test_verify_reports_a_tampered_roll(page_world):
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"])
    advance_to(page_world.rnd, "closed")
    roll = DiceRoll.objects.filter(round=page_world.rnd).first()
    roll.faces = [7 - face for face in roll.faces]
    roll.save()
    report = client_for(page_world.lg.b.user).get(page_world.url("rounds/1/audit/verify/"), **HTMX)
    assert 'data-verified="false"' in report.content.decode()
