"""Rounds: phase machine (R-RND-1..2), deadlines, the dice log and its verifier (R-DICE-2/3),
round close (R-ECO-1, R-VP-2)."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.models import DiceRoll, Player, Round, RoundStandings
from campaigns.services.dice import round_dice
from league.services.rounds import advance_due_rounds, campaign_start, round_advance
from tests.factories import CampaignFactory, PlanetFactory, PlayerFactory, TileFactory, UserFactory

PHASES = ["declare", "fleets", "lists", "battles", "conquest", "closed"]


@pytest.fixture
def league(db):
    admin = UserFactory(username="orga")
    campaign = CampaignFactory(visibility="private")
    campaign.admins.add(admin)
    players = [PlayerFactory(campaign=campaign, user=UserFactory(username=n), requisition=0)
               for n in ("anna", "ben")]
    planet = PlanetFactory(campaign=campaign)
    TileFactory(planet=planet, q=0, r=0, owner=players[0])
    TileFactory(planet=planet, q=1, r=0, owner=players[0])
    TileFactory(planet=planet, q=2, r=0, owner=players[1])
    return campaign, admin, players


def api(user=None) -> APIClient:
    client = APIClient()
    if user:
        client.force_authenticate(user)
    return client


def test_r_rnd_1_admin_walks_a_round_through_every_phase(
        league, django_capture_on_commit_callbacks):
    campaign, admin, _ = league
    client = api(admin)
    url = f"/api/v1/campaigns/{campaign.pk}/advance/"
    started = client.post(url)
    assert started.status_code == 200
    assert started.json()["phase"] == "declare" and started.json()["number"] == 1
    assert started.json()["phase_deadline"] is not None
    with django_capture_on_commit_callbacks(execute=True):
        after_declare = client.post(url, {"expected_phase": "declare"}).json()
    # fleets is automatic: its job ran on commit and moved the round on to lists (R-RND-2)
    assert after_declare["phase"] in ("fleets", "lists")
    assert Round.objects.get(campaign=campaign, number=1).phase == "lists"
    assert client.post(url, {"expected_phase": "lists"}).json()["phase"] == "battles"
    # nobody won an attack: no conquest roll is due, the conquest phase is passed over
    # [reading R-RND-1, R-CON-4] (tests/league/test_conquest_pass_over.py)
    closing = client.post(url, {"expected_phase": "battles"}).json()
    assert closing["number"] == 2 and closing["phase"] == "declare"
    first = Round.objects.get(campaign=campaign, number=1)
    assert first.phase == "closed" and first.seed_revealed and first.closed_at


def test_r_rnd_1_deadlines_follow_the_ruleset(league):
    campaign, _, _ = league
    campaign.ruleset = {**campaign.ruleset, "phase_hours": {**campaign.ruleset["phase_hours"],
                                                            "declare": 5}}
    campaign.save()
    now = timezone.now()
    rnd = campaign_start(campaign=campaign, now=now)
    assert rnd.phase_deadline == now + timedelta(hours=5)


def test_r_rnd_1_a_stored_ruleset_without_phase_hours_gets_their_defaults(league):
    """A ruleset stored before ``phase_hours`` was set: declare 48 h, battles 72 h (the
    ruleset's defaults), not one flat figure for every phase."""
    campaign, _, _ = league
    campaign.ruleset = {k: v for k, v in campaign.ruleset.items() if k != "phase_hours"}
    campaign.save()
    now = timezone.now()
    rnd = campaign_start(campaign=campaign, now=now)
    assert rnd.phase_deadline == now + timedelta(hours=48)
    for phase in ("fleets", "lists", "battles"):
        rnd = round_advance(round_id=rnd.pk, expected_phase=rnd.phase, now=now)
        assert rnd.phase == phase
    assert rnd.phase_deadline == now + timedelta(hours=72)


def test_r_rnd_2_deadline_advance_runs_once(league):
    campaign, _, _ = league
    campaign.ruleset = {**campaign.ruleset, "early_advance": False}  # deadline only
    campaign.save()
    now = timezone.now()
    rnd = campaign_start(campaign=campaign, now=now)
    assert advance_due_rounds(now + timedelta(hours=1)) == 0
    later = now + timedelta(hours=49)
    moved_first = advance_due_rounds(later)
    rnd.refresh_from_db()
    assert rnd.phase == "lists"  # declare -> fleets (automatic, no deadline) -> lists
    assert moved_first >= 1
    assert advance_due_rounds(later) == 0
    rnd.refresh_from_db()
    assert rnd.phase == "lists"


def test_r_rnd_2_advance_is_idempotent_with_expected_phase(league):
    campaign, _, _ = league
    rnd = campaign_start(campaign=campaign)
    round_advance(round_id=rnd.pk, expected_phase="declare")
    again = round_advance(round_id=rnd.pk, expected_phase="declare")
    assert again.phase == "fleets"


def test_r_rnd_2_tick_command_advances_due_rounds(league):
    campaign, _, _ = league
    campaign.ruleset = {**campaign.ruleset, "early_advance": False}  # deadline only
    campaign.save()
    rnd = campaign_start(campaign=campaign)
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=timezone.now() - timedelta(minutes=1))
    call_command("tick")
    rnd.refresh_from_db()
    assert rnd.phase == "lists"


