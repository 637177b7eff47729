"""What the campaign core does at phase changes (R-RND-1)."""

from django.db.models import Count

from campaigns.models import Player, Round, RoundStandings
from campaigns.phases import on_phase_start
from campaigns.selectors.standings import live_standings
from rules.economy import income
from rules.ruleset import Ruleset


@on_phase_start("closed")
def close_round(rnd: Round, now) -> None:
    """R-RND-1 step 6: reveal the seed (R-DICE-3), pay income (R-ECO-1), freeze standings
    (R-VP-2). Idempotent: a round whose standings are frozen is left as it is."""
    if RoundStandings.objects.filter(round=rnd).exists():
        return
    ruleset = Ruleset.from_dict(rnd.campaign.ruleset)
    players = Player.objects.filter(campaign=rnd.campaign).annotate(owned=Count("tiles"))
    for player in players:
        player.requisition += income(ruleset, player.owned)
    Player.objects.bulk_update(players, ["requisition"])
    rnd.seed_revealed = True
    rnd.closed_at = now
    rnd.save(update_fields=["seed_revealed", "closed_at"])
    RoundStandings.objects.create(round=rnd, rows=live_standings(rnd.campaign))
