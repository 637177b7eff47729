"""What a battle is played under and how it ended: point limits with their bonus breakdown
(R-BON-1..3, R-MRK-2, via ``rules.bonus.army_limits``) and results with their history
(R-BAT-3, R-BAT-4).

Results: the campaign admin enters or corrects a result, confirmed at once
(``battle_result_enter``). The players' own report / confirm / dispute workflow
(``battles.reporting``) writes through ``_write_result`` with status ``reported`` /
``confirmed`` / ``disputed``, so history and the chain follow-up stay in one place.

[decision] When results may change (R-SEC-2):
- nothing before the ``battles`` phase (409 ``wrong_phase``), nothing on a chain link whose
  defender is not settled yet (409 ``battle_pending``);
- in ``battles`` the admin enters and corrects freely, except that flipping a result between
  won and not won is refused (409 ``result_locked``) once something was built on it: the chain
  roll decision was made (R-CON-6) or the next link's defender is settled;
- after ``battles`` (``conquest``, ``closed``) the admin only corrects existing results, and only
  victory points or the kind of win/non-win: won-ness fed the conquest rolls, so flipping it is
  refused (409 ``result_locked``); a map fix after a wrong conquest is done on the map."""

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, ConquestRoll, ResultChange
from campaigns import access
from campaigns.errors import Conflict, RuleViolation
from campaigns.models import Player, Round
from rules.board import Board
from rules.bonus import army_limits
from rules.ruleset import Ruleset

MAX_VP = 100_000
BEFORE_BATTLES = (Round.Phase.DECLARE, Round.Phase.FLEETS, Round.Phase.LISTS)


# --- point limits (R-BON, R-MRK-2) -----------------------------------------------------------

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
    ruleset = ruleset or Ruleset.from_dict(campaign.ruleset)
    players = _campaign_players(campaign.pk) if players is None else players
    battle.point_limits, battle.bonus = limits_of(battle, board, ruleset, players)
    battle.save(update_fields=["point_limits", "bonus"])
    return battle


def _settled_without_limits(rnd: Round) -> list[Battle]:
    """Open battles (defender settled, or a neutral garrison) without limits yet."""
    battles = Battle.objects.select_for_update().filter(round=rnd, status=Battle.Status.OPEN)
    return [b for b in battles if not b.point_limits and b.attacker_id != b.defender_id]


@transaction.atomic
def battles_compute_limits(*, round: Round, board: Board) -> int:
    """When ``lists`` opens: limits for every battle of the round whose defender is settled and
    that has none yet (R-BON-3); idempotent. Returns how many were computed."""
    ruleset = Ruleset.from_dict(round.campaign.ruleset)
    players = _campaign_players(round.campaign_id)
    battles = _settled_without_limits(round)
    for battle in battles:
        battle.point_limits, battle.bonus = limits_of(battle, board, ruleset, players)
    Battle.objects.bulk_update(battles, ["point_limits", "bonus"])
    return len(battles)


# --- results (R-BAT-3, R-BAT-4) --------------------------------------------------------------

def result_snapshot(battle: Battle) -> dict | None:
    """The result as history stores it; None before there is one."""
    if not battle.result_status:
        return None
    return {"outcome": battle.outcome, "attacker_vp": battle.attacker_vp,
            "defender_vp": battle.defender_vp, "status": battle.result_status}


def _check_values(outcome, attacker_vp, defender_vp) -> None:
    if outcome not in Battle.Outcome.values:
        raise RuleViolation(f"The outcome must be one of {', '.join(Battle.Outcome.values)}.",
                            code="R-BAT-3", field="outcome")
    for name, value in (("attacker_vp", attacker_vp), ("defender_vp", defender_vp)):
        if type(value) is not int or not 0 <= value <= MAX_VP:
            raise RuleViolation(f"Victory points are a whole number from 0 to {MAX_VP}.",
                                code="R-BAT-3", field=name)


