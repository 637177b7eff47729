"""Closing a round (R-RND-1 step 6)."""

from datetime import datetime

from django.db.models import Count

from campaigns.models import Player, Round, RoundStandings
from campaigns.revision import bump
from campaigns.selectors.campaigns import ruleset_of
from league.selectors.standings import live_standings
from league.services.map_history import round_map_record
from rules.economy import income


def round_close(*, round: Round, now: datetime) -> None:  # noqa: A002
    """Reveal the seed (R-DICE-3), pay income (R-ECO-1), freeze standings (R-VP-2) and record
    the map. Idempotent: a round whose standings are frozen is left as
    it is (a round closed before map history existed stays unrecorded, never guessed)."""
    if RoundStandings.objects.filter(round=round).exists():
        return
    ruleset = ruleset_of(round.campaign)
    players = Player.objects.filter(campaign=round.campaign).annotate(owned=Count("tiles"))
    for player in players:
        player.requisition += income(ruleset, player.owned)
    Player.objects.bulk_update(players, ["requisition"])
    bump(round.campaign_id)  # no signals: campaigns/revision.py
    round.seed_revealed = True
    round.closed_at = now
    round.save(update_fields=["seed_revealed", "closed_at"])
    RoundStandings.objects.create(round=round, rows=live_standings(round.campaign))
    round_map_record(round=round)
