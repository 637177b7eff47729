"""Scheduling a battle (R-BAT-2): a participant proposes a date, time and place; the other
accepts or proposes another (which supersedes the first). An accepted date is the battle's
``scheduled_at`` / ``place``; every later change bumps ``calendar_sequence`` so subscribed
calendars take it (RFC 5545 SEQUENCE).

[decision] Dates are agreed from the ``lists`` phase on (players plan ahead while lists are
written) until a result is reported; a neutral garrison has nobody to agree with."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.messages import phase_of
from battles.models import Battle, NotificationKind, ScheduleProposal
from battles.services import campaign_events, notifications
from battles.services.lists import check_participant
from campaigns.errors import Conflict, RuleViolation
from campaigns.locking import lock_round
from campaigns.mail import name_of
from campaigns.models import Player, Round
from campaigns.pausing import check_not_paused

MAX_PLACE = 200
MAX_AHEAD = timedelta(days=366)  # [decision] a date is agreed at most a year ahead
SCHEDULING_PHASES = (Round.Phase.LISTS, Round.Phase.BATTLES)


def check_schedule_state(battle: Battle, rnd: Round) -> None:
    """409 unless the battle's date can be agreed now (module docstring); not while the
    campaign is paused."""
    check_not_paused(battle.campaign)
    if rnd.phase not in SCHEDULING_PHASES:
        raise Conflict(_("Round %(number)s is in the %(phase)s phase; battles are scheduled "
                         "in the lists and battles phases.") % phase_of(rnd))
    if battle.status == Battle.Status.PENDING:
        raise Conflict(_("This chain link's defender is not settled yet (R-ATK-5)."),
                       code="battle_pending")
    if battle.status != Battle.Status.OPEN or battle.result_status:
        raise Conflict(_("This battle has a result already."), code="result_reported")
    if battle.defender_id is None:
        raise Conflict(_("A battle against a neutral garrison has nobody to agree a date with."),
                       code="no_opponent")


def open_proposal(battle: Battle) -> ScheduleProposal | None:
    return battle.proposals.filter(status=ScheduleProposal.Status.PROPOSED).first()


def _lock(battle: Battle) -> tuple[Round, Battle]:
    rnd = lock_round(battle.round_id)  # the campaign first (campaigns.locking)
    return rnd, Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(
        pk=battle.pk)


def _check_date(proposed_at: datetime, now: datetime) -> None:
    if not isinstance(proposed_at, datetime) or timezone.is_naive(proposed_at):
        raise RuleViolation(_("Give the date and time with a time zone."), code="R-BAT-2",
                            field="proposed_at")
    if not now < proposed_at <= now + MAX_AHEAD:
        raise RuleViolation(_("The proposed date must be in the future, at most a year ahead."),
                            code="R-BAT-2", field="proposed_at")


def _clean_place(place: str) -> str:
    place = " ".join(place.split()) if isinstance(place, str) else ""
    if not place or len(place) > MAX_PLACE:
        raise RuleViolation(_("Name the place (at most %(most)s characters).")
                            % {"most": MAX_PLACE}, code="R-BAT-2", field="place")
    return place


@transaction.atomic
def schedule_propose(*, battle: Battle, player: Player, proposed_at: datetime, place: str,
                     now: datetime | None = None) -> ScheduleProposal:
    """A participant proposes a date and place (R-BAT-2); an open proposal of either side is
    superseded (a counter-proposal). The opponent is told by e-mail."""
    now = now or timezone.now()
    rnd, battle = _lock(battle)
    check_participant(battle, player)
    check_schedule_state(battle, rnd)
    _check_date(proposed_at, now)
    place = _clean_place(place)
    battle.proposals.filter(status=ScheduleProposal.Status.PROPOSED).update(
        status=ScheduleProposal.Status.SUPERSEDED)
    proposal = ScheduleProposal.objects.create(battle=battle, proposed_by=player,
                                               proposed_at=proposed_at, place=place,
                                               created_at=now)
    _tell_opponent(battle, proposal, now)
    return proposal


@transaction.atomic
def schedule_accept(*, battle: Battle, player: Player, proposal_id: int | None = None,
                    now: datetime | None = None) -> Battle:
    """The other participant accepts the open proposal (R-BAT-2): it becomes the battle's
    date and place. ``proposal_id``, if given, must name the open proposal (409 when it was
    superseded meanwhile)."""
    now = now or timezone.now()
    rnd, battle = _lock(battle)
    check_participant(battle, player)
    check_schedule_state(battle, rnd)
    proposal = open_proposal(battle)
    if proposal is None:
        raise Conflict(_("There is no open date proposal to accept."), code="no_proposal")
    if proposal_id is not None and proposal.pk != proposal_id:
        raise Conflict(_("That proposal was superseded; see the current one."),
                       code="proposal_superseded")
    if proposal.proposed_by_id == player.pk:
        raise RuleViolation(_("The other participant accepts a proposal (R-BAT-2)."),
                            code="R-BAT-2")
    _check_date(proposal.proposed_at, now)
    proposal.status = ScheduleProposal.Status.ACCEPTED
    proposal.save(update_fields=["status"])
    _set_date(battle, proposal.proposed_at, proposal.place, now)
    campaign_events.date_agreed_emit(battle=battle, now=now)
    return battle


def _set_date(battle: Battle, at: datetime, place: str, now: datetime) -> None:
    """A changed date or place bumps the calendar sequence (the first date starts at 0)."""
    if (battle.scheduled_at, battle.place) == (at, place):
        return
    if battle.scheduled_at is not None or battle.place:
        battle.calendar_sequence += 1
    battle.scheduled_at, battle.place, battle.schedule_changed_at = at, place, now
    battle.save(update_fields=["scheduled_at", "place", "schedule_changed_at",
                               "calendar_sequence"])


def _tell_opponent(battle: Battle, proposal: ScheduleProposal, now: datetime) -> None:
    by = Player.objects.select_related("user").get(pk=proposal.proposed_by_id)
    other = battle.defender_id if by.pk == battle.attacker_id else battle.attacker_id
    notifications.notify_players(
        kind=NotificationKind.DATE_PROPOSED, campaign=battle.campaign, players=[other],
        event=f"proposal:{proposal.pk}", now=now,
        context={**notifications.battle_context(battle), "by": name_of(by.user),
                 "at": proposal.proposed_at, "place": proposal.place})
