"""Standings over the rounds (R-VP-2): the rows frozen at each round's close, in one query."""

from campaigns.models import Campaign, RoundStandings


def frozen_standings(campaign: Campaign, number: int) -> list[dict] | None:
    """The rows frozen at round ``number``'s close, or None if it has not closed."""
    return (RoundStandings.objects.filter(round__campaign=campaign, round__number=number)
            .values_list("rows", flat=True).first())


def standings_history(campaign: Campaign) -> list[tuple[int, list[dict]]]:
    """(round number, ranked rows) for every closed round, oldest first."""
    return [(number, rows) for number, rows in
            RoundStandings.objects.filter(round__campaign=campaign)
            .order_by("round__number").values_list("round__number", "rows")]
