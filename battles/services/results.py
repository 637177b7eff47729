"""A battle's result from first report to last correction (R-BAT-3, R-BAT-4), with its
history.

The players: one participant reports, the other confirms or disputes; a report not answered
within ``confirm_hours`` counts as confirmed (the periodic job). The campaign admin enters or
corrects a result, confirmed at once (``battle_result_enter``), and so settles a dispute. Every
change goes through ``_write_result``, so it lands in the history; a confirmed result of a chain
link lets the chain go on (R-CON-6).

[decision] Players:
- players report only during ``battles``, on an open battle whose defender is settled; a
  battle against a neutral garrison is recorded by the admin (R-ATK-4);
- the reporter may replace its own report until it is answered (the confirm clock restarts);
  while the opponent's report waits, a second report is refused (409): confirm or dispute it;
- a dispute waits for the admin; at the battles deadline an unanswered report counts as
  confirmed (``battles.services.chains.battles_close``), a dispute the admin did not settle
  takes ``unplayed_outcome`` like an unplayed battle (R-RND-3).

[decision] When results may change (R-SEC-2):
- nothing before the ``battles`` phase (409 ``wrong_phase``), nothing on a chain link whose
  defender is not settled yet (409 ``battle_pending``);
- in ``battles`` the admin enters and corrects freely, except that flipping a result between
  won and not won is refused (409 ``result_locked``) once something was built on it: the chain
  roll decision was made (R-CON-6) or the next link's defender is settled;
- after ``battles`` (``conquest``, ``closed``) the admin only corrects existing results, and only
  victory points or the kind of win/non-win: won-ness fed the conquest rolls, so flipping it is
  refused (409 ``result_locked``); a map fix after a wrong conquest is done on the map."""

from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.messages import phase_of, rules_refusal
from battles.models import Battle, ConquestRoll, NotificationKind, ResultChange
from battles.selectors.battles import result_snapshot
from battles.selectors.lists import participants
from battles.services import campaign_events, notifications
from battles.services.chains import link_resolved
from campaigns import access
from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_round
from campaigns.mail import name_of
from campaigns.models import Player, Round
from campaigns.pausing import check_not_paused
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services import admin_log
from campaigns.services.corrections import check_correctable, require_reason
from campaigns.services.map_facts import tile_label
from rules.results import check_result

MAX_VP = 100_000
BEFORE_BATTLES = (Round.Phase.DECLARE, Round.Phase.FLEETS, Round.Phase.LISTS)


# --- results (R-BAT-3, R-BAT-4) --------------------------------------------------------------

def _check_values(outcome, attacker_vp, defender_vp) -> None:
    """R-BAT-3: an outcome of the list, victory points in range, and the outcome the points
    allow (``rules.results.check_result``: a moral victory needs the attacker ahead)."""
    if outcome not in Battle.Outcome.values:
        raise RuleViolation(_("The outcome must be one of %(outcomes)s.")
                            % {"outcomes": ", ".join(Battle.Outcome.values)},
                            code="R-BAT-3", field="outcome")
    for name, value in (("attacker_vp", attacker_vp), ("defender_vp", defender_vp)):
        if type(value) is not int or not 0 <= value <= MAX_VP:
            raise RuleViolation(_("Victory points are a whole number from 0 to %(most)s.")
                                % {"most": MAX_VP},
                                code="R-BAT-3", field=name)
    with rules_refusal(field="outcome"):
        check_result(outcome, attacker_vp, defender_vp)


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
        raise Conflict(_("Round %(number)s is in the %(phase)s phase; results are entered "
                         "from the battles phase on.") % phase_of(rnd))
    if battle.status == Battle.Status.PENDING:
        raise Conflict(_("This chain link's defender is not settled yet (R-ATK-5)."),
                       code="battle_pending")
    if rnd.phase != Round.Phase.BATTLES and not battle.result_status:
        raise Conflict(_("After the battles phase only existing results are corrected."))


def _check_changeable(rnd: Round, battle: Battle, outcome: str) -> None:
    check_result_phase(rnd, battle)
    flips = bool(battle.result_status) and ((battle.outcome in Battle.WON)
                                            != (outcome in Battle.WON))
    if flips and (rnd.phase != Round.Phase.BATTLES or _built_upon(battle)):
        raise Conflict(_("Conquest already depends on whether this attack was won; only victory "
                         "points or the kind of result can change now."), code="result_locked")


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
    change = ResultChange.objects.create(battle=battle, by=by, old=old,
                                         new={**new, "reason": reason} if reason else new)
    if status == Battle.ResultStatus.CONFIRMED:  # webhooks and the feed
        campaign_events.result_confirmed_emit(battle=battle, change_id=change.pk, now=now)
    return battle


