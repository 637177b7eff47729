"""R-DICE: the provably fair stream, recomputed here from the rule text with hmac/hashlib."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from rules.dice import (
    GREEN_FACES,
    RED_FACES,
    DiceExhausted,
    RoundStream,
    ScriptedDice,
    SimulationDice,
    commitment,
    green_dice,
    red_dice,
    stream_faces,
    verify,
    wild_roll,
)

SEED = bytes(range(32))
CAMPAIGN, ROUND = 7, 3


def digest(message: str) -> bytes:
    """R-DICE-2: HMAC-SHA256 keyed with the raw seed bytes over the UTF-8 message."""
    return hmac.new(SEED, message.encode("utf-8"), hashlib.sha256).digest()


def reference_bytes(purpose: str, k: int, blocks: int) -> list[int]:
    """Bytes of draw k: the message's digest, then the digests of message + ":1", ":2", ..."""
    base = f"{CAMPAIGN}:{ROUND}:{purpose}:{k}"
    out = list(digest(base))
    for i in range(1, blocks):
        out += list(digest(f"{base}:{i}"))
    return out


def reference_d6(purpose: str, k: int, n: int) -> list[int]:
    """D6 faces: bytes >= 252 are skipped, otherwise byte % 6 + 1."""
    faces = [b % 6 + 1 for b in reference_bytes(purpose, k, 8) if b < 252]
    assert len(faces) >= n
    return faces[:n]


def test_r_dice_1_notation_d6_and_2d6():
    # d6: one six-sided die; 2d6: the sum of two, read as one draw of two faces.
    dice = ScriptedDice([6, 1, 4])
    assert dice.roll(1) == (6,)
    assert sum(dice.roll(2, 6, "conquest:attack=1")) == 5
    assert [(r.purpose, r.faces) for r in dice.log] == [("roll", [6]),
                                                         ("conquest:attack=1", [1, 4])]


def test_r_dice_2_first_draws_match_hmac_reference():
    stream = RoundStream(SEED, CAMPAIGN, ROUND)
    for k, purpose in enumerate(["conquest:attack=17", "int:fleet=3", "initiative"]):
        expected = reference_d6(purpose, k, 5)
        assert stream_faces(SEED, CAMPAIGN, ROUND, purpose, k, 5) == expected
        assert list(stream.roll(5, 6, purpose)) == expected
    assert [r.counter for r in stream.log] == [0, 1, 2]


def test_r_dice_2_counter_is_shared_across_purposes_and_continues_from_start():
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=41)
    assert list(stream.roll(2, 6, "conquest:attack=1")) == reference_d6("conquest:attack=1", 41, 2)
    assert list(stream.roll(2, 6, "conquest:attack=2")) == reference_d6("conquest:attack=2", 42, 2)


def test_r_dice_2_rejected_byte_is_skipped():
    # Search for a draw whose first or second byte is >= 252, so 2 faces read past it.
    purpose = "conquest:attack=9"
    found = next((k for k in range(500)
                  if max(reference_bytes(purpose, k, 1)[:2]) >= 252), None)
    assert found is not None, "no draw with a rejected byte among its first two"
    raw = reference_bytes(purpose, found, 1)
    expected = [b % 6 + 1 for b in raw if b < 252][:2]
    assert len([b for b in raw[:3] if b < 252]) <= 2  # the draw reads past a rejected byte
    assert stream_faces(SEED, CAMPAIGN, ROUND, purpose, found, 2) == expected
    stream = RoundStream(SEED, CAMPAIGN, ROUND, start=found)
    assert stream.roll(2, 6, purpose) == tuple(expected)
    assert stream.log[0].faces == expected


def test_r_dice_2_long_draw_reads_continuation_digest():
    # 40 d6 faces need more than the 32 bytes of one digest: ":1" is read next.
    first = [b % 6 + 1 for b in digest(f"{CAMPAIGN}:{ROUND}:volley:5") if b < 252]
    second = [b % 6 + 1 for b in digest(f"{CAMPAIGN}:{ROUND}:volley:5:1") if b < 252]
    assert len(first) < 40
    expected = (first + second)[:40]
    assert stream_faces(SEED, CAMPAIGN, ROUND, "volley", 5, 40) == expected
    draw = RoundStream(SEED, CAMPAIGN, ROUND, start=5).draw("volley", 6)
    assert [next(draw) for _ in range(40)] == expected


def test_r_dice_2_d8_uses_every_byte():
    # Find a d8 draw whose digest has a byte >= 252: it must still give a face.
    for k in range(200):
        raw = digest(f"{CAMPAIGN}:{ROUND}:xwing:red:{k}")
        if any(b >= 252 for b in raw):
            break
    else:
        pytest.fail("no digest with a byte >= 252")
    expected = [b % 8 + 1 for b in raw]
    assert stream_faces(SEED, CAMPAIGN, ROUND, "xwing:red", k, 32, sides=8) == expected
    assert len(expected) == 32


def test_r_dice_2_commitment_is_sha256_of_raw_seed_lowercase_hex():
    # Known value: SHA-256 of the bytes 0x00..0x1f.
    known = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment(SEED) == known
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED.hex())).hexdigest()


def test_r_dice_2_seed_must_be_32_bytes():
    with pytest.raises(ValueError):
        RoundStream(b"short", CAMPAIGN, ROUND)


