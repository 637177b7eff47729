"""The naval battle report page (R-INT-6, R-NAV-13, R-FLT-7): from the selector the API uses.
Once the fleets phase ended, whoever may read the campaign (its members; anyone if it is
public) sees where, who, the outcome and the ships lost per side; the two players who fought
and the admin also the lines, values, stances and a replay of every logged step in words, with
dice, sinkings, boardings, captures and retreats. Before, nobody sees the battle."""

from types import SimpleNamespace

import pytest

from campaigns.models import Campaign, Round
from fleets.models import NavalBattle
from fleets.services.phase import fleet_phase_resolve
from league.services.rounds import round_advance
from rules.dice import SimulationDice
from rules.space import Datasheet, SpaceShip, SpaceSide, resolve_space_battle
from tests.factories import AreaFactory, PlayerFactory
from tests.web.queries import assert_constant_queries
from tests.worlds import advance_to, client_for
from web.presenters.replay import TELLERS, Names, replay

# what only the replay of the boarding battle in X shows: anna's ships that stayed afloat, the
# crews of the duel, the prize's cargo, stances, values, the step-through and its dice
X_REPLAY_WORDS = ("Iron Fist", "Swift", "Boss", "Mate", "Guard", "Stance", "data-replay",
                  'class="die"', "Attack / defence / agility", "R-BRD", "R-NAV-3")


def _battle(sc, area: str) -> NavalBattle:
    return NavalBattle.objects.get(round=sc.rnd, area=sc.areas[area])


def _url(sc, battle: NavalBattle) -> str:
    return f"/campaigns/{sc.league.campaign.pk}/naval-battles/{battle.pk}/"


def _fleets(sc) -> str:
    return f"/campaigns/{sc.league.campaign.pk}/fleets/"


def _get(sc, user, battle, **headers):
    return client_for(user).get(_url(sc, battle), **headers)


def assert_summary_of_x(sc, response) -> None:
    """R-FLT-7: X, anna against ben: anna won and took the Merchant Prince; nothing else."""
    assert response.status_code == 200
    html = response.content.decode()
    assert "Naval battle in X, round 1" in html
    assert f"Winner: {sc.league.a.faction}" in html
    assert "6 : 0 VP" in html
    losses = html.split('id="losses-title"', 1)[1].split("</section>", 1)[0]
    anna_lost, ben_lost = losses.split('data-losses="defender"', 1)
    assert "no ship lost" in anna_lost
    assert "captured" in ben_lost and "Merchant Prince" in ben_lost and "Frigate" in ben_lost
    for word in X_REPLAY_WORDS:
        assert word not in html, word
    assert "shown only to the two players who fought it" in html


@pytest.mark.parametrize("closed", [False, True], ids=["round open", "round closed"])
def test_r_flt_7_a_member_who_did_not_fight_sees_only_the_summary(resolved_fleet_phase,
                                                                   closed):
    sc = resolved_fleet_phase
    if closed:
        advance_to(sc.rnd, "closed")
    carl = sc.league.c.user  # fought dora in Y only
    assert_summary_of_x(sc, _get(sc, carl, _battle(sc, "X")))
    pirates = _get(sc, carl, _battle(sc, "O2")).content.decode()
    assert "Lonely Frigate" in pirates and "sunk" in pirates  # anna's frigate sank
    assert "Black Wake" not in pirates  # the pirates' ship stayed afloat
    assert "data-replay" in _get(sc, carl, _battle(sc, "Y")).content.decode()


@pytest.mark.parametrize("closed", [False, True], ids=["round open", "round closed"])
def test_r_flt_7_the_players_who_fought_and_the_admin_see_the_replay(resolved_fleet_phase,
                                                                     closed):
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    if closed:
        advance_to(sc.rnd, "closed")
    for user in (lg.a.user, lg.b.user, lg.admin):
        html = _get(sc, user, _battle(sc, "X")).content.decode()
        assert all(word in html for word in ("Iron Fist", "Boss", "Mate", "Stance",
                                             "data-replay", "Merchant Prince"))
        assert "shown only to the two players who fought it" not in html


