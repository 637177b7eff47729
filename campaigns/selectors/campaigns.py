"""Reads of campaigns and players for the API and the pages."""

import json
from functools import lru_cache

from django.db.models import CharField, DateTimeField, IntegerField, QuerySet
from django.db.models.expressions import RawSQL

from campaigns import access
from campaigns.models import Campaign, Player, Round
from rules.ruleset import DEFAULT_RULESET, Ruleset, RulesetError

# as SQL, since compiling three ORM subqueries cost more than a query of its own
LATEST_ROUND = (f"(SELECT r.{{}} FROM {Round._meta.db_table} r WHERE r.campaign_id = "
                f"{Campaign._meta.db_table}.id ORDER BY r.number DESC LIMIT 1)")
CURRENT = {"number": IntegerField, "phase": CharField, "phase_deadline": DateTimeField}


def with_current_round(campaigns: QuerySet) -> QuerySet:
    """Annotate each campaign with its highest-numbered round (``current_*``, or None)."""
    return campaigns.annotate(**{
        f"current_{name}": RawSQL(LATEST_ROUND.format(name), (), output_field=field())
        for name, field in CURRENT.items()})


def round_summary(campaign: Campaign) -> dict | None:
    """``{"number","phase","phase_deadline"}`` of the campaign's current round, or None."""
    if hasattr(campaign, "current_number"):
        if campaign.current_number is None:
            return None
        return {"number": campaign.current_number, "phase": campaign.current_phase,
                "phase_deadline": campaign.current_phase_deadline}
    return (Round.objects.filter(campaign=campaign).order_by("-number")
            .values("number", "phase", "phase_deadline").first())


def campaign_list(user) -> QuerySet:
    """The campaigns ``user`` may see (R-SEC-1), newest first, with their current round."""
    return with_current_round(access.visible_campaigns(user)).order_by("-created_at", "-id")


def ruleset_of(campaign: Campaign) -> Ruleset:
    """The campaign's ruleset ("Ruleset keys"), the one way to read it: missing keys take their
    defaults; a stored one that no longer validates (keys of an older version) counts as the
    defaults rather than failing every later read and write."""
    return _valid_or_default(campaign.ruleset)


@lru_cache(maxsize=128)
def ruleset_of_text(text: str) -> Ruleset:
    """``ruleset_of`` for a campaign's ruleset read as JSON text, validated once per text
    (an attack declaration reads it under its lock). Never change the result."""
    return _valid_or_default(json.loads(text))


def _valid_or_default(data: dict | None) -> Ruleset:
    try:
        return Ruleset.from_dict(data)
    except RulesetError:
        return DEFAULT_RULESET


def player_list(campaign: Campaign) -> QuerySet:
    return (Player.objects.filter(campaign=campaign).select_related("user__profile")
            .order_by("id"))
