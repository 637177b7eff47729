"""The rounds list at league scale: every round of the campaign as its finished
JSON, kept in memory (``campaigns.cache``) and paged per request like the battles list.

Rounds send no revision bump, so the key also holds the state of the campaign's latest round,
read with the campaign (``CAMPAIGN_ROWS``): only the latest round changes (an older one is
closed for good, R-RND-2), and every field the list shows of it is in that state. The list is
the same for every reader (``attention_error`` shows only in a round's detail, to admins)."""

from django.db.models import BooleanField, DateTimeField, DurationField
from django.db.models.expressions import RawSQL
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from api.serializers.rounds import RoundSerializer
from campaigns.cache import cached
from campaigns.models import Campaign
from campaigns.selectors.campaigns import CURRENT, LATEST_ROUND, with_current_round

# what the list shows of a round beyond with_current_round's number, phase and deadline
SHOWN = {"phase_started_at": DateTimeField, "closed_at": DateTimeField,
         "attention_at": DateTimeField, "deadline_left": DurationField,
         "seed_revealed": BooleanField}
CAMPAIGN_ROWS = with_current_round(Campaign.objects.all()).annotate(**{
    f"latest_{name}": RawSQL(LATEST_ROUND.format(name), (), output_field=field())
    for name, field in SHOWN.items()})


def round_rows(campaign: Campaign) -> list[bytes]:
    """Every round of ``campaign`` by number, as JSON bytes; ``campaign`` read through
    ``CAMPAIGN_ROWS`` with the request."""
    state = repr([getattr(campaign, f"current_{name}") for name in CURRENT]
                 + [getattr(campaign, f"latest_{name}") for name in SHOWN])

    def compute() -> list[bytes]:
        serializer, render = RoundSerializer(), JSONRenderer().render
        return [render(serializer.to_representation(rnd))
                for rnd in campaign.rounds.order_by("number")]

    # the answer's times are written in the current zone (UTC in the API)
    return cached("api-rounds", campaign, compute, timezone.get_current_timezone_name(),
                  state=state)
