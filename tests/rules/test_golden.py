"""Golden scenarios (tests/golden/*.yaml), in the style of godip's DATC cases.

Each file holds a pre-state map, a round of declarations, fleet re-checks, battle outcomes with
chain rolls, the conquest choices and scripted dice, and the expected results worked out by hand
from RULES.md. This runner plays the round through the public rules API the way the round engine
does and compares every expectation.

File keys: description, ruleset, players, map {planets, tiles, links, markers, marker_types},
purchases {player: armies}, limits [..], declarations [..], fleets [..], battles [..],
conquest {choices, dice, preview, expect_rolls, expect_waived}, expect {owners, markers}.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from rules.attacks import (
    OrbitInfo,
    check_attack,
    needs_battle,
    orbital_cancellations,
    tile_chains,
)
from rules.board import DEFAULT_MARKER_TYPES, Board, Marker, MarkerType, Planet, Tile
from rules.bonus import army_limits
from rules.conquest import (
    WonAttack,
    chain_roll,
    conquest_preview,
    default_chain_roll,
    is_won,
    resolve_conquest_phase,
    settle_outcome,
)
from rules.dice import ScriptedDice
from rules.ruleset import Ruleset

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*.yaml"))
RULE_ID = re.compile(r"R-[A-Z]+-\d+")


def build_board(spec: dict) -> Board:
    planets = [Planet(p["id"], p.get("name", "")) for p in spec["planets"]]
    tiles = [Tile(t["id"], t["planet"], t["q"], t["r"], t.get("owner"),
                  frozenset(t.get("features", ()))) for t in spec["tiles"]]
    types = DEFAULT_MARKER_TYPES
    if "marker_types" in spec:
        types = tuple(MarkerType(**m) for m in spec["marker_types"])
    markers = [Marker(m["id"], m["type"], m["tile"]) for m in spec.get("markers", ())]
    links = [tuple(link) for link in spec.get("links", ())]
    return Board(planets, tiles, links, types, markers)


@dataclass(frozen=True)
class Declaration:
    id: int
    player: int
    tile: int
    source: str


def roll_view(roll, expected: dict) -> dict:
    view = {"attack": roll.attack, "dice": list(roll.dice),
            "modifiers": {m.name: m.value for m in roll.modifiers}, "total": roll.total,
            "threshold": roll.threshold, "success": roll.success}
    for optional, value in (("k", roll.k), ("threshold_rule", roll.threshold_rule)):
        if optional in expected:
            view[optional] = value
    return view


def limits_view(limits: dict, expected: dict) -> dict:
    view = {}
    for player, want in expected.items():
        limit = limits[player]
        if isinstance(want, int):
            view[player] = limit.total
        else:
            view[player] = {key: getattr(limit, key) for key in want}
    return view


class GoldenRound:
    """Plays one scenario's round: declare -> fleets -> battles -> conquest."""

    def __init__(self, doc: dict) -> None:
        self.doc = doc
        self.rules = Ruleset.from_dict(doc.get("ruleset") or {})
        self.board = build_board(doc["map"])
        self.players = doc.get("players")
        self.bought = doc.get("purchases") or {}
        self.standing: dict[int, Declaration] = {}
        self.withdrawn: dict[int, int] = {}
        self.resolved: set[int] = set()
        self.won: list[WonAttack] = []
        self.captures = []

    def run(self) -> None:
        for check in self.doc.get("limits", ()):
            self.check_limits(check, check["tile"], check["attacker"], check.get("defender"))
        for entry in self.doc.get("declarations", ()):
            self.declare(entry)
        for entry in self.doc.get("fleets", ()):
            self.recheck_orbit(entry)
        self.chains = tile_chains((d.id, d.tile) for d in self.standing.values())
        for entry in self.doc.get("battles", ()):
            self.battle(entry)
        assert self.resolved == set(self.standing), "every standing declaration is resolved"
        if "conquest" in self.doc:
            self.conquest(self.doc["conquest"])
        self.check_final(self.doc.get("expect") or {})

    # --- declare phase -------------------------------------------------------------------

    def declare(self, entry: dict) -> None:
        if "withdraw" in entry:
            gone = self.standing.pop(entry["withdraw"])
            self.withdrawn[gone.player] = self.withdrawn.get(gone.player, 0) + 1
            return
        player, tile = entry["player"], entry["tile"]
        mine = [d for d in self.standing.values() if d.player == player]
        planet = self.board.tile(tile).planet
        orbital = sum(1 for d in mine
                      if d.source == "orbit" and self.board.tile(d.tile).planet == planet)
        orbit = OrbitInfo(**(entry.get("orbit") or {}), declarations=orbital)
        check = check_attack(self.board, self.rules, player, tile, self.bought.get(player, 0),
                             [d.tile for d in mine], orbit,
                             withdrawn=self.withdrawn.get(player, 0))
        expected = entry.get("expect") or {"legal": True}
        got = {"legal": check.legal, "source": check.source, "rule": check.rule}
        assert {k: got[k] for k in expected if k != "message_contains"} == \
            {k: v for k, v in expected.items() if k != "message_contains"}, \
            f"declaration {entry['id']}: {check}"
        if "message_contains" in expected:
            assert expected["message_contains"] in check.message, check.message
        if check.legal:
            self.standing[entry["id"]] = Declaration(entry["id"], player, tile, check.source)

    def recheck_orbit(self, entry: dict) -> None:
        player, planet = entry["player"], entry["planet"]
        ids = [d.id for d in sorted(self.standing.values(), key=lambda d: d.id)
               if d.player == player and d.source == "orbit"
               and self.board.tile(d.tile).planet == planet]
        cancelled = orbital_cancellations(ids, entry["embarked_points"], self.rules,
                                          has_fleet=entry.get("has_fleet"))
        assert list(cancelled) == entry["expect_cancelled"]
        for attack in cancelled:
            del self.standing[attack]

    # --- lists and battles phases ----------------------------------------------------------

    def check_limits(self, entry: dict, tile: int, attacker: int, defender: int | None) -> None:
        expected = entry.get("expect_limits", entry.get("expect"))
        limits = army_limits(self.board, self.rules, tile=tile, attacker=attacker,
                             defender=defender, players=self.players)
        assert set(limits) == set(expected), "one limit per participant"
        assert limits_view(limits, expected) == expected

    def battle(self, entry: dict) -> None:
        d = self.standing[entry["attack"]]
        chain = self.chains[d.tile]
        pending = [a for a in chain if a not in self.resolved]
        assert pending[0] == d.id, f"attack {d.id} resolves after {pending[0]} (R-ATK-5)"
        self.resolved.add(d.id)
        defender = self.board.tile(d.tile).owner  # settled now (R-ATK-5)
        if "expect_defender" in entry:
            assert defender == entry["expect_defender"]
        if needs_battle(self.board, self.rules, d.tile):
            outcome = settle_outcome(self.rules, entry.get("outcome"))
            if "expect_limits" in entry:
                self.check_limits(entry, d.tile, d.player, defender)
        else:
            assert entry.get("outcome") is None, "a neutral tile without battle has no result"
            outcome = "victory"  # R-ATK-4
        assert entry.get("expect_outcome", outcome) == outcome
        if not is_won(outcome):
            assert "expect_roll" not in entry
            return
        attack = WonAttack(d.id, d.player, d.tile, d.source, outcome,
                           last_link=len(chain) > 1 and chain[-1] == d.id)
        if len(chain) == 1 or attack.last_link:
            self.won.append(attack)
            return
        self.immediate_roll(entry, attack)

    def immediate_roll(self, entry: dict, attack: WonAttack) -> None:
        """R-CON-6: a chain link that is not the last decides at once."""
        if not entry.get("roll", default_chain_roll(self.rules)):
            assert "expect_roll" not in entry
            return
        dice = ScriptedDice(entry["dice"])
        result = chain_roll(self.board, attack, dice, purpose=f"conquest:attack={attack.id}")
        assert roll_view(result.roll, entry["expect_roll"]) == entry["expect_roll"]
        assert dice.remaining == 0
        self.board = result.board
        if result.capture:
            self.captures.append(result.capture)

    # --- conquest phase --------------------------------------------------------------------

    def conquest(self, spec: dict) -> None:
        choices = spec.get("choices") or {}
        for preview in spec.get("preview", ()):
            own = [a for a in self.won if a.player == preview["player"]]
            items = conquest_preview(self.board, own, preview.get("choice"), self.captures)
            got = {item.attack: item.chance for item in items}
            assert got == {a: Fraction(c) for a, c in preview["chances"].items()}
        dice = ScriptedDice(spec.get("dice", ()))
        result = resolve_conquest_phase(self.board, self.rules, self.won, choices, dice,
                                        captures=self.captures)
        expected = spec.get("expect_rolls", [])
        assert [roll_view(r, e) for r, e in zip(result.rolls, expected, strict=False)] == \
            expected
        assert len(result.rolls) == len(expected)
        assert dice.remaining == 0
        if "expect_waived" in spec:
            assert list(result.waived) == spec["expect_waived"]
        self.board = result.board

    def check_final(self, expect: dict) -> None:
        owners = {tile: self.board.tile(tile).owner for tile in expect.get("owners", {})}
        assert owners == expect.get("owners", {})
        markers = {m.id: self.board.marker_owner(m) for m in self.board.markers
                   if m.id in expect.get("markers", {})}
        assert markers == expect.get("markers", {})


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_scenario(path: Path) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    GoldenRound(doc).run()


def test_golden_suite_covers_the_campaign_core() -> None:
    assert len(FILES) >= 15
    seen = set()
    for path in FILES:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        ids = RULE_ID.findall(doc.get("description", ""))
        assert ids, f"{path.name}: the description names no rule id"
        seen |= set(ids)
    for rule in ("R-ATK-2", "R-ATK-3", "R-ATK-4", "R-ATK-5", "R-BON-2", "R-BON-3", "R-MRK-2",
                 "R-MRK-3", "R-CON-1", "R-CON-2", "R-CON-3", "R-CON-4", "R-CON-6"):
        assert rule in seen, f"no golden scenario exercises {rule}"
