"""The ``fleets`` phase job (R-RND-1 step 2): load the campaign's fleets, resolve the phase with
the pure engine (``rules.fleet_phase``) on the round's logged dice stream (R-DICE-2/3), and
store everything in one transaction.

Idempotent: ``round_run_phase_job`` holds the round's row lock, and the phase's
``FleetPhase`` row (one per round) marks it resolved - a second run, or a retried job, finds
it and changes nothing; two runs at once serialise on the lock (and the unique row)."""

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.collector import collector_paused
from campaigns.errors import Conflict
from campaigns.locking import lock_round
from campaigns.models import Round
from campaigns.services.dice import round_dice
from fleets.models import FleetPhase
from fleets.phase_state import load_phase
from fleets.phase_store import store_phase
from rules.dice import Dice
from rules.fleet_phase import resolve_fleet_phase

DiceFactory = Callable[[Round], AbstractContextManager[Dice]]

# The dice the job uses: the round's provably fair, logged stream. Tests swap in scripted dice.
dice_factory: DiceFactory = round_dice


@transaction.atomic
def fleet_phase_resolve(*, round: Round, now: datetime | None = None,  # noqa: A002
                        dice: DiceFactory | None = None) -> FleetPhase:
    """Resolve the round's fleet phase once (R-FLT-6, R-INT, R-SEA, R-INT-6, R-NAV, R-SPC);
    returns its record. The round must be in ``fleets``."""
    now = now or timezone.now()
    rnd = lock_round(round.pk)  # the campaign first (campaigns.locking)
    done = FleetPhase.objects.filter(round=rnd).first()
    if done is not None:
        return done
    if rnd.phase != Round.Phase.FLEETS:
        raise Conflict(_("Round %(number)s is in the %(phase)s phase, not fleets.")
                       % {"number": rnd.number, "phase": Round.Phase(rnd.phase).label})
    record = FleetPhase.objects.create(round=rnd, resolved_at=now)  # claims the phase
    with collector_paused():  # what _resolve builds dies with it
        _resolve(rnd, record, now, dice or dice_factory)
    return record


def _resolve(rnd: Round, record: FleetPhase, now: datetime, dice: DiceFactory) -> None:
    """Load, resolve on the round's dice, store; what is built here is freed on return."""
    loaded = load_phase(rnd)
    with dice(rnd) as stream:
        first = stream.next_counter
        result = resolve_fleet_phase(stream, loaded.phase,
                                     label=lambda text: _label(stream, text))
        count = stream.next_counter - first
    store_phase(rnd, loaded, result, now)
    record.player_order = list(result.player_order)
    record.events = result.events
    record.first_counter, record.dice_count = first, count
    record.save(update_fields=["player_order", "events", "first_counter", "dice_count"])


def _label(stream: Dice, text: str) -> None:
    """The object the next draws belong to in the dice log (R-DICE-3)."""
    stream.current_object = text
