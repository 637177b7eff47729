"""What the battles app does at phase changes (R-RND-1): battles from declarations when
``declare`` ends (R-BAT-1), the orbital re-check when ``fleets`` ends (R-ATK-3), point limits
when ``lists`` opens (R-BON), lists revealed when it ends (R-ARM-3); calendar deadlines and
e-mails for every waiting phase. Each runs inside the advancing transaction with the round row
locked and is idempotent. The periodic job confirms unanswered reports (R-BAT-3), reveals late
chain links' lists, sends deadline reminders and retries unsent mail."""

from battles import feeds, lists, notifications, reporting
from battles.creation import battles_sync
from battles.results import battles_compute_limits
from campaigns.models import Round
from campaigns.phases import WAITING, on_phase_end, on_phase_start, on_tick
from campaigns.selectors.board import load_board
from campaigns.services.attacks import attacks_cancel_uncovered_orbital


@on_phase_end("declare")
def create_battles(rnd: Round, now) -> None:
    """R-BAT-1, R-ATK-4, R-ATK-5: a battle (or chain of battles) per attacked tile."""
    battles_sync(round=rnd, now=now)


@on_phase_end("fleets")
def recheck_orbital_attacks(rnd: Round, now) -> None:
    """R-ATK-3: cancel orbital declarations no longer covered (latest first), then drop their
    battles and renumber the chains they were in."""
    attacks_cancel_uncovered_orbital(round=rnd)
    battles_sync(round=rnd, now=now)


@on_phase_start("lists")
def compute_point_limits(rnd: Round, now) -> None:
    """R-BON-1..3, R-MRK-2: limits for every battle whose defender is settled."""
    battles_compute_limits(round=rnd, board=load_board(rnd.campaign))


@on_phase_end("lists")
def reveal_lists(rnd: Round, now) -> None:
    """R-ARM-3: at the lists deadline every settled battle's lists are revealed."""
    lists.lists_reveal_round(rnd, now)


def waiting_phase_opened(rnd: Round, now) -> None:
    """R-RND-1: publish the deadline in the calendar feeds and tell the players."""
    if rnd.phase_deadline is not None:
        feeds.deadline_record(rnd, rnd.phase_deadline, now)
    notifications.phase_opened(rnd, now)


def waiting_phase_ended(rnd: Round, now) -> None:
    feeds.phase_ended(rnd, now)


for _phase in sorted(WAITING):
    on_phase_start(_phase)(waiting_phase_opened)
    on_phase_end(_phase)(waiting_phase_ended)


@on_tick
def unanswered_reports(now) -> None:
    """R-BAT-3: a report not answered within ``confirm_hours`` counts as confirmed."""
    reporting.confirm_overdue_reports(now)


@on_tick
def late_lists(now) -> None:
    """R-ARM-3 for chain links settled during ``battles``: their own lists window ends."""
    lists.reveal_late_lists(now)


@on_tick
def reminders(now) -> None:
    notifications.deadline_reminders(now)
    notifications.resend_unsent(now)
