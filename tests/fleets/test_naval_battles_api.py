"""Naval battle reports (API.md; R-INT-6, R-NAV-13, R-FLT-7): once the fleets phase ended,
whoever may read the campaign (its members; anyone if it is public) sees where each battle was
fought, who fought, the outcome and the ships lost per side; the players who fought it and the
admin also the full replay (lines, values, stances, crew, every roll). Before, nobody sees it;
each event names its rule, step and dice."""

import pytest

from campaigns.models import Campaign, Round
from fleets.models import NavalBattle
from fleets.services.phase import fleet_phase_resolve
from league.services.rounds import round_advance
from tests.factories import UserFactory
from tests.worlds import advance_to, api

URL = "naval-battles/"
SUMMARY_KEYS = {"id", "round", "area", "sequence", "engine", "attacker", "defender", "winner",
                "attacker_vp", "defender_vp", "losses", "replay"}
REPLAY_KEYS = {"sides", "outcome", "events", "first_counter", "dice_count"}
# what only the replay of the boarding battle in X names: anna's ships that stayed afloat, the
# crews that fought the duel, the prize's cargo, the stances and the engine's words
X_REPLAY_WORDS = ("Iron Fist", "Swift", "Boss", "Mate", "Guard", "approach", "R-BRD",
                  "R-NAV-3", '"dice"', '"attack"')


def battle_in(sc, area: str) -> NavalBattle:
    return NavalBattle.objects.get(round=sc.rnd, area=sc.areas[area])


def listed(sc, user) -> set[int]:
    response = api(user).get(sc.league.url(URL))
    assert response.status_code == 200
    return {b["id"] for b in response.json()["results"]}


def x_losses() -> dict:
    """R-FLT-7: in X ben lost the Merchant Prince to anna's boarders; anna lost nothing."""
    return {"attacker": {"sunk": [], "captured": []},
            "defender": {"sunk": [], "captured": [{"name": "Merchant Prince",
                                                   "class": "Frigate"}]}}


def assert_summary_of_x(sc, response) -> None:
    assert response.status_code == 200
    data, raw = response.json(), response.content.decode()
    assert set(data) == SUMMARY_KEYS and data["replay"] is False
    assert (data["area"], data["round"], data["attacker"], data["defender"], data["winner"]) \
        == (sc.areas["X"].pk, 1, sc.league.a.pk, sc.league.b.pk, "attacker")
    assert (data["attacker_vp"], data["defender_vp"]) == (6, 0)
    assert data["losses"] == x_losses()
    for word in X_REPLAY_WORDS:
        assert word not in raw, word


@pytest.mark.parametrize("closed", [False, True], ids=["round open", "round closed"])
def test_r_flt_7_a_member_who_did_not_fight_sees_only_the_summary(resolved_fleet_phase, closed):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    if closed:
        advance_to(sc.rnd, "closed")
    x = battle_in(sc, "X").pk
    assert listed(sc, lg.c.user) == {battle_in(sc, a).pk for a in ("O2", "X", "Y")}
    assert_summary_of_x(sc, api(lg.c.user).get(lg.url(f"{URL}{x}/")))
    page = api(lg.c.user).get(lg.url(URL))
    rows = {row["id"]: row for row in page.json()["results"]}
    assert set(rows[x]) == SUMMARY_KEYS and rows[x]["losses"] == x_losses()
    assert rows[battle_in(sc, "Y").pk]["replay"] is True  # carl fought dora in Y
    pirates = rows[battle_in(sc, "O2").pk]  # anna against the pirates: the frigate sank
    assert (pirates["attacker"], pirates["defender"], pirates["winner"]) == (lg.a.pk, None,
                                                                             "defender")
    assert pirates["losses"]["attacker"]["sunk"] == [{"name": "Lonely Frigate",
                                                      "class": "Frigate"}]
    raw_pirates = api(lg.c.user).get(lg.url(f"{URL}{pirates['id']}/")).content.decode()
    assert "Black Wake" not in raw_pirates  # the pirates' ship stayed afloat