@transaction.atomic
def battle_result_enter(*, battle: Battle, by_admin_user, outcome: str, attacker_vp: int,
                        defender_vp: int, now: datetime | None = None,
                        reason: str = "") -> Battle:
    """The campaign admin enters or corrects a result; it is confirmed at once (R-BAT-3) and
    the change is kept in the history (R-BAT-4), with ``reason`` when given. When a chain
    link is confirmed the chain goes on (R-CON-6, ``battles.services.chains.link_resolved``).
    The caller re-checks early advance after the commit (a settled dispute may complete the
    phase, R-RND-2)."""
    now = now or timezone.now()
    rnd = lock_round(battle.round_id)  # the campaign first (campaigns.locking)
    if not access.is_campaign_admin(by_admin_user, rnd.campaign):
        raise PermissionDenied(_("Only a campaign admin enters or corrects results."))
    battle = Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(
        pk=battle.pk)
    _check_changeable(rnd, battle, outcome)
    _check_values(outcome, attacker_vp, defender_vp)
    old = result_snapshot(battle)
    battle = _write_result(battle, by_admin_user, {"outcome": outcome,
                                                   "attacker_vp": attacker_vp,
                                                   "defender_vp": defender_vp},
                           Battle.ResultStatus.CONFIRMED, now, reason)
    _log_entry(rnd, battle, by_admin_user, old, result_snapshot(battle), reason)
    if rnd.phase == Round.Phase.BATTLES:
        _chain_follow_up(battle, now)
    return battle


def _log_entry(rnd: Round, battle: Battle, by, old: dict | None, new: dict | None,
               reason: str = "") -> None:
    """The admin's entry, correction or settled dispute in the audit log
    (public: members read results anyway); an unchanged result logs nothing."""
    if old == new:
        return
    kind = ("result.enter" if old is None else "dispute.settle"
            if old["status"] == Battle.ResultStatus.DISPUTED else "result.correct")
    admin_log.record(campaign=rnd.campaign, actor=by, kind=kind, target=battle_label(battle),
                     before=old, after=new, round=rnd, reason=reason)


def battle_result_correct(*, battle: Battle, by_admin_user, outcome: str, attacker_vp: int,
                          defender_vp: int, reason, now: datetime | None = None) -> Battle:
    """The organiser's correction of a result, with its reason (R-SEC-2): as
    ``battle_result_enter``, refused while an automatic phase runs."""
    reason = require_reason(reason)
    with transaction.atomic():
        rnd = Round.objects.select_related("campaign").get(pk=battle.round_id)
        check_correctable(rnd.campaign)
        return battle_result_enter(battle=battle, by_admin_user=by_admin_user, outcome=outcome,
                                   attacker_vp=attacker_vp, defender_vp=defender_vp, now=now,
                                   reason=reason)


VOID = "void"  # the history's status of a voided result (R-BAT-4)


@transaction.atomic
def battle_result_void(*, battle: Battle, by_admin_user, reason,
                       now: datetime | None = None) -> Battle:
    """The organiser voids a result: the battle is open and unplayed again, to be reported
    anew (R-BAT-3); the history keeps the voided result (R-BAT-4). [decision] Only in the
    battles phase of its round and only while nothing was built on the result (the chain
    went on, R-CON-6): conquest depends on it from then on (409 ``result_locked``)."""
    reason = require_reason(reason)
    now = now or timezone.now()
    rnd = Round.objects.select_related("campaign").get(pk=battle.round_id)
    if not access.is_campaign_admin(by_admin_user, rnd.campaign):
        raise PermissionDenied(_("Only a campaign admin voids results."))
    check_correctable(rnd.campaign)
    rnd, battle = _lock(battle)
    if rnd.phase != Round.Phase.BATTLES:
        raise Conflict(_("A result is voided only in the battles phase of its round, before "
                         "conquest depends on it (R-BAT-4)."), code="wrong_phase")
    if not battle.result_status:
        raise Conflict(_("This battle has no result to void."), code="no_result")
    if _built_upon(battle):
        raise Conflict(_("The chain of attacks on this tile went on from this result "
                         "(R-CON-6); correct the result instead of voiding it."),
                       code="result_locked")
    old = result_snapshot(battle)
    battle.outcome, battle.attacker_vp, battle.defender_vp = "", 0, 0
    battle.result_status, battle.status = "", Battle.Status.OPEN
    battle.reported_by, battle.reported_at, battle.confirmed_at = None, None, None
    battle.save(update_fields=["outcome", "attacker_vp", "defender_vp", "result_status",
                               "status", "reported_by", "reported_at", "confirmed_at"])
    ResultChange.objects.create(battle=battle, by=by_admin_user, old=old, new={
        "outcome": "", "attacker_vp": 0, "defender_vp": 0, "status": VOID, "reason": reason})
    admin_log.record(campaign=rnd.campaign, actor=by_admin_user, kind="result.void",
                     target=battle_label(battle), before=old, after=None, round=rnd,
                     reason=reason)
    return battle


