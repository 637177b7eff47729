"""The conquest API shows each roll as it was made (threshold, modifiers,
k, chance, faces, result), never recomputed against today's map (R-CON-1, R-CON-7); a chain
link's roll decision shows the exact odds and every modifier first, and the battle keeps the
roll with its modifiers afterwards (R-CON-6, R-CON-7)."""

import pytest

from battles.models import Battle, ConquestRoll
from battles.services.results import battle_result_enter
from campaigns.models import Tile
from league.services.rounds import round_advance
from tests.worlds import advance_to, api, declare, row, tile

pytestmark = pytest.mark.django_db
WIN = {"outcome": "victory", "attacker_vp": 10, "defender_vp": 2}
MORAL = {"outcome": "moral_victory", "attacker_vp": 6, "defender_vp": 5}


def _win(lg, battle, values=WIN):
    battle_result_enter(battle=battle, by_admin_user=lg.admin, **values)


def test_r_con_7_conquest_api_shows_rolls_as_made_not_recomputed(lg):
    """Anna rolls on two tiles of Alpha next to her edge tile: threshold 3, k 2, -1 each.
    Afterwards the map changes (she loses the edge tile, the targets get a defence line): the
    API still shows each roll as it was made."""
    alpha = lg.planet("Alpha")
    home, edge = tile(alpha, 0, 0, lg.a), tile(alpha, 1, 0, lg.a)
    near = [tile(alpha, 2, 0, lg.c), tile(alpha, 1, 1, lg.c)]
    rnd = lg.start()
    attacks = [declare(lg.a, rnd, near[0], armies=2), declare(lg.a, rnd, near[1], armies=0)]
    advance_to(rnd, "battles")
    for attack in attacks:
        _win(lg, Battle.objects.get(attack=attack))
    advance_to(rnd, "conquest")
    round_advance(round_id=rnd.pk, expected_phase="conquest")  # anna rolls all (R-RND-3)
    Tile.objects.filter(pk=edge.pk).update(owner=lg.c)  # today's map differs
    Tile.objects.filter(pk__in=[t.pk for t in near]).update(features=["defence"])
    assert home.pk  # anna keeps her home tile; near[0] no longer borders her territory
    body = api(lg.a.user).get(lg.url("rounds/1/conquest/")).json()
    stored = {r.attack_id: r for r in ConquestRoll.objects.filter(round=rnd)}
    multi = [{"rule": "R-CON-4", "name": "multi_conquest", "value": -1}]
    assert body["resolved"] is True and body["waived"] == []
    for item in body["items"]:
        assert (item["threshold"], item["threshold_rule"], item["k"]) == (3, "R-CON-1", 2)
        assert item["modifiers"] == multi
        assert item["chance"] == pytest.approx(33 / 36)  # 2d6 - 1 >= 3
    assert {i["attack"] for i in body["items"]} == {a.pk for a in attacks}
    for roll in body["rolls"]:
        row_ = stored[roll["attack"]]
        assert roll == {"attack": row_.attack_id, "battle": row_.battle_id, "tile": row_.tile_id,
                        "dice": row_.dice, "modifiers": multi, "total": sum(row_.dice) - 1,
                        "threshold": 3, "threshold_rule": "R-CON-1", "k": 2,
                        "chance": pytest.approx(33 / 36), "success": row_.success}


def test_r_con_7_waived_attacks_are_listed_once_resolved(lg):
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    targets = [tile(alpha, 1, 0, lg.c), tile(alpha, 0, 1, lg.c)]
    rnd = lg.start()
    attacks = [declare(lg.a, rnd, targets[0], armies=2), declare(lg.a, rnd, targets[1], armies=0)]
    advance_to(rnd, "battles")
    for attack in attacks:
        _win(lg, Battle.objects.get(attack=attack))
    advance_to(rnd, "conquest")
    done = api(lg.a.user).post(lg.url("rounds/1/conquest/"), {"roll": [attacks[0].pk]},
                               format="json")
    assert done.json()["resolved"] is True
    (roll,) = done.json()["rolls"]
    assert (roll["k"], roll["modifiers"], roll["threshold_rule"]) == (1, [], "R-CON-1")
    body = api(lg.a.user).get(lg.url("rounds/1/conquest/")).json()
    assert body["waived"] == [attacks[1].pk]
    assert [i["attack"] for i in body["items"]] == [attacks[0].pk]
    assert body["items"][0]["chance"] == pytest.approx(35 / 36)


@pytest.fixture
def chain_on_a_defence_line(lg):
    """Anna then ben attack dora's tile with a defence line (R-ATK-5); anna wins a moral
    victory, so her roll has -2 and -1 (R-CON-3)."""
    alpha = lg.planet("Alpha")
    target = tile(alpha, 1, 0, lg.d, ("defence",))
    row(alpha, lg.a, (0,))
    row(alpha, lg.b, (2,))
    rnd = lg.start()
    first, second = declare(lg.a, rnd, target), declare(lg.b, rnd, target)
    advance_to(rnd, "battles")
    link = Battle.objects.get(attack=first)
    _win(lg, link, MORAL)
    return link, Battle.objects.get(attack=second)


def test_r_con_7_chain_decision_api_shows_exact_odds_then_the_roll_as_made(lg,
                                                                         chain_on_a_defence_line):
    link, later = chain_on_a_defence_line
    url = lg.url(f"battles/{link.pk}/conquest/")
    before = api(lg.c.user).get(url)
    assert before.status_code == 200
    state = before.json()
    assert (state["decision"], state["open"], state["roll"]) == (None, True, None)
    odds = state["odds"]
    assert (odds["battle"], odds["attack"], odds["tile"]) == (link.pk, link.attack_id,
                                                              link.tile_id)
    assert (odds["threshold"], odds["threshold_rule"], odds["k"]) == (3, "R-CON-1", None)
    assert odds["modifiers"] == [{"rule": "R-CON-3", "name": "moral_victory", "value": -2},
                                 {"rule": "R-CON-3", "name": "defence", "value": -1}]
    assert odds["chance"] == pytest.approx(26 / 36)  # 2d6 - 3 >= 3
    made = api(lg.a.user).post(url, {"roll": True}, format="json").json()
    assert made["modifiers"] == odds["modifiers"] and made["threshold"] == 3
    assert made["k"] is None and made["chance"] == pytest.approx(26 / 36)
    assert made["total"] == sum(made["dice"]) - 3
    after = api(lg.c.user).get(url).json()
    assert (after["decision"], after["open"], after["odds"]) == ("roll", False, None)
    assert after["roll"] == made
    detail = api(lg.c.user).get(lg.url(f"battles/{link.pk}/")).json()
    assert detail["chain_decision"] == "roll" and detail["chain_roll"] == made
    listed = api(lg.c.user).get(lg.url("battles/")).json()["results"]
    assert {b["id"]: b["chain_roll"] for b in listed} == {link.pk: made, later.pk: None}


def test_r_con_6_chain_state_after_a_waiver_and_for_outsiders(lg, chain_on_a_defence_line,
                                                           outsider):
    link, _ = chain_on_a_defence_line
    url = lg.url(f"battles/{link.pk}/conquest/")
    assert api(outsider).get(url).status_code in (403, 404)
    assert api().get(url).status_code in (401, 404)
    api(lg.a.user).post(url, {"roll": False}, format="json")
    state = api(lg.b.user).get(url).json()
    assert state == {"decision": "waive", "open": False, "odds": None, "roll": None}
    assert api(lg.b.user).get(lg.url(f"battles/{link.pk}/")).json()["chain_decision"] == \
        "waive"
