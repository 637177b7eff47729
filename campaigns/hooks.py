"""What the campaign core does at phase changes (R-RND-1)."""

from django.db.models import Count

from campaigns.models import Player, Round, RoundStandings
from campaigns.phases import on_phase_end, on_phase_start, on_tick
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


@on_phase_end("conquest")
def resolve_conquest(rnd: Round, now) -> None:
    """R-RND-3: choices not made take ``conquest_default``; every roll is made (R-CON-4)."""
    from battles.conquest import conquest_resolve

    conquest_resolve(rnd, now)


@on_phase_end("battles")
def settle_battles(rnd: Round, now) -> None:
    """R-RND-3: unplayed battles take ``unplayed_outcome``; chains are settled link by link."""
    from battles.chains import close_battles

    close_battles(rnd, now)


@on_tick
def overdue_chain_decisions(now) -> None:
    """R-CON-6: a roll decision not made within ``confirm_hours`` takes the default."""
    from battles.chains import apply_overdue_decisions

    apply_overdue_decisions(now)
