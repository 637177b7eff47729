"""Reads about rounds: the current round, phase deadlines, the dice log as a caller may see
it, and the verifier (R-DICE-3)."""

from datetime import datetime

from django.db.models import Q

from campaigns.locking import lock_current_round
from campaigns.models import Campaign, DiceRoll, Round
from campaigns.selectors.campaigns import ruleset_of
from campaigns.zones import zone
from rules.deadlines import deadline_after
from rules.dice import verify
from rules.rounds import WAITING

PUBLIC_BEFORE_CLOSE = ("conquest",)  # conquest rolls are public the moment they are made


def current_round(campaign: Campaign | int, *, lock: bool = False) -> Round | None:
    """The campaign's highest-numbered round (with its campaign), or None before the start;
    ``lock`` takes the campaign row's lock, then the round's, for a write
    (``campaigns.locking``)."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    if lock:
        return lock_current_round(campaign_id)[1]
    rounds = Round.objects.filter(campaign_id=campaign_id).select_related("campaign")
    return rounds.order_by("-number").first()


def phase_hours(campaign: Campaign, phase: str) -> int | None:
    """Hours a waiting phase gets before its deadline (R-RND-1: the ruleset's ``phase_hours``,
    its defaults filled in); None for a phase that does not wait."""
    if phase not in WAITING:
        return None
    return ruleset_of(campaign).phase_hours.for_phase(phase)


def phase_deadline(campaign: Campaign, phase: str, opened: datetime) -> datetime | None:
    """When ``phase``, opened at ``opened``, reaches its deadline (R-RND-1): ``phase_hours``
    later or at the ruleset's weekly deadline in the campaign's zone; None if it
    does not wait."""
    return deadline_after(ruleset_of(campaign), phase, opened, zone(campaign=campaign).key)


def visible_rolls(rnd: Round, *, full: bool):
    """The round's logged draws: all of them once the seed is revealed (or for the admin);
    before that only those whose outcome is public anyway, so no fleet draw hints at hidden
    fleets."""
    rolls = DiceRoll.objects.filter(round=rnd).order_by("counter")
    if full or rnd.seed_revealed:
        return rolls
    public = Q()
    for prefix in PUBLIC_BEFORE_CLOSE:
        public |= Q(purpose__startswith=prefix)
    return rolls.filter(public)


def revealed_seed(rnd: Round) -> str | None:
    """The seed as lowercase hex, only after the round closed (R-DICE-2)."""
    return bytes(rnd.server_seed).hex() if rnd.seed_revealed else None


def dice_campaign_id(rnd: Round) -> int:
    """The campaign id in the round's draw messages (R-DICE-2): its own, but for a round
    imported closed from an archive (``league.services.archive_import``), whose draws were
    made in the campaign it was exported from."""
    return rnd.dice_campaign or rnd.campaign_id


def verify_round(rnd: Round):
    """Recompute every logged draw from the revealed seed (R-DICE-3)."""
    log = DiceRoll.objects.filter(round=rnd).order_by("counter").values(
        "counter", "purpose", "sides", "faces")
    return verify(bytes(rnd.server_seed), log, dice_campaign_id(rnd), rnd.number)
