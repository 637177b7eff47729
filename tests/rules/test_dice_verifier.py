"""R-DICE-2 / R-DICE-3: an outside verifier written from the text of RULES.md alone.

The verifier below uses hashlib and hmac only (nothing of ``rules.dice``): the message
``<campaign_id>:<round_number>:<purpose>:<counter>`` (UTF-8), HMAC-SHA256 keyed with the raw
seed bytes, more bytes from the same message followed by ``:1``, ``:2``, ...; a d6 discards
bytes >= 252, a d8 uses every byte, a dk discards bytes >= 256 - (256 mod k); face =
byte % k + 1. An order of n items is a shuffle: the items in ascending id, the next one picked
with a dk from the k = n, n-1, ..., 2 not yet placed, one draw per pick, none for the last.

The tests run the engines on the round stream and check that this verifier reproduces every
logged face and every drawn order (the players' order of the fleets phase, R-FLT-6, and the
order of tied ships, R-SPC-3), and that the product's own verifier (``rules.dice.verify``)
accepts the same log. Counters and seeds where a discarded byte matters are found by search.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator
from itertools import count

import pytest

from rules.dice import RoundStream, SimulationDice, verify
from rules.fleet_phase import (
    D6_SPACE,
    PhaseArea,
    PhaseFleet,
    PhaseInput,
    PhaseOrder,
    PhaseSettings,
    PhaseShip,
    player_order,
    resolve_fleet_phase,
)
from rules.space import Datasheet, SpaceShip, SpaceSide, resolve_space_battle

SEED = hashlib.sha256(b"feldzug issue 15, R-DICE-2").digest()
CAMPAIGN, ROUND = 12, 4
SEARCH = 100_000  # counters tried when looking for a byte of a given value


# --- the verifier, from the text of R-DICE-2 --------------------------------------------------


def mac(seed: bytes, text: str) -> bytes:
    """HMAC-SHA256 keyed with the raw seed bytes over the UTF-8 message."""
    return hmac.new(seed, text.encode("utf-8"), hashlib.sha256).digest()


def draw_bytes(seed: bytes, campaign: int, rnd: int, purpose: str, counter: int) -> Iterator[int]:
    message = f"{campaign}:{rnd}:{purpose}:{counter}"
    yield from mac(seed, message)
    for more in count(1):
        yield from mac(seed, f"{message}:{more}")


def face_of(byte: int, sides: int) -> int | None:
    """The face a byte gives on a d<sides>, None if the byte is discarded."""
    if sides == 6:
        return None if byte >= 252 else byte % 6 + 1
    if sides == 8:
        return byte % 8 + 1
    return None if byte >= 256 - (256 % sides) else byte % sides + 1


def recompute(purpose: str, counter: int, sides: int, n: int, *, seed: bytes = SEED,
              campaign: int = CAMPAIGN, rnd: int = ROUND) -> list[int]:
    """The first n faces of draw ``counter``."""
    faces: list[int] = []
    for byte in draw_bytes(seed, campaign, rnd, purpose, counter):
        if len(faces) == n:
            break
        face = face_of(byte, sides)
        if face is not None:
            faces.append(face)
    return faces


def first_byte(purpose: str, counter: int, **kw) -> int:
    return next(draw_bytes(kw.get("seed", SEED), kw.get("campaign", CAMPAIGN),
                           kw.get("rnd", ROUND), purpose, counter))


def shuffle(items, picks: list[dict], **kw) -> list:
    """The order drawn by ``picks`` (logged draws, in counter order): the items in ascending
    id, each next one picked with a dk from the k not yet placed. Checks one draw per pick,
    none for the last, and that each draw was logged as a dk with its one face."""
    rest = sorted(items)
    assert len(picks) == max(0, len(rest) - 1)
    order = []
    for pick in picks:
        k = len(rest)
        assert pick["sides"] == k
        (face,) = recompute(pick["purpose"], pick["counter"], k, 1, **kw)
        assert pick["faces"] == [face]
        order.append(rest.pop(face - 1))
    return order + rest


def check_log(log: list[dict], **kw) -> None:
    """Every logged face recomputed; counters numbered one per draw."""
    for entry in log:
        assert entry["faces"] == recompute(entry["purpose"], entry["counter"], entry["sides"],
                                           len(entry["faces"]), **kw), entry
    counters = [e["counter"] for e in log]
    assert counters == list(range(counters[0], counters[0] + len(log)))


def find_counter(purpose: str, wanted, start: int = 0) -> int:
    """The first counter from ``start`` whose draw's bytes satisfy ``wanted(bytes)``."""
    for counter in range(start, start + SEARCH):
        data = draw_bytes(SEED, CAMPAIGN, ROUND, purpose, counter)
        if wanted([next(data) for _ in range(64)]):
            return counter
    pytest.fail(f"no draw of {purpose!r} satisfies the search")


def as_log(stream: RoundStream) -> list[dict]:
    return [r.as_dict() for r in stream.log]


# --- d6 and d8 ---------------------------------------------------------------------------------


