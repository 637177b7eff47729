"""Army lists (R-ARM-1..3): submit or replace a parsed list, reveal, and who sees which list.

Parsing lives in ``battles.rosters`` (roster files, JSON entries) and ``battles.list_text``
(pasted text); this module stores what they read, the list's settings with its units.

[decision] When lists are open and when they are revealed:
- lists are submitted in the ``lists`` phase. A chain link whose defender is settled during
  ``battles`` (R-ATK-5) gets its own lists window of ``phase_hours["lists"]`` from the moment
  its defender is settled;
- a battle's lists are revealed (R-ARM-3) when both participants' lists are in, or when its
  lists window ends; from then on they can no longer be replaced. A neutral garrison has one
  list and no opponent to hide it from: it stays replaceable until the window ends.
  ``Battle.lists_revealed_at`` records when; the window is also checked by the clock, so a list
  never stays hidden past its deadline while waiting for the periodic job."""

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.messages import phase_of
from battles.models import ArmyList, Battle
from battles.rosters import ListOverLimit, ParsedList, check_limit
from battles.selectors.lists import (
    late_deadline,
    late_link,
    lists_revealed,
    participants,
)
from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_round
from campaigns.models import Player, Round
from campaigns.pausing import check_not_paused
from campaigns.revision import bump


def check_list_phase(battle: Battle, rnd: Round, now: datetime) -> None:
    """409 unless the battle takes lists now (module docstring). The API calls it before it
    reads the upload. Not while the campaign is paused."""
    check_not_paused(battle.campaign)
    if battle.status == Battle.Status.PENDING:
        raise Conflict(_("This chain link's defender is not settled yet (R-ATK-5)."),
                       code="battle_pending")
    if rnd.phase != Round.Phase.LISTS and not late_link(battle, rnd):
        raise Conflict(_("Round %(number)s is in the %(phase)s phase; army lists are "
                         "submitted in the lists phase.") % phase_of(rnd))
    if battle.status != Battle.Status.OPEN or not battle.point_limits:
        raise Conflict(_("This battle is decided without a game; it takes no army lists."),
                       code="no_game")
    if lists_revealed(battle, rnd, now):
        raise Conflict(_("The lists of this battle are revealed; they can no longer be replaced "
                         "(R-ARM-3)."), code="lists_revealed")


def check_participant(battle: Battle, player: Player | None) -> Player:
    if player is None or player.pk not in participants(battle):
        raise PermissionDenied(_("Only the battle's participants submit army lists."))
    return player


def _lock(battle: Battle) -> tuple[Round, Battle]:
    rnd = lock_round(battle.round_id)  # the campaign first (campaigns.locking)
    return rnd, Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(
        pk=battle.pk)


@transaction.atomic
def army_list_submit(*, battle: Battle, player: Player, parsed: ParsedList,
                     now: datetime | None = None) -> ArmyList:
    """Store (or replace) a participant's list (R-ARM-1, R-ARM-2). A list over the limit is
    refused naming the limit and the excess; when both lists are in they are revealed
    (R-ARM-3)."""
    now = now or timezone.now()
    rnd, battle = _lock(battle)
    check_participant(battle, player)
    check_list_phase(battle, rnd, now)
    limit = battle.point_limits.get(str(player.pk))
    if limit is None:
        raise Conflict(_("This battle has no point limit for you yet."), code="no_limit")
    try:
        check_limit(parsed, limit)
    except ListOverLimit as exc:
        raise RuleViolation(_("The list totals %(total)s points; your limit is %(limit)s "
                              "points, %(excess)s over (R-ARM-1).")
                            % {"total": exc.total, "limit": exc.limit, "excess": exc.excess},
                            code="R-ARM-1", field="total") from None
    army_list, _created = ArmyList.objects.update_or_create(
        battle=battle, player=player,
        defaults={"name": parsed.name, "faction": parsed.faction,
                  "entries": [{"name": e.name, "points": e.points} for e in parsed.entries],
                  "settings": [{"name": s.name, "value": s.value} for s in parsed.settings],
                  "total": parsed.total, "roster_total": parsed.roster_total,
                  "warnings": list(parsed.warnings), "source": parsed.source,
                  "submitted_at": now})
    if not battle.neutral and battle.defender_id and \
            ArmyList.objects.filter(battle=battle).count() == 2:
        _reveal(Battle.objects.filter(pk=battle.pk), now)
    return army_list


def _reveal(battles, now: datetime) -> int:
    revealed = battles.filter(lists_revealed_at__isnull=True).update(lists_revealed_at=now)
    if revealed:
        bump(battles.values("campaign_id")[:1])  # no signals: campaigns/revision.py
    return revealed


def lists_reveal(*, round: Round, now: datetime) -> int:  # noqa: A002
    """The lists deadline (R-ARM-3): every settled battle of the round is revealed. Pending
    chain links get their own window later. Idempotent."""
    return _reveal(Battle.objects.filter(round=round).exclude(status=Battle.Status.PENDING), now)


def lists_reveal_late(*, now: datetime) -> int:
    """The periodic job's part: late chain links whose lists window ended are revealed."""
    candidates = (Battle.objects.filter(round__phase=Round.Phase.BATTLES, chain_position__gt=1,
                                        lists_revealed_at__isnull=True,
                                        settled_at__isnull=False,
                                        campaign__paused_at__isnull=True)
                  .select_related("campaign"))
    due = [b.pk for b in candidates if late_deadline(b) <= now]
    return _reveal(Battle.objects.filter(pk__in=due), now) if due else 0


