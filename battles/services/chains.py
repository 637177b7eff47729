"""Chained attacks on one tile (R-ATK-5, R-CON-6) and the battles-phase defaults (R-RND-3).

After each link but the last, a winning attacker decides at once whether to roll; then the next
link's defender (the holder now) and point limits are settled. The ``battles`` deadline is not
extended for a chain (R-CON-6 [decision]): when it passes, ``battles_close`` gives an open roll
decision ``conquest_default`` at once and every later link not yet played ``unplayed_outcome``,
link by link; the admin may move the deadline beforehand (R-RND-1). Every function here runs
inside a transaction with the round row locked (a phase hook, the periodic job, or a locked
service)."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models import Battle, ConquestRoll, ResultChange
from battles.selectors.battles import result_snapshot
from battles.selectors.chains import chain_link_attack, needs_decision
from battles.services.limits import limits_of
from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_round
from campaigns.models import Player, Round, Tile
from campaigns.pausing import check_not_paused
from campaigns.revision import bump
from campaigns.selectors.boards import limits_board, load_planet_board
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services.dice import round_dice
from rules import conquest as rules
from rules.attacks import holder_needs_battle
from rules.board import Board
from rules.ruleset import Ruleset


def _next_link(battle: Battle) -> Battle | None:
    return (Battle.objects.select_for_update()
            .filter(round=battle.round_id, tile=battle.tile_id,
                    chain_position=battle.chain_position + 1).first())


def _confirm_default(battle: Battle, outcome: str, now: datetime, why: str) -> None:
    """Record a result the system decided (R-RND-3, R-ATK-4), confirmed at once, in history."""
    old = result_snapshot(battle)
    battle.outcome, battle.result_status = outcome, Battle.ResultStatus.CONFIRMED
    battle.confirmed_at = now
    battle.status = Battle.Status.DONE
    battle.save(update_fields=["outcome", "result_status", "confirmed_at", "status"])
    ResultChange.objects.create(battle=battle, by=None, old=old,
                                new={**result_snapshot(battle), "reason": why})


def link_resolved(battle: Battle, now: datetime | None = None) -> None:
    """Call when a link's result is confirmed: settle the next link unless the attacker won and
    still has to decide on its roll (R-CON-6)."""
    if battle.chain_position < battle.chain_length and not needs_decision(battle):
        settle_next_link(battle, now or timezone.now())


def settle_next_link(battle: Battle, now: datetime, board: Board | None = None
                     ) -> Battle | None:
    """Fix the next link's defender (the tile's holder now) and its point limits (R-ATK-5,
    R-BON-3). The battles deadline stays where it is (R-CON-6). ``board``: the tile's planet
    as it stands now, when the caller has it (no second read)."""
    nxt = _next_link(battle)
    if nxt is None or nxt.status != Battle.Status.PENDING:
        return nxt
    nxt.campaign = battle.campaign  # one campaign: no query for it
    if board is None:
        holder = Tile.objects.values_list("owner_id", flat=True).get(pk=battle.tile_id)
    else:
        holder = board.tile(battle.tile_id).owner
    nxt.defender_id, nxt.settled_at = holder, now
    nxt.neutral = holder is None
    nxt.status = Battle.Status.OPEN
    settled = ["defender", "settled_at", "neutral", "status"]
    ruleset = ruleset_of(nxt.campaign)
    if not holder_needs_battle(holder, ruleset):
        nxt.save(update_fields=settled)
        _confirm_default(nxt, Battle.Outcome.VICTORY, now, "R-ATK-4: neutral tile, no battle")
        link_resolved(nxt, now)
        return nxt
    nxt.point_limits, nxt.bonus = _link_limits(nxt, board, ruleset)
    nxt.save(update_fields=[*settled, "point_limits", "bonus"])  # one UPDATE
    return nxt


def _link_limits(battle: Battle, board: Board | None, ruleset: Ruleset) -> tuple[dict, dict]:
    """R-BON-1..3 for a settled link on the board of its planet (and the home planet tiles of
    a participant without tiles there), not the whole map. The players compared
    are those owning tiles on that board: any other player has no tile on the contested
    planet and adds max(0, 0 - tiles) = 0 to a tile bonus (R-BON-2)."""
    planet = Tile.objects.values_list("planet_id", flat=True).get(pk=battle.tile_id) \
        if board is None else board.tile(battle.tile_id).planet
    board = limits_board(battle.campaign_id, planet, (battle.attacker_id, battle.defender_id),
                         board=board)
    return limits_of(battle, board, ruleset, sorted(board.players()))


def _chain_roll(battle: Battle, roll: bool, now: datetime, rnd: Round | None = None,
                boards: dict[int, Board] | None = None) -> ConquestRoll | None:
    """``rnd``: the round, locked by the caller (else read here). The roll reads the tile's
    planet only (R-CON-1..3, R-MRK-3 look no further). ``boards``: planet id ->
    its board as it stands, kept by a caller that rolls many links (``battles_close``): a
    planet is read once, and the board a roll leaves replaces it."""
    battle.chain_decision = "roll" if roll else "waive"
    battle.save(update_fields=["chain_decision"])
    made, board = None, None
    if roll:
        attack = chain_link_attack(battle)
        rnd = rnd or Round.objects.select_related("campaign").get(pk=battle.round_id)
        planet = battle.tile.planet_id
        board = boards.get(planet) if boards is not None else None
        if board is None:
            board = load_planet_board(battle.campaign_id, [planet])
        with round_dice(rnd) as dice:
            dice.current_object = f"battle:{battle.pk}"
            counter = dice.next_counter
            result = rules.chain_roll(board, attack, dice)
        board = result.board
        if boards is not None:
            boards[planet] = board
        r = result.roll
        made = ConquestRoll.objects.create(
            round_id=battle.round_id, attack_id=battle.attack_id, battle=battle,
            tile_id=battle.tile_id, player_id=battle.attacker_id, dice=list(r.dice),
            modifiers=[m.as_dict() for m in r.modifiers], total=r.total,
            threshold=r.threshold, threshold_rule=r.threshold_rule, k=r.k,
            success=r.success, immediate=True, counter=counter)
        if r.success:  # the tile and its markers change hands now (R-MRK-4)
            Tile.objects.filter(pk=battle.tile_id).update(owner_id=battle.attacker_id)
            bump(battle.campaign_id)  # no signals: campaigns/revision.py
    settle_next_link(battle, now, board)
    return made


def check_decision_open(battle: Battle) -> None:
    """409 unless the battle waits for a roll decision (R-CON-6). The API asks before it reads
    the input; ``chain_decide`` asks again under the battle's lock. Not while the campaign
    is paused."""
    check_not_paused(battle.campaign)
    if battle.chain_position >= battle.chain_length:
        raise Conflict(_("The last link of a chain rolls in the conquest phase (R-CON-6)."),
                       code="not_a_chain_link")
    if not needs_decision(battle):
        raise Conflict(_("No roll decision is open for this battle: it needs a confirmed won "
                         "result, and the decision is made once (R-CON-6)."), code="no_decision")


@transaction.atomic
def chain_decide(*, battle: Battle, player: Player, roll: bool,
                 now: datetime | None = None) -> ConquestRoll | None:
    """The winning attacker of a chain link that is not the last decides to roll or waive at
    once (R-CON-6). Returns the roll made, or None when waived."""
    rnd = lock_round(battle.round_id)  # the campaign first (campaigns.locking)
    battle = Battle.objects.select_for_update(of=("self", "attack")).select_related(
        "attack", "campaign", "tile").get(pk=battle.pk)
    rnd.campaign = battle.campaign
    if battle.attacker_id != player.pk:
        raise RuleViolation(_("Only the attacker of this battle decides."), code="R-CON-6")
    check_decision_open(battle)
    return _chain_roll(battle, roll, now or timezone.now(), rnd)


def default_decision(battle: Battle, now: datetime, rnd: Round | None = None,
                     boards: dict[int, Board] | None = None) -> None:
    """No decision within ``confirm_hours``: ``conquest_default`` decides (R-CON-6).
    ``rnd``, ``boards``: as for ``_chain_roll``."""
    _chain_roll(battle, rules.default_chain_roll(ruleset_of(battle.campaign)), now, rnd,
                boards)


def overdue_decisions(now: datetime):
    """Won chain links whose decision is overdue, across all rounds in the battles phase."""
    candidates = (Battle.objects.filter(round__phase=Round.Phase.BATTLES, chain_decision="",
                                        result_status=Battle.ResultStatus.CONFIRMED,
                                        outcome__in=Battle.WON,
                                        campaign__paused_at__isnull=True)
                  .select_related("campaign", "attack", "tile"))
    for battle in candidates:
        hours = ruleset_of(battle.campaign).confirm_hours
        if battle.chain_position < battle.chain_length and \
                battle.confirmed_at <= now - timedelta(hours=hours):
            yield battle


def chain_decisions_default_overdue(*, now: datetime) -> int:
    """The periodic job's part for R-CON-6: each overdue decision in its own locked step."""
    done = 0
    for battle in list(overdue_decisions(now)):
        with transaction.atomic():
            lock_round(battle.round_id)  # the campaign first (campaigns.locking)
            fresh = Battle.objects.select_for_update(of=("self", "attack", "tile")).select_related(
                "attack", "campaign", "tile").get(pk=battle.pk)
            if needs_decision(fresh) and fresh.campaign.paused_at is None:
                default_decision(fresh, now)
                done += 1
    return done


