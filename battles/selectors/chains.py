"""Reads of chained attacks (R-CON-6): whether a link waits for its roll decision, the exact
odds of that roll before the decision (R-CON-7) and the roll as it was made."""

from battles.models import Battle
from battles.selectors.battles import immediate_roll_of
from battles.selectors.conquest import roll_dict
from campaigns.selectors.boards import load_planet_board
from rules import conquest as rules


def needs_decision(battle: Battle) -> bool:
    """A won link that is not the last waits for its attacker's roll decision (R-CON-6)."""
    return (battle.chain_position < battle.chain_length and battle.won
            and not battle.chain_decision)


def chain_link_attack(battle: Battle) -> rules.WonAttack:
    """The won chain link as the rules see it (R-CON-6): the roll and its preview use this."""
    return rules.WonAttack(battle.attack_id, battle.attacker_id, battle.tile_id,
                           battle.attack.source, battle.outcome)


def chain_roll_odds(battle: Battle) -> dict | None:
    """R-CON-7 before an immediate chain roll: threshold with its rule, every modifier with its
    rule and the exact chance, on the board as it stands now (the roll, if made now, is made
    on it: the tile's planet); None unless the decision is open."""
    if not needs_decision(battle):
        return None
    board = load_planet_board(battle.campaign_id, [battle.tile.planet_id])
    assessed = rules.chain_roll_preview(board, chain_link_attack(battle))
    return {**assessed.as_dict(), "battle": battle.pk}


def chain_state(battle: Battle) -> dict:
    """A chain link's roll decision (R-CON-6): the decision made (None until then), whether
    it is open, the exact odds while it is (R-CON-7) and the roll as it was made."""
    made = immediate_roll_of(battle)
    return {"decision": battle.chain_decision or None, "open": needs_decision(battle),
            "odds": chain_roll_odds(battle), "roll": roll_dict(made) if made else None}
