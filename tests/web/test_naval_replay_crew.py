"""R-FLT-7 / R-NAV-13: the full replay of a naval battle names every ship's crew (names and
command points) and cargo, so a boarding-or-gunfire choice made on crew points (R-NAV-4) can be
followed; the two players who fought it and the campaign admins see it, nobody else - on the
page and in the API alike (sentinel words searched in the HTML and the JSON)."""

import pytest

from campaigns.models import Campaign
from fleets.models import NavalBattle, Ship
from league.services.rounds import round_advance, round_run_phase_job
from tests.worlds import api, client_for

# crews and cargo no duel event names: only the replay's sides can show them
SWIFT_CREW = [{"name": "Quillon Ashgrave", "cp": 7}, {"name": "Tamsin Vell", "cp": 5}]
SWIFT_CARGO = [{"name": "Obsidian Lancers", "points": 300}]
FIST_CARGO = [{"name": "Vermilion Wardens", "points": 200}]
CREWS = {"Iron Fist": [("Boss", 12)], "Swift": [(c["name"], c["cp"]) for c in SWIFT_CREW],
         "Merchant Prince": [("Mate", 6)]}
CARGO = {"Iron Fist": [("Vermilion Wardens", 200)], "Swift": [("Obsidian Lancers", 300)],
         "Merchant Prince": [("Guard", 500)]}
SENTINELS = ("Quillon Ashgrave", "Tamsin Vell", "Obsidian Lancers", "Vermilion Wardens",
             "Boss", "Mate", "Guard")


@pytest.fixture
def fought(scripted_fleet_dice, fleet_phase):
    """The fleet phase scenario with crews and cargo on the ships of the battle in X that no
    duel names (Swift stands diagonal and never boards), resolved; the campaign public."""
    sc = fleet_phase
    Ship.objects.filter(pk=sc.ships["Swift"].pk).update(crew=SWIFT_CREW, cargo=SWIFT_CARGO)
    Ship.objects.filter(pk=sc.ships["Iron Fist"].pk).update(cargo=FIST_CARGO)
    Campaign.objects.filter(pk=sc.league.campaign.pk).update(visibility="public")
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=sc.rnd.pk, phase="fleets")
    return sc, NavalBattle.objects.get(round=sc.rnd, area=sc.areas["X"])


def _page(sc, battle, user) -> str:
    response = client_for(user).get(f"/campaigns/{sc.league.campaign.pk}/naval-battles/"
                                    f"{battle.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _json(sc, user, rest=""):
    response = api(user).get(sc.league.url(f"naval-battles/{rest}"))
    assert response.status_code == 200
    return response


def test_r_flt_7_the_fighters_and_the_admin_see_every_crew_and_cargo(fought):
    sc, battle = fought
    lg = sc.league
    for user in (lg.a.user, lg.b.user, lg.admin):
        html = _page(sc, battle, user)
        for ship, crew in CREWS.items():
            for name, cp in crew:
                assert f"{name} ({cp} CP)" in html, (user, ship, name)
            for name, points in CARGO[ship]:
                assert f"{name} ({points})" in html, (user, ship, name)
        data = _json(sc, user, f"{battle.pk}/").json()
        ships = {s["name"]: s for side in data["sides"] for s in side["ships"]}
        for ship, crew in CREWS.items():
            assert [(c["name"], c["cp"]) for c in ships[ship]["crew"]] == crew
            assert [(c["name"], c["points"]) for c in ships[ship]["cargo"]] == CARGO[ship]


def test_r_flt_7_nobody_else_sees_a_crew_or_cargo_of_the_battle(fought, outsider):
    sc, battle = fought
    for user in (sc.league.c.user, outsider, None):  # a third player, a non-member, anonymous
        answers = [_page(sc, battle, user), _json(sc, user).content.decode(),
                   _json(sc, user, f"{battle.pk}/").content.decode(),
                   client_for(user).get(f"/campaigns/{sc.league.campaign.pk}/fleets/")
                   .content.decode()]
        for text in answers:
            for word in SENTINELS:
                assert word not in text, (user, word)