def battles_close(*, round: Round, now: datetime) -> None:  # noqa: A002
    """The battles deadline, not extended for chains (R-CON-6, R-RND-3): chain by chain in
    link order, an open roll decision takes ``conquest_default`` at once (its roll is made
    now) and every later link not yet played takes ``unplayed_outcome``; each link's defender
    is settled by the link before it, before the link itself is judged. A reported result
    unanswered now counts as confirmed (R-BAT-3)."""
    ruleset = ruleset_of(round.campaign)
    outcome = rules.settle_outcome(ruleset, None)
    # each planet read once: only a roll changes tiles here, and it keeps its board
    boards: dict[int, Board] = {}
    battles = (Battle.objects.select_for_update().filter(round=round)
               .select_related("attack", "campaign", "tile").order_by("tile_id", "chain_position"))
    for battle in battles:
        if battle.chain_position > 1:  # settled by the link before it in this loop
            battle.refresh_from_db()
        if battle.status == Battle.Status.DONE and not needs_decision(battle):
            continue
        if battle.status != Battle.Status.DONE:
            if battle.result_status == Battle.ResultStatus.REPORTED:  # played (R-BAT-3)
                _confirm_default(battle, battle.outcome, now,
                                 "R-BAT-3: report unanswered at the battles deadline")
            elif battle.result_status != Battle.ResultStatus.CONFIRMED:
                _confirm_default(battle, outcome, now,
                                 f"R-RND-3: unplayed ({ruleset.unplayed_outcome})")
            else:
                Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.DONE)
                bump(battle.campaign_id)  # no signals: campaigns/revision.py
        if needs_decision(battle):
            default_decision(battle, now, round, boards)
        elif battle.chain_position < battle.chain_length:
            settle_next_link(battle, now)
