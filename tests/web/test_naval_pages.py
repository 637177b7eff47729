"""The naval battle report page (R-INT-6, R-NAV-13): visible as in the API (participants and
the admin at once, every member once the round closed, nobody else), and a replay of every
logged step in words, with dice, sinkings, boardings, captures and retreats."""

from types import SimpleNamespace

from campaigns.models import Campaign
from fleets.models import NavalBattle
from rules.dice import SimulationDice
from rules.space import Datasheet, SpaceShip, SpaceSide, resolve_space_battle
from tests.factories import AreaFactory, PlayerFactory
from tests.web.queries import assert_constant_queries
from tests.worlds import advance_to, client_for
from web.presenters.replay import TELLERS, Names, replay


def _battle(sc, area: str) -> NavalBattle:
    return NavalBattle.objects.get(round=sc.rnd, area=sc.areas[area])


def _url(sc, battle: NavalBattle) -> str:
    return f"/campaigns/{sc.league.campaign.pk}/naval-battles/{battle.pk}/"


def _get(sc, user, battle, **headers):
    return client_for(user).get(_url(sc, battle), **headers)


def test_participants_and_the_admin_see_a_report_at_once(resolved_fleet_phase):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    boarding = _battle(sc, "X")  # anna against ben
    for user in (lg.a.user, lg.b.user, lg.admin):
        assert _get(sc, user, boarding).status_code == 200
    for user in (lg.c.user, lg.d.user):
        assert _get(sc, user, boarding).status_code == 404


def test_every_member_sees_the_reports_once_the_round_closed(resolved_fleet_phase):
    sc = resolved_fleet_phase
    advance_to(sc.rnd, "closed")
    assert _get(sc, sc.league.c.user, _battle(sc, "X")).status_code == 200


def test_strangers_never_see_a_report(resolved_fleet_phase, outsider):
    sc = resolved_fleet_phase
    Campaign.objects.filter(pk=sc.league.campaign.pk).update(visibility="public")
    advance_to(sc.rnd, "closed")
    battle = _battle(sc, "X")
    assert _get(sc, outsider, battle).status_code == 404
    response = _get(sc, None, battle)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_list_on_the_fleets_page_links_the_visible_reports(resolved_fleet_phase):
    sc = resolved_fleet_phase
    html = client_for(sc.league.b.user).get(
        f"/campaigns/{sc.league.campaign.pk}/fleets/").content.decode()
    assert _url(sc, _battle(sc, "X")) in html
    assert _url(sc, _battle(sc, "O2")) not in html  # anna's battle against the pirates


def test_r_nav_13_the_replay_tells_a_boarding_and_capture(resolved_fleet_phase):
    sc = resolved_fleet_phase
    battle = _battle(sc, "X")
    html = _get(sc, sc.league.a.user, battle).content.decode()
    assert html.count("data-step ") == len(battle.events)
    for text in ("Iron Fist boards Merchant Prince", "Boss strikes at Mate",
                 "Mate is overwhelmed", "Merchant Prince is captured by the crew of Iron Fist",
                 "The distance changes from far to near", 'class="die">1</span>',
                 "Victory points:", "data-replay-next"):
        assert text in html, text


def test_r_nav_13_the_replay_tells_shots_sinkings_and_retreats(resolved_fleet_phase):
    sc = resolved_fleet_phase
    sinking = _get(sc, sc.league.a.user, _battle(sc, "O2")).content.decode()
    assert "Black Wake fires at Lonely Frigate: rolls 5" in sinking
    assert "Lonely Frigate sinks with all aboard." in sinking
    assert "Winner: the pirates." in sinking
    retreat = _get(sc, sc.league.c.user, _battle(sc, "Y")).content.decode()
    assert "retreats to Cc" in retreat and "Nobody wins." in retreat


def test_the_replay_is_german_for_german_readers(resolved_fleet_phase):
    sc = resolved_fleet_phase
    html = _get(sc, sc.league.a.user, _battle(sc, "X"),
                HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de">' in html and "Iron Fist entert Merchant Prince" in html


def test_every_step_of_both_engines_has_words():
    """A D6 space battle log and a Dark Force log: no step falls back to raw values."""
    ships = [SpaceShip(i, f"Ship {i}", Datasheet("2D", 3, "3D", "3D+1", "2D", "2D"), None)
             for i in (1, 2, 3)]
    space = resolve_space_battle(SimulationDice(7), SpaceSide("attacker", 1, tuple(ships[:2])),
                                 SpaceSide("defender", 2, (ships[2],)), max_rounds=6,
                                 start_distance_cm=30)
    kinds = {e["step"] for e in space.events}
    assert {"initiative", "move", "attack", "end"} <= kinds
    assert kinds <= set(TELLERS), kinds - set(TELLERS)
    battle = SimpleNamespace(events=list(space.events), sides=[])
    rounds = replay(battle, Names(battle, {"attacker": "Red", "defender": "Blue"}, {}))
    steps = [step for r in rounds for step in r["steps"]]
    assert len(steps) == len(space.events)
    assert all(step["text"] and not step["text"].startswith(step["kind"] + ":")
               for step in steps)


def test_naval_page_queries_stay_constant(resolved_fleet_phase):
    sc = resolved_fleet_phase
    battle = _battle(sc, "X")

    def grow():
        for _ in range(3):
            PlayerFactory(campaign=sc.league.campaign)
            AreaFactory(campaign=sc.league.campaign)
        NavalBattle.objects.create(round=sc.rnd, area=sc.areas["O1"], engine="dark_force",
                                   sides=battle.sides, outcome=battle.outcome,
                                   events=battle.events * 3)

    assert_constant_queries(client_for(sc.league.a.user), _url(sc, battle), grow)