def battle_label(battle: Battle) -> str:
    """The battle as the pages name it: its tile, then the sides' factions."""
    defender = battle.defender.faction if battle.defender_id else "—"
    return f"{tile_label(battle.tile)}: {battle.attacker.faction} – {defender}"


def _chain_follow_up(battle: Battle, now: datetime) -> None:
    """R-CON-6: a confirmed link settles the next one."""
    link_resolved(battle, now)


# --- the players' report, confirm and dispute (R-BAT-3, R-BAT-4) ----------------------

MAX_REASON = 500


def check_reporter(battle: Battle, player: Player | None) -> Player:
    """403 unless the caller plays this battle against a player (R-SEC-2, R-ATK-4)."""
    if player is None or player.pk not in participants(battle):
        raise PermissionDenied(_("Only the battle's participants report and answer its result."))
    if battle.defender_id is None:
        raise PermissionDenied(_("The campaign admin records the result against a neutral "
                                 "garrison (R-ATK-4)."))
    return player


def check_report_state(battle: Battle, rnd: Round, player: Player) -> None:
    """409 unless ``player`` may report now (module docstring)."""
    _check_open(battle, rnd)
    if battle.result_status == Battle.ResultStatus.DISPUTED:
        raise Conflict(_("The result is disputed; the campaign admin settles it."),
                       code="result_disputed")
    if battle.result_status == Battle.ResultStatus.REPORTED and \
            battle.reported_by_id != player.user_id:
        raise Conflict(_("Your opponent reported a result; confirm or dispute it."),
                       code="result_reported")


def check_answer_state(battle: Battle, rnd: Round, player: Player) -> None:
    """409 unless a report waits for an answer; 400 when the caller made it (R-BAT-3)."""
    _check_open(battle, rnd)
    if battle.result_status != Battle.ResultStatus.REPORTED:
        raise Conflict(_("No reported result waits for an answer."), code="no_report")
    if battle.reported_by_id == player.user_id:
        raise RuleViolation(_("The other participant confirms or disputes a report (R-BAT-3)."),
                            code="R-BAT-3")


def _check_open(battle: Battle, rnd: Round) -> None:
    check_not_paused(battle.campaign)  # players wait; the admin still corrects
    if rnd.phase != Round.Phase.BATTLES:
        raise Conflict(_("Round %(number)s is in the %(phase)s phase; players report "
                         "results in the battles phase.") % phase_of(rnd))
    if battle.status == Battle.Status.PENDING:
        raise Conflict(_("This chain link's defender is not settled yet (R-ATK-5)."),
                       code="battle_pending")
    if battle.status != Battle.Status.OPEN:
        raise Conflict(_("The result is confirmed; only the campaign admin corrects it."),
                       code="result_confirmed")


def _lock(battle: Battle) -> tuple[Round, Battle]:
    rnd = lock_round(battle.round_id)  # the campaign first (campaigns.locking)
    battle = Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(
        pk=battle.pk)
    return rnd, battle


def _values(battle: Battle) -> dict:
    return {"outcome": battle.outcome, "attacker_vp": battle.attacker_vp,
            "defender_vp": battle.defender_vp}


def _opponent(battle: Battle, player_id: int) -> int:
    return battle.defender_id if player_id == battle.attacker_id else battle.attacker_id


def _last_change(battle: Battle) -> ResultChange:
    return battle.history.order_by("-id").first()