def test_r_dice_2_verifier_reproduces_d6_draws_one_counter_each():
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=17)
    purposes = ["conquest:attack=5", "int:fleet=3:active", "int:fleet=8:passive",
                "spc:r1:init:ship=4", "conquest:attack=5"]
    for n, purpose in enumerate(purposes, start=1):
        stream.roll(n, 6, purpose)
    log = as_log(stream)
    assert [(e["counter"], e["purpose"], e["sides"], len(e["faces"])) for e in log] == [
        (17 + i, p, 6, i + 1) for i, p in enumerate(purposes)]
    check_log(log)
    assert verify(SEED, log, CAMPAIGN, ROUND).verified


def test_r_dice_2_d6_discards_bytes_from_252_and_reads_the_continuation_digest():
    # a draw whose first byte is discarded (>= 252) and the face after it differs from the
    # face the discarded byte would have given
    purpose = "conquest:attack=9"
    counter = find_counter(purpose, lambda b: b[0] >= 252 and b[1] < 252
                           and b[1] % 6 != b[0] % 6)
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=counter)
    faces = stream.roll(40, 6, purpose)  # 40 faces: more than one digest holds
    expected = recompute(purpose, counter, 6, 40)
    assert list(faces) == expected and expected[0] != first_byte(purpose, counter) % 6 + 1
    check_log(as_log(stream))


def test_r_dice_2_d8_uses_every_byte():
    purpose = "xwing:red:ship=3"
    counter = find_counter(purpose, lambda b: b[0] >= 252)
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=counter)
    faces = stream.roll(3, 8, purpose)
    assert faces[0] == first_byte(purpose, counter) % 8 + 1
    assert list(faces) == recompute(purpose, counter, 8, 3)
    assert verify(SEED, as_log(stream), CAMPAIGN, ROUND).verified


# --- dk ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 4, 5, 7])
def test_r_dice_2_dk_keeps_bytes_below_256_minus_256_mod_k(k):
    bound = 256 - 256 % k  # 3, 5: 255; 7: 252; 2, 4: 256, nothing is discarded
    purpose = "fleets:order"
    counter = find_counter(purpose, lambda b: b[0] == bound - 1)  # the highest byte kept
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=counter)
    assert stream.roll(1, k, purpose) == ((bound - 1) % k + 1,)
    assert stream.log[0].faces == recompute(purpose, counter, k, 1)


@pytest.mark.parametrize("k", [3, 5, 7])
def test_r_dice_2_dk_discards_bytes_from_256_minus_256_mod_k(k):
    bound = 256 - 256 % k
    purpose = "spc:r1:order:ships=1,2,3,4,5,6,7"

    def discarded_then_other_face(data):
        kept = [b for b in data[1:] if b < bound]
        return data[0] == bound and kept[0] % k != bound % k  # the lowest byte discarded

    counter = find_counter(purpose, discarded_then_other_face)
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=counter)
    (face,) = stream.roll(1, k, purpose)
    assert face == recompute(purpose, counter, k, 1)[0] != bound % k + 1
    log = as_log(stream)
    assert verify(SEED, log, CAMPAIGN, ROUND).verified
    # the product's verifier applies the same bound: the face of the discarded byte is refused
    log[0]["faces"] = [bound % k + 1]
    assert not verify(SEED, log, CAMPAIGN, ROUND).verified


def test_r_dice_2_simulation_face_table_discards_like_the_round_stream():
    # R-DICE-4 previews read faces through a translation table (the fast path): every byte maps
    # as the text says, for every die size a rule may roll
    from rules.dice import _byte_faces

    for sides in range(2, 256):
        table, deleted = _byte_faces(sides)
        for byte in range(256):
            face = face_of(byte, sides)
            assert (byte in deleted) == (face is None), (sides, byte)
            if face is not None:
                assert table[byte] == face
    # and a simulation stream is the seeded PRNG's bytes, mapped so
    rng = random.Random(99)
    expected = [f for f in (face_of(b, 7) for b in rng.randbytes(4096)) if f is not None]
    assert SimulationDice(99).roll(len(expected), 7) == tuple(expected)
    # a d256 (an order of 256 items) has faces that no byte table holds: still 1..256
    assert set(SimulationDice(3).roll(5000, 256)) <= set(range(1, 257))


# --- orders: shuffles, one draw per pick --------------------------------------------------------


def test_r_dice_2_an_order_is_a_shuffle_in_ascending_id_one_draw_per_pick():
    players = [40, 7, 23, 15, 31, 2, 19]  # k = 7, 6, ..., 2

    def a_pick_reads_past_a_discarded_byte(start):
        for i, k in enumerate(range(7, 1, -1)):
            data = draw_bytes(SEED, CAMPAIGN, ROUND, "fleets:order", start + i)
            first, second = next(data), next(data)
            if first >= 256 - 256 % k and second < 256 - 256 % k and first % k != second % k:
                return True
        return False

    start = next(s for s in range(SEARCH) if a_pick_reads_past_a_discarded_byte(s))
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=start)
    order, faces = player_order(stream, players)
    log = as_log(stream)
    assert [(e["counter"], e["purpose"], e["sides"]) for e in log] == [
        (start + i, "fleets:order", k) for i, k in enumerate(range(7, 1, -1))]
    assert faces == [f for e in log for f in e["faces"]]
    assert list(order) == shuffle(players, log)
    assert verify(SEED, log, CAMPAIGN, ROUND).verified
    assert player_order(RoundStream(SEED, CAMPAIGN, ROUND), [5])[1] == []  # none for the last


