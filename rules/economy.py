"""Requisition and attack armies (R-ECO-1 [decision])."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.board import Board
from rules.ruleset import Ruleset
from rules.violation import RuleViolation


@dataclass(frozen=True)
class Purchase:
    """A valid purchase of attack armies in the ``declare`` phase (R-ECO-1)."""

    armies: int
    cost: int
    balance_after: int


def starting_requisition(ruleset: Ruleset) -> int:
    """R-ECO-1: the balance a new player starts with."""
    return ruleset.starting_requisition


def income(ruleset: Ruleset, tiles_owned: int) -> int:
    """R-ECO-1: paid at round close: ``income_base`` + ``income_per_tile`` x tiles owned."""
    return ruleset.income_base + ruleset.income_per_tile * tiles_owned


def round_income(board: Board, ruleset: Ruleset, players: Iterable[int]) -> dict[int, int]:
    """R-ECO-1: each player's income at round close, from the board as it stands then."""
    return {p: income(ruleset, board.total_tiles(p)) for p in players}


def affordable_armies(ruleset: Ruleset, balance: int) -> int | None:
    """R-ECO-1: how many attack armies ``balance`` buys; None when armies are free."""
    if ruleset.attack_army_cost == 0:
        return None
    return max(0, balance) // ruleset.attack_army_cost


def buy_armies(ruleset: Ruleset, balance: int, armies: int) -> Purchase:
    """R-ECO-1: check a purchase of ``armies`` attack armies; raises ``RuleViolation`` when the
    number is not positive or the requisition is short."""
    if armies < 1:
        raise RuleViolation("R-ECO-1", "buy at least one attack army", key="buy_none")
    cost = armies * ruleset.attack_army_cost
    if cost > balance:
        raise RuleViolation(
            "R-ECO-1", f"{armies} attack armies cost {cost} requisition, the balance is "
                       f"{balance} (short by {cost - balance})", key="requisition_short",
            params={"armies": armies, "cost": cost, "balance": balance, "short": cost - balance})
    return Purchase(armies, cost, balance - cost)