@transaction.atomic
def battle_result_report(*, battle: Battle, player: Player, outcome: str, attacker_vp: int,
                         defender_vp: int, now: datetime | None = None) -> Battle:
    """A participant reports the result (R-BAT-3); the opponent is asked to confirm it."""
    now = now or timezone.now()
    rnd, battle = _lock(battle)
    check_reporter(battle, player)
    check_report_state(battle, rnd, player)
    _check_values(outcome, attacker_vp, defender_vp)
    before = battle.history.count()
    battle = _write_result(battle, player.user, {"outcome": outcome, "attacker_vp": attacker_vp,
                                                 "defender_vp": defender_vp},
                           Battle.ResultStatus.REPORTED, now)
    if battle.history.count() > before:
        hours = ruleset_of(battle.campaign).confirm_hours
        notifications.notify_players(
            kind=NotificationKind.RESULT_TO_CONFIRM, campaign=battle.campaign,
            players=[_opponent(battle, player.pk)], event=f"report:{_last_change(battle).pk}",
            now=now, context={**notifications.battle_context(battle), "by": name_of(player.user),
                              "hours": hours})
    return battle


@transaction.atomic
def battle_result_confirm(*, battle: Battle, player: Player,
                          now: datetime | None = None) -> Battle:
    """The other participant confirms the report (R-BAT-3); a chain link goes on (R-CON-6)."""
    now = now or timezone.now()
    rnd, battle = _lock(battle)
    check_reporter(battle, player)
    check_answer_state(battle, rnd, player)
    _check_values(**_values(battle))  # R-BAT-3: never confirm a result the rules refuse
    battle = _write_result(battle, player.user, _values(battle), Battle.ResultStatus.CONFIRMED,
                           now)
    _chain_follow_up(battle, now)
    return battle


@transaction.atomic
def battle_result_dispute(*, battle: Battle, player: Player, reason: str = "",
                          now: datetime | None = None) -> Battle:
    """The other participant disputes the report (R-BAT-3); the reporter and the campaign
    admins are told, the admin settles it."""
    now = now or timezone.now()
    rnd, battle = _lock(battle)
    check_reporter(battle, player)
    check_answer_state(battle, rnd, player)
    reason = " ".join(reason.split()) if isinstance(reason, str) else ""
    if len(reason) > MAX_REASON:
        raise RuleViolation(_("Say why in at most %(most)s characters.") % {"most": MAX_REASON},
                            code="invalid",
                            field="reason")
    battle = _write_result(battle, player.user, _values(battle), Battle.ResultStatus.DISPUTED,
                           now, reason=reason)
    context = {**notifications.battle_context(battle), "by": name_of(player.user),
               "reason": reason}
    event = f"dispute:{_last_change(battle).pk}"
    notifications.notify_players(kind=NotificationKind.DISPUTE_RAISED, campaign=battle.campaign,
                                 players=[_opponent(battle, player.pk)], event=event, now=now,
                                 context=context)
    notifications.notify_users(  # the admins settle it on the manage page
        kind=NotificationKind.DISPUTE_RAISED, campaign=battle.campaign,
        users=list(battle.campaign.admins.all()), event=event, now=now,
        context={**context, "manage_link": notifications.manage_link(battle.campaign_id)})
    campaign_events.dispute_emit(battle=battle, by_name=context["by"], reason=reason,
                                 change_id=_last_change(battle).pk, now=now)
    return battle


# --- the periodic job: unanswered reports (R-BAT-3) ------------------------------------------

def overdue_reports(now: datetime):
    """Reports unanswered for ``confirm_hours``, across all rounds in the battles phase."""
    candidates = (Battle.objects.filter(round__phase=Round.Phase.BATTLES,
                                        status=Battle.Status.OPEN,
                                        result_status=Battle.ResultStatus.REPORTED,
                                        campaign__paused_at__isnull=True)
                  .select_related("campaign"))
    for battle in candidates:
        hours = ruleset_of(battle.campaign).confirm_hours
        if battle.reported_at <= now - timedelta(hours=hours):
            yield battle, hours


def results_confirm_overdue(*, now: datetime) -> int:
    """Each overdue report counts as confirmed, by the system with the reason in the history,
    in its own locked step; a second run finds nothing to do."""
    done = 0
    for battle, hours in list(overdue_reports(now)):
        with transaction.atomic():
            rnd, fresh = _lock(battle)
            overdue = fresh.reported_at <= now - timedelta(hours=hours)
            if rnd.campaign.paused_at is not None:  # paused since it was found
                continue
            if rnd.phase != Round.Phase.BATTLES or fresh.status != Battle.Status.OPEN or \
                    fresh.result_status != Battle.ResultStatus.REPORTED or not overdue:
                continue
            _write_result(fresh, None, _values(fresh), Battle.ResultStatus.CONFIRMED, now,
                          reason=f"R-BAT-3: not answered within {hours} hours")
            _chain_follow_up(fresh, now)
            done += 1
    return done