@pytest.mark.django_db(transaction=True)
def test_r_rnd_2_racing_advances_change_the_phase_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    campaign = CampaignFactory()
    PlayerFactory(campaign=campaign)
    rnd = campaign_start(campaign=campaign)
    Round.objects.filter(pk=rnd.pk).update(phase="lists")
    results = race(rnd.pk, "lists", 4)
    rnd.refresh_from_db()
    assert rnd.phase == "battles"
    assert results == ["battles"] * 4


def race(round_id: int, phase: str, threads: int) -> list[str]:
    """Advance the round out of ``phase`` from several threads at once; their results."""
    barrier, results = threading.Barrier(threads), []

    def advance():
        barrier.wait()
        try:
            results.append(round_advance(round_id=round_id, expected_phase=phase).phase)
        finally:
            connection.close()

    workers = [threading.Thread(target=advance) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return results


def test_r_rnd_2_only_the_campaign_admin_advances(league):
    campaign, _, players = league
    url = f"/api/v1/campaigns/{campaign.pk}/advance/"
    assert api().post(url).status_code in (401, 404)
    assert api(players[0].user).post(url).status_code == 403
    assert api(UserFactory()).post(url).status_code == 404  # private campaign: no oracle


def test_r_rnd_1_admin_moves_a_deadline(league):
    campaign, admin, players = league
    campaign_start(campaign=campaign)
    url = f"/api/v1/campaigns/{campaign.pk}/rounds/1/"
    new = (timezone.now() + timedelta(days=3)).replace(microsecond=0)
    response = api(admin).patch(url, {"phase_deadline": new.isoformat()}, format="json")
    assert response.status_code == 200
    assert Round.objects.get(campaign=campaign).phase_deadline == new
    assert api(players[0].user).patch(url, {"phase_deadline": new.isoformat()},
                                      format="json").status_code == 403
    bad = api(admin).patch(url, {"phase_deadline": "soon"}, format="json")
    assert bad.status_code == 400 and "phase_deadline" in bad.json()["errors"]


def _close(rnd):
    """Advance the round phase by phase until it is closed (a conquest phase with no roll due
    is passed over, [reading R-RND-1, R-CON-4])."""
    while Round.objects.get(pk=rnd.pk).phase != "closed":
        round_advance(round_id=rnd.pk)


def _draw(rnd, purpose, n=2):
    rnd = Round.objects.select_related("campaign").get(pk=rnd.pk)
    with round_dice(rnd) as dice:
        dice.current_object = "test"
        return dice.roll(n, 6, purpose)


def test_r_dice_3_log_is_hidden_until_close_and_verifies_after(league):
    campaign, admin, players = league
    rnd = campaign_start(campaign=campaign)
    _draw(rnd, "conquest:attack=1")
    _draw(rnd, "naval:battle=1:r1", n=5)
    assert list(DiceRoll.objects.filter(round=rnd).values_list("counter", flat=True)) == [0, 1]
    member = api(players[0].user)
    base = f"/api/v1/campaigns/{campaign.pk}/rounds/1/"
    seed_hex = bytes(Round.objects.get(pk=rnd.pk).server_seed).hex()
    log = member.get(base + "rolls/").json()
    assert log["server_seed"] is None
    assert [r["purpose"] for r in log["rolls"]] == ["conquest:attack=1"]  # fleet draws hidden
    assert member.get(base + "verify/").status_code == 409
    for path in ("", "rolls/", "verify/"):
        assert seed_hex not in member.get(base + path).content.decode()
    _close(rnd)
    closed = member.get(base).json()
    assert closed["server_seed"] == seed_hex
    assert len(member.get(base + "rolls/").json()["rolls"]) == 2
    assert member.get(base + "verify/").json() == {"verified": True, "checked": 2,
                                                   "mismatches": []}
    tampered = DiceRoll.objects.get(round=rnd, counter=1)
    tampered.faces = [7 - f for f in tampered.faces]
    tampered.save()
    report = member.get(base + "verify/").json()
    assert report["verified"] is False and report["mismatches"][0]["counter"] == 1


def test_r_dice_3_verify_round_command(league, capsys):
    campaign, _, _ = league
    rnd = campaign_start(campaign=campaign)
    _draw(rnd, "conquest:attack=9")
    with pytest.raises(Exception, match="not closed"):
        call_command("verify_round", campaign.pk, 1)
    _close(rnd)
    call_command("verify_round", campaign.pk, 1)
    assert "checked 1 draws: verified" in capsys.readouterr().out


def test_r_eco_1_income_paid_and_standings_frozen_at_close(league):
    campaign, _, players = league
    campaign.ruleset = {**campaign.ruleset, "income_base": 2, "income_per_tile": 1}
    campaign.save()
    rnd = campaign_start(campaign=campaign)
    _close(rnd)
    anna, ben = (Player.objects.get(pk=p.pk) for p in players)
    assert (anna.requisition, ben.requisition) == (2 + 2, 2 + 1)
    frozen = RoundStandings.objects.get(round=rnd).rows
    assert [(row["username"], row["rank"], row["tiles"]) for row in frozen] == [
        ("anna", 1, 2), ("ben", 2, 1)]
    response = api(players[1].user).get(f"/api/v1/campaigns/{campaign.pk}/standings/?round=1")
    assert response.json() == {"round": 1, "rows": frozen}
    assert api(players[1].user).get(
        f"/api/v1/campaigns/{campaign.pk}/standings/?round=2").status_code == 404


def test_r_vp_2_live_standings_query_count_is_constant(league, django_assert_max_num_queries):
    from django.test.utils import CaptureQueriesContext

    campaign, _, players = league
    url = f"/api/v1/campaigns/{campaign.pk}/standings/"

    def client():  # a fresh user object each time: access checks cache on the instance
        return api(User.objects.get(pk=players[0].user_id))

    with CaptureQueriesContext(connection) as small:
        assert client().get(url).status_code == 200
    for i in range(30):
        extra = PlayerFactory(campaign=campaign)
        TileFactory(planet=PlanetFactory(campaign=campaign), q=i, r=5, owner=extra)
    with CaptureQueriesContext(connection) as large:
        rows = client().get(url).json()["rows"]
    assert len(rows) == 32
    assert len(large.captured_queries) == len(small.captured_queries)


@pytest.mark.django_db(transaction=True)
def test_r_rnd_2_racing_declare_ends_create_battles_and_rolls_once():
    """Two advances racing out of ``declare`` (R-RND-2): one phase change, one set of battles,
    and the conquest phase's rolls are made once however often it is resolved."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    from battles.models import Battle, ConquestRoll
    from battles.services.attacks import attack_declare, purchase_create

    campaign = CampaignFactory()
    anna, ben = (PlayerFactory(campaign=campaign, requisition=3) for _ in range(2))
    planet = PlanetFactory(campaign=campaign)
    TileFactory(planet=planet, q=0, r=0, owner=anna)
    target = TileFactory(planet=planet, q=1, r=0, owner=ben)
    neutral = TileFactory(planet=planet, q=0, r=1, owner=None)
    rnd = campaign_start(campaign=campaign)
    purchase_create(player=anna, round=rnd, attack_armies=2)
    attack_declare(player=anna, round=rnd, tile=target)
    attack_declare(player=anna, round=rnd, tile=neutral)

    race(rnd.pk, "declare", 3)
    assert Round.objects.get(pk=rnd.pk).phase == "lists"  # fleets ran its job after commit
    assert Battle.objects.filter(round=rnd).count() == 1  # the neutral tile needs none
    Round.objects.filter(pk=rnd.pk).update(phase="conquest")
    race(rnd.pk, "conquest", 3)
    assert Round.objects.get(pk=rnd.pk).phase == "closed"
    assert ConquestRoll.objects.filter(round=rnd).count() == 1  # the neutral tile's roll
    assert DiceRoll.objects.filter(round=rnd).count() == 1