def test_r_flt_7_nobody_sees_a_battle_before_the_fleets_phase_ended(scripted_fleet_dice,
                                                                    fleet_phase, outsider):
    sc, lg = fleet_phase, fleet_phase.league
    Campaign.objects.filter(pk=lg.campaign.pk).update(visibility="public")
    round_advance(round_id=sc.rnd.pk, expected_phase="declare")
    fleet_phase_resolve(round=sc.rnd)  # the job ran, the phase has not ended yet
    assert Round.objects.get(pk=sc.rnd.pk).phase == "fleets"
    battle = _battle(sc, "X")
    for user in (lg.a.user, lg.b.user, lg.c.user, lg.admin, outsider, None):
        response = _get(sc, user, battle)
        assert response.status_code == 404 and "Merchant Prince" not in \
            response.content.decode()
        assert _url(sc, battle) not in client_for(user).get(_fleets(sc)).content.decode()


def test_r_flt_7_the_public_sees_the_summary_of_a_public_campaign_only(resolved_fleet_phase,
                                                                      outsider):
    sc = resolved_fleet_phase
    battle = _battle(sc, "X")
    # private: no such campaign for them (logged out: the login page, as if missing)
    assert _get(sc, outsider, battle).status_code == 404
    assert _get(sc, None, battle).status_code == 302
    Campaign.objects.filter(pk=sc.league.campaign.pk).update(visibility="public")
    for closed in (False, True):
        if closed:
            advance_to(sc.rnd, "closed")
        for user in (outsider, None):
            assert_summary_of_x(sc, _get(sc, user, battle))
            fleets = client_for(user).get(_fleets(sc)).content.decode()
            assert _url(sc, battle) in fleets and "Iron Fist" not in fleets


def test_the_list_on_the_fleets_page_links_every_visible_report(resolved_fleet_phase):
    sc = resolved_fleet_phase
    html = client_for(sc.league.c.user).get(_fleets(sc)).content.decode()
    for area in ("X", "O2", "Y"):  # carl fought only in Y: the others as summaries
        assert _url(sc, _battle(sc, area)) in html
    section = html.split('id="naval-title"', 1)[1]
    assert "the attacker won" in section and "the defender won" in section
    assert "Iron Fist" not in section and "Boss" not in section


def test_r_flt_7_the_summary_is_german_for_german_readers(resolved_fleet_phase):
    sc = resolved_fleet_phase
    html = _get(sc, sc.league.c.user, _battle(sc, "X"),
                HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Verlorene Schiffe" in html and "kein Schiff verloren" in html
    assert "gekapert" in html and "nur für die beiden Spieler" in html


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


@pytest.mark.parametrize(("language", "sentences"), [
    ("en", ("{anna} attacks the pirates (", "{anna} means to hold. The pirates mean to hold.",
            "Maneuver: {anna} chooses to hold. The pirates choose to hold.")),
    ("de", ("{anna} greift die Piraten an (", "{anna} will halten. Die Piraten wollen halten.",
            "Manöver: {anna} will halten. Die Piraten wollen halten.")),
])
def test_r_nav_13_the_replays_verbs_agree_with_a_faction_and_the_pirates(
        resolved_fleet_phase, language, sentences):
    """A side named by its faction is one subject, the pirates are many: "die Piraten wollen",
    never "die Piraten will". (German needs the compiled catalogue.)"""
    sc = resolved_fleet_phase
    html = _get(sc, sc.league.a.user, _battle(sc, "O2"),
                HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for sentence in sentences:
        assert sentence.format(anna=sc.league.a.faction) in html, sentence
    assert "Piraten will " not in html


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


@pytest.mark.parametrize("language, dealt, words", [
    ("en", 2, "2 body hits (2 so far)"), ("en", 1, "1 body hit (1 so far)"),
    ("de", 2, "2 Körpertreffer (bisher 2)")])
def test_r_brd_3_the_replay_tells_how_many_body_hits_an_attack_dealt(language, dealt, words):
    from django.utils import translation

    event = {"rule": "R-BRD-3", "step": "duel_attack", "attacker": "Boss", "defender": "Mate",
             "red": [1, 2, 7], "green": [8], "hits": 2, "evades": 2 - dealt, "body_hit": True,
             "dealt": dealt, "body_hits": dealt}
    with translation.override(language):
        assert words in TELLERS["duel_attack"](event, _names())


def test_r_spc_4_the_replay_says_a_ship_without_attack_dice_does_not_attack():
    from django.utils import translation

    event = {"rule": "R-SPC-4", "step": "attack", "round": 1, "ship": 1, "target": 2,
             "decision": "no guns"}
    with translation.override("en"):
        told = TELLERS["attack"](event, _names())
    assert "Ship 1 has no attack dice left and does not attack" in told


def _names() -> Names:
    sides = [{"ships": [{"id": 1, "name": "Ship 1"}, {"id": 2, "name": "Ship 2"}]}]
    return Names(SimpleNamespace(sides=sides), {}, {})
