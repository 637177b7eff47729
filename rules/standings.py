"""Standings order (R-VP-2): tiles held, then victory points, then won battles, then name."""

from collections.abc import Iterable, Mapping


def rank_rows(rows: Iterable[Mapping]) -> list[dict]:
    """Sort standings rows (dicts with tiles, victory_points, battles_won, username) and number
    them from 1; equal rows on all four keys share a rank."""
    def key(row):
        return (-row["tiles"], -row["victory_points"], -row["battles_won"],
                row["username"].casefold())

    ranked, previous, rank = [], None, 0
    for index, row in enumerate(sorted(rows, key=key), start=1):
        if key(row) != previous:
            rank, previous = index, key(row)
        ranked.append({"rank": rank, **row})
    return ranked
