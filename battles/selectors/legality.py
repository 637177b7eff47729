"""Would a declaration be legal now (R-ATK-1..3, R-ATK-6)? Asked by the map page when a player
clicks a tile, before anything is written; built from the same inputs ``attack_declare``
gives ``rules.attacks.check_attack``. The board is the target's planet only (R-ATK-2 looks no
further), so a check costs the same in any league (issue 21)."""

from battles.selectors.attacks import armies_bought
from campaigns.models import Attack, Player, Round, Tile
from campaigns.selectors.boards import load_planet_board
from campaigns.selectors.campaigns import ruleset_of
from fleets.selectors.board import orbit_info
from rules.attacks import NO_ORBIT, AttackCheck, check_attack, orbit_matters


def attack_check(rnd: Round, player: Player, tile: Tile, *,
                 bought: int | None = None) -> AttackCheck:
    """The rules' verdict on ``player`` declaring against ``tile`` in ``rnd`` (its phase is the
    caller's concern: declarations are made in ``declare``). ``bought``: the attack armies the
    player bought this round, when the caller read them already (R-ATK-1)."""
    campaign = rnd.campaign
    own = list(Attack.objects.filter(round=rnd, player=player).values_list("tile_id", "status"))
    standing = [t for t, status in own if status == Attack.Status.ACTIVE]
    board = load_planet_board(campaign.pk, [tile.planet_id], markers=False)
    orbit = NO_ORBIT
    if orbit_matters(board, player.pk, tile.pk):
        orbit = orbit_info(campaign, player, tile.planet_id, rnd=rnd)
    return check_attack(board, ruleset_of(campaign), player.pk, tile.pk,
                        armies_bought(rnd, player) if bought is None else bought, standing,
                        orbit,
                        withdrawn=len(own) - len(standing))
