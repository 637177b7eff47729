"""Would a declaration be legal now (R-ATK-1..3, R-ATK-6)? Asked by the map page when a player
clicks a tile, before anything is written; built from the same inputs ``attack_declare``
gives ``rules.attacks.check_attack``."""

from battles.selectors.attacks import armies_bought
from campaigns.models import Attack, Player, Round, Tile
from campaigns.selectors.campaigns import ruleset_of
from fleets.selectors.board import load_board, orbit_info
from rules.attacks import AttackCheck, check_attack


def attack_check(rnd: Round, player: Player, tile: Tile) -> AttackCheck:
    """The rules' verdict on ``player`` declaring against ``tile`` in ``rnd`` (its phase is the
    caller's concern: declarations are made in ``declare``)."""
    campaign = rnd.campaign
    own = list(Attack.objects.filter(round=rnd, player=player).values_list("tile_id", "status"))
    standing = [t for t, status in own if status == Attack.Status.ACTIVE]
    return check_attack(load_board(campaign), ruleset_of(campaign), player.pk,
                        tile.pk, armies_bought(rnd, player), standing,
                        orbit_info(campaign, player, tile.planet_id, rnd=rnd),
                        withdrawn=len(own) - len(standing))
