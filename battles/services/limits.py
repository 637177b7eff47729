"""Point limits with their bonus breakdown (R-BON-1..3, R-MRK-2, via
``rules.bonus.army_limits``): computed when ``lists`` opens, and for a chain link when its
defender is settled (R-BON-3)."""

from battles.models import Battle
from campaigns.bulk import update_rows
from campaigns.models import Player, Round
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from campaigns.steps import phase_step
from fleets.selectors.board import load_board
from rules.board import Board
from rules.bonus import army_limits
from rules.ruleset import Ruleset


def limits_of(battle: Battle, board: Board, ruleset: Ruleset,
              players: list[int]) -> tuple[dict, dict]:
    """``point_limits`` {player id (str): total} and ``bonus`` {player id (str): {"tiles",
    "markers"}} of a battle whose defender is settled (null = neutral garrison: the attacker
    only), from the board as it stands now (R-BON-3)."""
    limits = army_limits(board, ruleset, tile=battle.tile_id, attacker=battle.attacker_id,
                         defender=battle.defender_id, players=players)
    return ({str(p): lim.total for p, lim in limits.items()},
            {str(p): {"tiles": lim.tile_bonus, "markers": lim.marker_bonus}
             for p, lim in limits.items()})


def _campaign_players(campaign_id: int) -> list[int]:
    return list(Player.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True))


def battle_compute_limits(battle: Battle, board: Board, *, ruleset: Ruleset | None = None,
                          players: list[int] | None = None) -> Battle:
    """Compute and store one battle's limits (for a chain link whose defender was just
    settled, R-BON-3). Call inside the caller's transaction."""
    campaign = battle.campaign
    ruleset = ruleset or ruleset_of(campaign)
    players = _campaign_players(campaign.pk) if players is None else players
    battle.point_limits, battle.bonus = limits_of(battle, board, ruleset, players)
    battle.save(update_fields=["point_limits", "bonus"])
    return battle


def _settled_without_limits(rnd: Round) -> list[Battle]:
    """Open battles (defender settled, or a neutral garrison) without limits yet."""
    battles = Battle.objects.select_for_update().filter(round=rnd, status=Battle.Status.OPEN)
    return [b for b in battles if not b.point_limits and b.attacker_id != b.defender_id]


@phase_step
def battles_compute_limits(*, round: Round, now=None, board: Board | None = None) -> int:  # noqa: A002
    """When ``lists`` opens: limits for every battle of the round whose defender is settled and
    that has none yet (R-BON-3); idempotent. Returns how many were computed."""
    board = board or load_board(round.campaign)
    ruleset = ruleset_of(round.campaign)
    players = _campaign_players(round.campaign_id)
    battles = _settled_without_limits(round)
    for battle in battles:
        battle.point_limits, battle.bonus = limits_of(battle, board, ruleset, players)
    update_rows(Battle, battles, ["point_limits", "bonus"])  # one UPDATE
    bump(round.campaign_id)  # no signals: campaigns/revision.py
    return len(battles)
