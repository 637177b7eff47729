"""The naval odds preview (R-ODDS-1) as the API and the fleets page run it: bounded work and
bounded concurrency.

[decision] Synchronous rather than a Celery task the client polls: the answer stays one
request and one 200 schema (a generated client needs no polling loop and no result store),
and it works the same without a broker, so nothing depends on Redis. Each preview stops as
``rules.odds.preview_stop`` says: at the battles asked for, or from 1,000 battles on once
every interval is within ``rules.odds.TARGET_HALF_WIDTH`` (1 percentage point) or
``rules.odds.WORK_BUDGET`` is spent; the result says which. No wall clock (R-ODDS-1): the
answer for a seed never depends on the server's load, and the work budget bounds the cost.

[decision] Concurrency is bounded by rows of ``OddsPreviewSlot`` (unique slot numbers, so it
holds across every web process and needs no Redis): at most ``USER_PREVIEWS`` previews per
user and ``SITE_PREVIEWS`` on the whole site, fewer than the web workers (3 in the Dockerfile
and docker-compose), so a worker always stays free for other pages. A preview over either
limit is refused at once (``PreviewsBusy``, 429 in the API) instead of queueing."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import DomainError
from fleets.models import OddsPreviewSlot
from rules.odds import TARGET_HALF_WIDTH, WORK_BUDGET, OddsResult, naval_odds

USER_PREVIEWS = 1  # previews in flight per user
SITE_PREVIEWS = 2  # previews in flight on the whole site (fewer than the web workers)
STALE_AFTER = timedelta(minutes=2)  # a slot this old belongs to a request that died
RETRY_AFTER = 3  # seconds: a running preview spends its work budget in about 1-2 s
# One request's work stays bounded: at most this many ships a side (the API and the fleets page)
MAX_PREVIEW_SHIPS = 12


class PreviewsBusy(DomainError):
    """Too many previews in flight (the user's or the site's); ``retry_after`` in seconds."""

    status = 429
    default_code = "throttled"
    retry_after = RETRY_AFTER


def odds_preview_run(*, user, engine: str, attacker: dict, defender: dict,
                     simulations: int, seed: int | None = None, max_rounds: int = 12,
                     start_distance_cm: int = 30) -> OddsResult:
    """R-ODDS-1: the preview of a battle between two fleets in the fleet shape, with bounded
    work (``rules.odds.naval_odds``'s work budget and precision, no wall clock); raises
    ``PreviewsBusy`` when ``user`` or the site has too many previews running, ValueError for
    bad input (naming the field). ``max_rounds`` and ``start_distance_cm`` are a campaign's
    ruleset values (the fleets page); the API, which knows no campaign, keeps the defaults."""
    slot = _slot_take(user)
    try:
        return naval_odds(engine, attacker, defender, simulations=simulations, seed=seed,
                          max_rounds=max_rounds, start_distance_cm=start_distance_cm,
                          budget=WORK_BUDGET, precision=TARGET_HALF_WIDTH)
    finally:
        with transaction.atomic():
            OddsPreviewSlot.objects.filter(pk=slot.pk).delete()


def _slot_take(user) -> OddsPreviewSlot:
    """A free (site slot, user slot) pair, or ``PreviewsBusy``. Unique constraints decide
    races between processes; stale rows are taken over."""
    now = timezone.now()
    with transaction.atomic():
        OddsPreviewSlot.objects.filter(started_at__lt=now - STALE_AFTER).delete()
        rows = list(OddsPreviewSlot.objects.values_list("slot", "user_id", "user_slot"))
        mine = {user_slot for _slot, owner, user_slot in rows if owner == user.pk}
        free_user = [s for s in range(USER_PREVIEWS) if s not in mine]
        if not free_user:
            raise _user_busy()
        taken = {slot for slot, _owner, _user_slot in rows}
        for slot in (s for s in range(SITE_PREVIEWS) if s not in taken):
            try:
                with transaction.atomic():
                    return OddsPreviewSlot.objects.create(slot=slot, user=user,
                                                          user_slot=free_user[0],
                                                          started_at=now)
            except IntegrityError:  # taken meanwhile by another process
                if OddsPreviewSlot.objects.filter(user=user, user_slot=free_user[0]).exists():
                    raise _user_busy() from None
    raise PreviewsBusy(_("At most %(limit)d naval odds previews may run at once on this "
                         "server (R-ODDS-1); try again in a few seconds.")
                       % {"limit": SITE_PREVIEWS})


def _user_busy() -> PreviewsBusy:
    return PreviewsBusy(_("At most %(limit)d naval odds preview per user may run at once "
                          "(R-ODDS-1); try again when yours has finished.")
                        % {"limit": USER_PREVIEWS})
