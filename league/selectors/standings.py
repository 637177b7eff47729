"""Live standings (R-VP-2) in a constant number of queries, whatever the campaign's size, and
kept per campaign revision for the pages and the API (``standings``)."""

from collections import Counter, defaultdict

from django.db.models import Count, Sum

from battles.models import Battle
from campaigns.cache import cached
from campaigns.models import Campaign, Player, Tile
from campaigns.selectors.campaigns import ruleset_of
from campaigns.selectors.players import display_name
from fleets.models import Fleet, NavalBattle, Ship
from fleets.values import ship_cf
from rules.standings import rank_rows

WON, DRAW, LOST = "battles_won", "battles_drawn", "battles_lost"


def _battle_tallies(campaign: Campaign) -> tuple[dict, Counter]:
    """Won/drawn/lost per player and reported victory points, from confirmed results."""
    tallies: dict[int, Counter] = defaultdict(Counter)
    vp: Counter = Counter()
    rows = Battle.objects.filter(
        campaign=campaign, result_status=Battle.ResultStatus.CONFIRMED,
    ).values_list("attacker_id", "defender_id", "outcome", "attacker_vp", "defender_vp")
    for attacker, defender, outcome, attacker_vp, defender_vp in rows:
        vp[attacker] += attacker_vp
        if defender:
            vp[defender] += defender_vp
        if outcome == Battle.Outcome.DRAW:
            attacker_result, defender_result = DRAW, DRAW
        elif outcome in Battle.WON:
            attacker_result, defender_result = WON, LOST
        else:
            attacker_result, defender_result = LOST, WON
        tallies[attacker][attacker_result] += 1
        if defender:
            tallies[defender][defender_result] += 1
    return tallies, vp


def _naval_vp(campaign: Campaign) -> Counter:
    """Victory points scored in naval battles (R-VP-1: boarding), per player."""
    vp: Counter = Counter()
    battles = NavalBattle.objects.filter(round__campaign=campaign)
    for side in ("attacker", "defender"):
        for player, points in (battles.filter(**{f"{side}__isnull": False})
                               .values(f"{side}_id").annotate(vp=Sum(f"{side}_vp"))
                               .values_list(f"{side}_id", "vp")):
            vp[player] += points or 0
    return vp


def _fleet_figures(campaign: Campaign) -> dict[int, dict]:
    """Fleets, ships and total CF per player (R-VP-2, R-FLT-3: attack values, or with the
    ``d6_space`` engine the ships' gun damage dice)."""
    figures: dict[int, dict] = defaultdict(lambda: {"ships": 0, "fleets": 0, "cf": 0})
    fleets = Fleet.objects.filter(campaign=campaign, owner__isnull=False)
    for row in fleets.values("owner_id").annotate(n=Count("id")):
        figures[row["owner_id"]]["fleets"] = row["n"]
    ships = Ship.objects.filter(fleet__campaign=campaign, fleet__owner__isnull=False)
    engine = ruleset_of(campaign).naval_engine
    if engine == "d6_space":
        for owner, attack, datasheet in ships.values_list("fleet__owner_id", "attack",
                                                          "datasheet"):
            figures[owner]["ships"] += 1
            figures[owner]["cf"] += ship_cf(engine, attack, datasheet)
        return figures
    for row in ships.values("fleet__owner_id").annotate(n=Count("id"), cf=Sum("attack")):
        figures[row["fleet__owner_id"]].update(ships=row["n"], cf=row["cf"] or 0)
    return figures


def live_standings(campaign: Campaign) -> list[dict]:
    players = list(Player.objects.filter(campaign=campaign)
                   .select_related("user__profile"))  # the seat's current holder
    tiles, planets = {}, {}  # one query for both
    for owner, n, on_planets in (Tile.objects.filter(campaign=campaign, owner__isnull=False)
                                 .values("owner_id")
                                 .annotate(n=Count("id"), p=Count("planet", distinct=True))
                                 .values_list("owner_id", "n", "p")):
        tiles[owner], planets[owner] = n, on_planets
    tallies, vp = _battle_tallies(campaign)
    vp.update(_naval_vp(campaign))
    fleets = _fleet_figures(campaign)
    rows = [{
        "player": p.pk, "username": p.user.username, "display_name": display_name(p.user),
        "faction": p.faction,
        "tiles": tiles.get(p.pk, 0), "planets": planets.get(p.pk, 0),
        WON: tallies[p.pk][WON], DRAW: tallies[p.pk][DRAW], LOST: tallies[p.pk][LOST],
        "victory_points": vp[p.pk], **fleets[p.pk],
    } for p in players]
    return rank_rows(rows)


def standings(campaign: Campaign) -> list[dict]:
    """``live_standings`` as of ``campaign.revision`` (read with the request), computed once per
    revision and process (``campaigns/cache.py``). Everything it reads bumps the revision:
    seats and their holders' names, tiles, battles, naval battles, fleets, ships and the
    ruleset (``campaigns/revision.py``). The rows are public (R-VP-2): one entry for every
    reader. Writers (closing a round) call ``live_standings`` itself."""
    return cached("standings", campaign, lambda: live_standings(campaign))
