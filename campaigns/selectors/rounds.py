"""Reads about rounds: the dice log as a caller may see it, and the verifier (R-DICE-3)."""

from django.db.models import Q

from campaigns.models import DiceRoll, Round
from rules.dice import verify

PUBLIC_BEFORE_CLOSE = ("conquest",)  # conquest rolls are public the moment they are made


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


def verify_round(rnd: Round):
    """Recompute every logged draw from the revealed seed (R-DICE-3)."""
    log = DiceRoll.objects.filter(round=rnd).order_by("counter").values(
        "counter", "purpose", "sides", "faces")
    return verify(bytes(rnd.server_seed), log, rnd.campaign_id, rnd.number)