def _built_upon(battle: Battle) -> bool:
    """Did the chain go on from this result (R-CON-6 decision, roll, or next link settled)?"""
    if battle.chain_decision or ConquestRoll.objects.filter(attack=battle.attack_id).exists():
        return True
    return Battle.objects.filter(round=battle.round_id, tile=battle.tile_id,
                                 chain_position=battle.chain_position + 1).exclude(
        status=Battle.Status.PENDING).exists()


def check_result_phase(rnd: Round, battle: Battle) -> None:
    """May the battle's result change in this phase and state at all? (409; [decision] in the
    module docstring). The API calls it before it validates the input."""
    if rnd.phase in BEFORE_BATTLES:
        raise Conflict(f"Round {rnd.number} is in the {rnd.phase} phase; results are entered "
                       f"from the battles phase on.")
    if battle.status == Battle.Status.PENDING:
        raise Conflict("This chain link's defender is not settled yet (R-ATK-5).",
                       code="battle_pending")
    if rnd.phase != Round.Phase.BATTLES and not battle.result_status:
        raise Conflict("After the battles phase only existing results are corrected.")


def _check_changeable(rnd: Round, battle: Battle, outcome: str) -> None:
    check_result_phase(rnd, battle)
    flips = bool(battle.result_status) and ((battle.outcome in Battle.WON)
                                            != (outcome in Battle.WON))
    if flips and (rnd.phase != Round.Phase.BATTLES or _built_upon(battle)):
        raise Conflict("Conquest already depends on whether this attack was won; only victory "
                       "points or the kind of result can change now.", code="result_locked")


def _write_result(battle: Battle, by, values: dict, status: str, now: datetime,
                  reason: str = "") -> Battle:
    """Store a result and append the change to the history (R-BAT-4), with ``reason`` when
    given (a dispute's words, or why the system decided); a result equal to the current one
    changes nothing."""
    old = result_snapshot(battle)
    new = {**values, "status": status}
    if old == new:
        return battle
    battle.outcome, battle.attacker_vp = values["outcome"], values["attacker_vp"]
    battle.defender_vp, battle.result_status = values["defender_vp"], status
    battle.reported_by, battle.reported_at = by, now
    fields = ["outcome", "attacker_vp", "defender_vp", "result_status", "reported_by",
              "reported_at"]
    if status == Battle.ResultStatus.CONFIRMED:
        battle.confirmed_at, battle.status = now, Battle.Status.DONE
        fields += ["confirmed_at", "status"]
    battle.save(update_fields=fields)
    ResultChange.objects.create(battle=battle, by=by, old=old,
                                new={**new, "reason": reason} if reason else new)
    return battle


@transaction.atomic
def battle_result_enter(*, battle: Battle, by_admin_user, outcome: str, attacker_vp: int,
                        defender_vp: int, now: datetime | None = None) -> Battle:
    """The campaign admin enters or corrects a result; it is confirmed at once (R-BAT-3) and
    the change is kept in the history (R-BAT-4). When a chain link is confirmed the chain goes
    on (R-CON-6, ``battles.chains.link_resolved``)."""
    now = now or timezone.now()
    rnd = Round.objects.select_for_update().select_related("campaign").get(pk=battle.round_id)
    if not access.is_campaign_admin(by_admin_user, rnd.campaign):
        raise PermissionDenied("Only a campaign admin enters or corrects results.")
    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    _check_changeable(rnd, battle, outcome)
    _check_values(outcome, attacker_vp, defender_vp)
    battle = _write_result(battle, by_admin_user, {"outcome": outcome,
                                                   "attacker_vp": attacker_vp,
                                                   "defender_vp": defender_vp},
                           Battle.ResultStatus.CONFIRMED, now)
    if rnd.phase == Round.Phase.BATTLES:
        _chain_follow_up(battle, now)
    return battle


def _chain_follow_up(battle: Battle, now: datetime) -> None:
    """R-CON-6: a confirmed link settles the next one (``battles.chains`` imports this module,
    hence the late import)."""
    from battles.chains import link_resolved

    link_resolved(battle, now)
