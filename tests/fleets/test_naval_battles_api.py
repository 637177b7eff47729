"""Naval battle reports (API.md; R-INT-6, R-NAV-13): participants and the admin at once, every
member once the round closed, nobody else; each event names its rule, step and dice."""


from campaigns.models import Round
from fleets.models import NavalBattle
from tests.factories import UserFactory
from tests.worlds import advance_to, api

URL = "naval-battles/"


def battle_in(sc, area: str) -> NavalBattle:
    return NavalBattle.objects.get(round=sc.rnd, area=sc.areas[area])


def listed(sc, user) -> set[int]:
    response = api(user).get(sc.league.url(URL))
    assert response.status_code == 200
    return {b["id"] for b in response.json()["results"]}


def test_participants_see_their_battles_at_once(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    pirates, boarding, retreat = (battle_in(sc, a).pk for a in ("O2", "X", "Y"))
    assert listed(sc, lg.a.user) == {pirates, boarding}
    assert listed(sc, lg.b.user) == {boarding}
    assert listed(sc, lg.c.user) == listed(sc, lg.d.user) == {retreat}
    assert listed(sc, lg.admin) == {pirates, boarding, retreat}
    assert api(lg.c.user).get(lg.url(f"{URL}{boarding}/")).status_code == 404
    assert api(lg.b.user).get(lg.url(f"{URL}{boarding}/")).status_code == 200


def test_every_member_sees_the_reports_once_the_round_closed(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    advance_to(sc.rnd, "closed")
    assert len(listed(sc, lg.c.user)) == 3
    boarding = battle_in(sc, "X").pk
    assert api(lg.c.user).get(lg.url(f"{URL}{boarding}/")).status_code == 200
    assert api(UserFactory()).get(lg.url(f"{URL}{boarding}/")).status_code == 404
    assert api().get(lg.url(URL)).status_code == 401


def test_strangers_never_see_reports_of_a_public_campaign(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    lg.campaign.visibility = "public"
    lg.campaign.save()
    advance_to(sc.rnd, "closed")
    boarding = battle_in(sc, "X").pk
    assert api(UserFactory()).get(lg.url(URL)).status_code == 403
    assert api(UserFactory()).get(lg.url(f"{URL}{boarding}/")).status_code == 404
    assert api().get(lg.url(f"{URL}{boarding}/")).status_code == 401


def test_r_nav_13_a_report_replays_the_battle(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    data = api(lg.a.user).get(lg.url(f"{URL}{battle_in(sc, 'X').pk}/")).json()
    assert {"id", "round", "area", "engine", "sides", "outcome", "events"} <= set(data)
    assert data["round"] == 1 and data["engine"] == "dark_force"
    assert data["area"] == sc.areas["X"].pk
    assert all("rule" in e and "step" in e for e in data["events"])
    assert [e["step"] for e in data["events"][:2]] == ["battle", "setup"]
    dice = [face for e in data["events"] for face in e.get("dice", [])]
    assert dice == [1, 6, 1, 1, 8, 8, 1, 1, 8]
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
