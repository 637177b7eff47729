"""Reads of chained attacks (R-CON-6)."""

from battles.models import Battle


def needs_decision(battle: Battle) -> bool:
    """A won link that is not the last waits for its attacker's roll decision (R-CON-6)."""
    return (battle.chain_position < battle.chain_length and battle.won
            and not battle.chain_decision)