@pytest.mark.parametrize("closed", [False, True], ids=["round open", "round closed"])
def test_r_flt_7_the_players_who_fought_and_the_admin_see_the_full_replay(
        resolved_fleet_phase, closed):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    if closed:
        advance_to(sc.rnd, "closed")
    x = battle_in(sc, "X")
    for user in (lg.a.user, lg.b.user, lg.admin):
        data = api(user).get(lg.url(f"{URL}{x.pk}/")).json()
        assert set(data) == SUMMARY_KEYS | REPLAY_KEYS and data["replay"] is True
        assert data["events"] == x.events and data["sides"] == x.sides
        assert data["losses"] == x_losses()
        assert (data["first_counter"], data["dice_count"]) == (x.first_counter, x.dice_count)
        assert {"Iron Fist", "Boss", "Mate"} <= {word for word in X_REPLAY_WORDS
                                                 if word in str(data)}
    assert listed(sc, lg.a.user) == listed(sc, lg.admin) == listed(sc, lg.c.user)


def test_r_flt_7_nobody_sees_a_battle_before_the_fleets_phase_ended(scripted_fleet_dice,
                                                                    fleet_phase):
    sc, lg = fleet_phase, fleet_phase.league
    Campaign.objects.filter(pk=lg.campaign.pk).update(visibility="public")
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    fleet_phase_resolve(round=sc.rnd)  # the job ran, the phase has not ended yet
    assert Round.objects.get(pk=sc.rnd.pk).phase == "fleets"
    x = battle_in(sc, "X").pk
    for user in (lg.a.user, lg.b.user, lg.c.user, lg.admin, UserFactory(), None):
        assert listed(sc, user) == set()
        response = api(user).get(lg.url(f"{URL}{x}/"))
        assert response.status_code == 404 and set(response.json()) >= {"detail", "code"}
        assert "Merchant Prince" not in response.content.decode()
    advance_to(sc.rnd, "lists")
    assert x in listed(sc, lg.c.user) and x in listed(sc, None)


def test_r_flt_7_the_public_sees_the_summary_of_a_public_campaign_only(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    x = battle_in(sc, "X").pk
    for user in (UserFactory(), None):  # private: the campaign does not exist for them
        assert api(user).get(lg.url(URL)).status_code == 404
        hidden = api(user).get(lg.url(f"{URL}{x}/"))
        assert hidden.status_code == 404 and "Merchant Prince" not in hidden.content.decode()
    lg.campaign.visibility = "public"
    lg.campaign.save()
    for closed in (False, True):
        if closed:
            advance_to(sc.rnd, "closed")
        for user in (UserFactory(), None):
            assert len(listed(sc, user)) == 3
            assert_summary_of_x(sc, api(user).get(lg.url(f"{URL}{x}/")))
            listing = api(user).get(lg.url(URL)).content.decode()
            assert all(word not in listing for word in X_REPLAY_WORDS)


def test_r_flt_7_errors_name_no_hidden_value(resolved_fleet_phase):
    lg = resolved_fleet_phase.league
    for path in (f"{URL}?round=x", f"{URL}999999/", f"{URL}?page=99"):
        raw = api(lg.c.user).get(lg.url(path)).content.decode()
        assert all(word not in raw for word in (*X_REPLAY_WORDS, "Merchant Prince")), path


def test_r_nav_13_a_report_replays_the_battle(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    data = api(lg.a.user).get(lg.url(f"{URL}{battle_in(sc, 'X').pk}/")).json()
    assert {"id", "round", "area", "engine", "sides", "outcome", "events"} <= set(data)
    assert data["round"] == 1 and data["engine"] == "dark_force"
    assert data["area"] == sc.areas["X"].pk
    assert all("rule" in e and "step" in e for e in data["events"])
    assert [e["step"] for e in data["events"][:2]] == ["battle", "setup"]
    dice = [face for e in data["events"] for face in e.get("dice", [])]
    assert dice == [1, 6, 1, 1, 8]
    assert data["outcome"]["captures"][0]["ship_id"] == sc.ships["Merchant Prince"].pk
    assert [s["key"] for s in data["sides"]] == ["attacker", "defender"]
    assert data["sides"][0]["player"] == lg.a.pk and data["attacker_vp"] == 6


def test_reports_filter_by_round(resolved_fleet_phase):
    lg = resolved_fleet_phase.league
    assert api(lg.admin).get(lg.url(f"{URL}?round=1")).json()["count"] == 3
    assert api(lg.admin).get(lg.url(f"{URL}?round=2")).json()["count"] == 0
    assert api(lg.admin).get(lg.url(f"{URL}?round=x")).status_code == 400


def test_the_round_stays_in_lists_with_reports_stored_once(resolved_fleet_phase):
    sc = resolved_fleet_phase
    assert Round.objects.get(pk=sc.rnd.pk).phase == "lists"
    assert NavalBattle.objects.filter(round=sc.rnd).count() == 3
