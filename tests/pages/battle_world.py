"""Tabletop battles in the page tests' world: ben attacks anna's edge tile (anna defends), carl
and dora look on. Hidden list entries carry distinctive names so leak tests can search the
HTML for them."""

from battles.models import Battle
from battles.services.results import battle_result_enter
from campaigns.models import Attack
from tests.campaigns.league_map import advance_to, declare
from tests.factories import (
    ArmyListFactory,
    AttackFactory,
    BattleFactory,
    PlayerFactory,
    ScheduleProposalFactory,
    TileFactory,
)

BEN_UNIT = "Gargant of Doom"
ANNA_UNIT = "Skitarii Rangers"


def duel(world, phase: str = "lists") -> Battle:
    attack = declare(world.lg.b, world.rnd, world.tiles["a-edge"])
    advance_to(world.rnd, phase)
    return Battle.objects.select_related("round").get(attack=attack)


def hand_in(battle: Battle, player, unit: str, points: int = 500):
    return ArmyListFactory(battle=battle, player=player, name=f"{unit} list",
                           entries=[{"name": unit, "points": points}])


def battle_url(world, battle: Battle, rest: str = "") -> str:
    return world.url(f"battles/{battle.pk}/{rest}")


def grow_battles(world, battle: Battle) -> None:
    """More battles in ``battle``'s round with lists, proposals and results, more players, and
    more history and proposals on ``battle`` itself."""
    lg, rnd = world.lg, battle.round
    taken = Attack.objects.filter(round=rnd).count()
    for index in range(3):
        tile = TileFactory(planet=world.beta, q=10 + taken + index, r=0, owner=lg.c)
        attack = AttackFactory(round=rnd, player=lg.d, tile=tile, order=taken + index + 1)
        other = BattleFactory(attack=attack,
                              defender=lg.c,
                              point_limits={str(lg.d.pk): 1500, str(lg.c.pk): 1600},
                              bonus={str(lg.c.pk): {"tiles": 100, "markers": 0}})
        hand_in(other, lg.d, f"Unit {index}")
        ScheduleProposalFactory(battle=other, proposed_by=lg.d)
    for _ in range(2):
        PlayerFactory(campaign=world.campaign)
    ScheduleProposalFactory(battle=battle, proposed_by=lg.a, status="superseded")
    if rnd.phase == "battles":
        for vp in (1, 2):
            battle_result_enter(battle=battle, by_admin_user=lg.admin, outcome="draw",
                                attacker_vp=vp, defender_vp=vp)