def test_r_dice_3_every_draw_is_logged_and_verifies():
    stream = RoundStream(SEED, CAMPAIGN, ROUND)
    stream.roll(2, 6, "conquest:tile=17")
    wild_roll(stream, 3, purpose="spc:initiative")
    red_dice(stream, 2)
    log = [r.as_dict() for r in stream.log]
    assert [(e["counter"], e["purpose"], e["sides"]) for e in log] == [
        (0, "conquest:tile=17", 6), (1, "spc:initiative", 6), (2, "xwing:red", 8)]
    report = verify(SEED, log, CAMPAIGN, ROUND)
    assert report.verified and report.checked == 3 and report.mismatches == ()


def test_r_dice_3_verify_detects_tampered_face():
    stream = RoundStream(SEED, CAMPAIGN, ROUND)
    stream.roll(2, 6, "conquest:tile=17")
    stream.roll(2, 6, "conquest:tile=18")
    log = [r.as_dict() for r in stream.log]
    log[1]["faces"][0] = log[1]["faces"][0] % 6 + 1
    report = verify(SEED, log, CAMPAIGN, ROUND)
    assert not report.verified
    assert [m["counter"] for m in report.mismatches] == [1]
    assert not verify(bytes(32), [r.as_dict() for r in stream.log], CAMPAIGN, ROUND).verified


def test_r_dice_2_faces_are_uniform_chi_square():
    # 60,000 faces from the stream; df=5 critical value at 0.1% is 20.515.
    stream = RoundStream(SEED, CAMPAIGN, ROUND)
    counts = Counter()
    for i in range(600):
        counts.update(stream.roll(100, 6, f"chi:{i}"))
    assert sum(counts.values()) == 60000
    expected = 10000
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < 20.515, (chi2, counts)


def test_r_dice_4_simulation_dice_keep_no_log_and_are_seeded():
    a, b = SimulationDice(5), SimulationDice(5)
    assert a.roll(10) == b.roll(10)
    assert all(1 <= f <= 6 for f in a.roll(50))
    assert a.log == []


def test_r_dice_scripted_dice_run_out_and_reject_bad_faces():
    dice = ScriptedDice([3, 4])
    assert dice.roll(2) == (3, 4)
    with pytest.raises(DiceExhausted):
        dice.roll(1)
    with pytest.raises(ValueError):
        ScriptedDice([7]).roll(1, 6)
    with pytest.raises(ValueError):
        ScriptedDice([0]).roll(1, 6)
    assert ScriptedDice([8]).roll(1, 8) == (8,)


def test_r_dice_5_wild_die_explodes_and_keeps_face_order():
    # Wild 6, other dice 3 and 2, wild re-rolls 6 then 4: 6+3+2+6+4 + 1 pip.
    result = wild_roll(ScriptedDice([6, 3, 2, 6, 4]), 3, pips=1)
    assert result.faces == (6, 3, 2, 6, 4)
    assert result.total == 22
    assert not result.fumble


def test_r_dice_5_fumble_on_first_wild_throw_still_counts():
    result = wild_roll(ScriptedDice([1, 5]), 2, pips=2)
    assert result.fumble and result.total == 8 and result.faces == (1, 5)
    later_one = wild_roll(ScriptedDice([6, 1, 2]), 2)
    assert not later_one.fumble and later_one.total == 9


def test_r_dice_5_wild_roll_is_one_draw():
    stream = RoundStream(SEED, CAMPAIGN, ROUND)
    result = wild_roll(stream, 4, purpose="spc:attack")
    assert len(stream.log) == 1
    assert list(result.faces) == reference_d6("spc:attack", 0, len(result.faces))


def test_r_brd_2_x_wing_face_mapping():
    assert [RED_FACES[f] for f in range(1, 9)] == [
        "hit", "hit", "hit", "crit", "focus", "focus", "blank", "blank"]
    assert [GREEN_FACES[f] for f in range(1, 9)] == [
        "evade", "evade", "evade", "focus", "focus", "blank", "blank", "blank"]
    assert red_dice(ScriptedDice([1, 4, 5, 8]), 4) == ((1, 4, 5, 8), 2)
    assert green_dice(ScriptedDice([3, 4, 6]), 3) == ((3, 4, 6), 1)
    assert red_dice(ScriptedDice([]), 0) == ((), 0)


@pytest.mark.parametrize("sides", [2, 6, 7, 8, 20, 100])
def test_r_dice_2_round_stream_roll_reads_the_faces_a_draw_reads(sides):
    """``RoundStream.roll`` (no face iterator) rolls and logs exactly what a draw
    read face by face does, over several digests (long rolls, big dice)."""
    fast = RoundStream(SEED, CAMPAIGN, ROUND, start=5)
    slow = RoundStream(SEED, CAMPAIGN, ROUND, start=5)
    for n in (0, 1, 2, 5, 31, 32, 33, 70):
        purpose = f"naval:r1:fire:{n}"
        faces = slow.draw(purpose, sides)
        assert fast.roll(n, sides, purpose) == tuple(next(faces) for _ in range(n))
    assert [r.as_dict() for r in fast.log] == [r.as_dict() for r in slow.log]
    assert fast.next_counter == slow.next_counter == 13
    assert verify(SEED, [r.as_dict() for r in fast.log], CAMPAIGN, ROUND).verified
    with pytest.raises(ValueError):
        fast.roll(1, 1)