def _line(ids, speed=3):
    """Ships whose initiative is their speed: maneuver 0D, so every ship ties (R-SPC-3)."""
    sheet = Datasheet("0D", speed, "1D", "1D", "1D", "2D")
    return [SpaceShip(i, f"ship {i}", sheet) for i in ids]


def _picks(log, prefix):
    return [e for e in log if e["purpose"].startswith(prefix)]


def test_r_spc_3_tied_ships_are_shuffled_from_ascending_id():
    # datasheet order 9, 4 | 7, 2: the tie of all four is a shuffle of 2, 4, 7, 9 (k = 4, 3, 2)
    attacker, defender = [9, 4], [7, 2]

    def order_depends_on_the_id_order(start):
        faces = [recompute("spc:r1:order", start + i, k, 1)[0]
                 for i, k in enumerate((4, 3, 2))]
        by_id, by_sheet = [2, 4, 7, 9], attacker + defender
        return ([by_id.pop(f - 1) for f in faces] != [by_sheet.pop(f - 1) for f in faces])

    start = next(s for s in range(SEARCH) if order_depends_on_the_id_order(s))
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=start)
    outcome = resolve_space_battle(stream, SpaceSide("attacker", 1, _line(attacker)),
                                   SpaceSide("defender", 2, _line(defender)), max_rounds=1)
    log = as_log(stream)
    picks = _picks(log, "spc:r1:order")
    assert [(e["counter"], e["purpose"], e["sides"]) for e in picks] == [
        (start + i, "spc:r1:order", k) for i, k in enumerate((4, 3, 2))]
    event = next(e for e in outcome.events if e["step"] == "order")
    assert set(event["initiative"].values()) == {3}
    assert event["order"] == shuffle([9, 4, 7, 2], picks)
    check_log(log)
    assert verify(SEED, log, CAMPAIGN, ROUND).verified


def _fleet(fid, owner, area, ship_ids, speed=3):
    ships = [PhaseShip(i, f"ship {i}", datasheet=s.datasheet) for i, s in
             zip(ship_ids, _line(ship_ids, speed), strict=True)]
    return PhaseFleet(fid, owner, area, ships=tuple(ships), interception="never",
                      stance="hold")


def test_r_flt_6_fleet_phase_orders_reproduced_by_the_verifier():
    # five players move (R-FLT-6: a shuffle of 3, 5, 8, 11, 14 with k = 5..2), then players 20
    # and 21 fight a D6 battle in area 99 where all four ships tie (R-SPC-3, k = 4, 3, 2)
    movers = {3: 1, 14: 3, 8: 5, 11: 7, 5: 9}  # player -> start area (area + 1 is empty)
    areas = [PhaseArea(a, adjacent={a + 1 if a % 2 else a - 1}) for a in range(1, 11)]
    areas.append(PhaseArea(99))
    fleets = [_fleet(player, player, area, [100 + player]) for player, area in movers.items()]
    fleets += [_fleet(40, 20, 99, [61, 52]), _fleet(41, 21, 99, [57, 50])]  # 41 attacks
    orders = [PhaseOrder(player, (area + 1,)) for player, area in movers.items()]

    def some_pick_is_discarded(start):
        return any(first_byte("fleets:order", start + i) >= 256 - 256 % k
                   for i, k in ((0, 5), (2, 3)))

    start = next(s for s in range(SEARCH) if some_pick_is_discarded(s))
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=start)
    labels: list[str] = []
    result = resolve_fleet_phase(stream, PhaseInput(
        tuple(areas), tuple(fleets), (), tuple(orders),
        PhaseSettings(round_number=ROUND, engine=D6_SPACE, max_battle_rounds=1)),
        label=labels.append)
    log = as_log(stream)
    check_log(log)
    assert verify(SEED, log, CAMPAIGN, ROUND).verified
    # R-FLT-6: the verifier's shuffle is the order the players moved in
    order = shuffle(movers, _picks(log, "fleets:order"))
    assert list(result.player_order) == order
    assert [e["fleet"] for e in result.events if e["rule"] == "R-FLT-4"
            and e["step"] == "order"] == order
    assert [e["counter"] for e in _picks(log, "fleets:order")] == [start + i for i in range(4)]
    # R-SPC-3: the tie of 61, 52 | 57, 50 is a shuffle of 50, 52, 57, 61
    (battle,) = result.battles
    event = next(e for e in battle.events if e.get("step") == "order")
    assert event["order"] == shuffle([61, 52, 57, 50], _picks(log, "spc:r1:order"))
