"""What the battles app does at phase changes (R-RND-1): battles from declarations when
``declare`` ends (R-BAT-1), the orbital re-check when ``fleets`` ends (R-ATK-3), point limits
when ``lists`` opens (R-BON). Each runs inside the advancing transaction with the round row
locked and is idempotent."""

from battles.creation import battles_sync
from battles.results import battles_compute_limits
from campaigns.models import Round
from campaigns.phases import on_phase_end, on_phase_start
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
