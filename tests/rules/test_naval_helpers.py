"""Builders shared by the naval engine tests."""

from rules.dice import ScriptedDice
from rules.naval import NavalShip, NavalSide, resolve_naval_battle


def ship(ship_id, attack=3, defence=9, agility=3, crew=(), cargo=(), seats=None):
    return NavalShip(ship_id, f"ship {ship_id}", attack, defence, agility, tuple(crew),
                     tuple(cargo), seats)


def side(key, ships, stance="hold", retreat_to=None):
    return NavalSide(key, 1 if key == "attacker" else 2, tuple(ships), stance, retreat_to)


def fight(faces, attackers, defenders, stances=("hold", "hold"), retreat=(None, None), **kw):
    """Resolve a battle on scripted faces; every face must be read."""
    dice = ScriptedDice(faces)
    outcome = resolve_naval_battle(dice, side("attacker", attackers, stances[0], retreat[0]),
                                   side("defender", defenders, stances[1], retreat[1]), **kw)
    assert dice.remaining == 0, "the script has faces the battle did not read"
    return outcome, dice


def steps(outcome, step):
    return [e for e in outcome.events if e["step"] == step]
