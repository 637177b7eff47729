"""The round machine's table (R-RND-1..3): what runs when a phase starts, the job of an
automatic phase, what runs when it ends, and what the periodic job runs every minute.

Read top to bottom, this is the whole round. Every step is a service called as
``step(round=rnd, now=now)`` inside the advancing transaction with the round row locked, in
the order listed; each is idempotent (a retried job may see its own earlier work). The
every-minute steps are called as ``step(now=now)`` after due phases have advanced."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from battles.selectors.conquest import rolls_due
from battles.services.battles import battles_recheck_orbital, battles_sync
from battles.services.campaign_events import battles_created_emit
from battles.services.chains import battles_close, chain_decisions_default_overdue
from battles.services.conquest import conquest_resolve
from battles.services.feeds import calendar_deadline_close, calendar_deadline_open
from battles.services.limits import battles_compute_limits
from battles.services.lists import lists_reveal, lists_reveal_late
from battles.services.notifications import (
    notifications_phase_opened,
    notifications_resend,
    reminders_send,
)
from battles.services.reliability import phase_inputs_record  # first end step
from battles.services.results import results_confirm_overdue
from campaigns.services.accounts import sessions_clear_expired, signups_clear_expired
from campaigns.services.outbox import mail_outbox_send
from campaigns.services.webhooks import webhook_deliveries_retry
from fleets.services.phase import fleet_phase_resolve
from league.services.closing import round_close
from league.services.round_events import (
    deadline_soon_emit,
    naval_battles_emit,
    phase_opened_emit,
    round_closed_emit,
)


class Step(Protocol):
    def __call__(self, *, round, now) -> object: ...  # noqa: A002


@dataclass(frozen=True)
class Phase:
    start: tuple[Step, ...] = ()  # on entering the phase, after its deadline is set
    job: tuple[Step, ...] = ()  # an automatic phase's background work (R-RND-2)
    end: tuple[Step, ...] = ()  # on leaving the phase
    # None: the phase always opens. Else asked on entering: False passes the phase over (no
    # start steps, no deadline; its end steps still run) with a note in the audit log.
    due: Callable[..., bool] | None = None


# A waiting phase publishes its deadline and tells the players when it opens (R-RND-1), and
# ends its calendar entry when it closes early.
OPENED = (calendar_deadline_open, notifications_phase_opened,
          phase_opened_emit)  # webhooks and the feed
CLOSED = (calendar_deadline_close,)

TABLE: dict[str, Phase] = {
    "declare": Phase(
        start=OPENED,
        end=(phase_inputs_record,  # the reliability record, before any default
             battles_sync, *CLOSED),  # R-BAT-1, R-ATK-4/5: a battle or chain per tile
    ),
    "fleets": Phase(
        job=(fleet_phase_resolve,),  # R-FLT-6, R-INT, R-SEA, R-NAV, R-SPC
        end=(battles_recheck_orbital,  # R-ATK-3
             naval_battles_emit, battles_created_emit),  # now public/final
    ),
    "lists": Phase(
        start=(battles_compute_limits, *OPENED),  # R-BON-1..3, R-MRK-2
        end=(phase_inputs_record, lists_reveal, *CLOSED),  # R-ARM-3
    ),
    "battles": Phase(
        start=OPENED,
        end=(phase_inputs_record,
             battles_close, *CLOSED),  # R-RND-3, R-CON-6: unplayed battles, open decisions
    ),
    "conquest": Phase(
        start=OPENED,
        end=(phase_inputs_record,
             conquest_resolve, *CLOSED),  # R-RND-3, R-CON-4: every roll is made
        due=rolls_due,  # [reading R-RND-1, R-CON-4]: nobody to wait for, no phase to open
    ),
    "closed": Phase(
        start=(round_close, round_closed_emit),  # R-DICE-3, R-ECO-1, R-VP-2; webhooks
    ),
}

EVERY_MINUTE = (
    chain_decisions_default_overdue,  # R-CON-6: a decision not made in confirm_hours
    results_confirm_overdue,  # R-BAT-3: a report unanswered in confirm_hours
    lists_reveal_late,  # R-ARM-3 for chain links settled during battles
    reminders_send,  # deadline reminders
    notifications_resend,  # mail that could not be sent
    mail_outbox_send,  # the mail outbox: retries, and mail a lost task never sent
    deadline_soon_emit,  # the 24-hour webhook event
    webhook_deliveries_retry,  # due webhook retries
    sessions_clear_expired,  # expired sessions, in bounded batches
    signups_clear_expired,  # sign-ups whose mailed link expired
)

