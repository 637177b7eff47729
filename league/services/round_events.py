"""The round's events for webhooks and feeds, as steps of the round machine (``league.phases``):
a phase opened, 24 hours before a deadline, the naval battles of the fleet phase, the round
closed with the standings' top 5 and the map's owner changes. Public facts only (R-FLT-7):
display names, tiles, areas, counts; the battle events live in
``battles.services.campaign_events``."""

from datetime import datetime

from django.db import transaction
from django.urls import reverse

from battles.selectors.obligations import owing_players
from battles.services.notifications import REMINDER_BEFORE, reminder_due
from campaigns.labels import place_label
from campaigns.mail import absolute, display, profiles_of
from campaigns.models import Player, Round, RoundStandings
from campaigns.selectors.absences import away_player_ids
from campaigns.services.events import event_emit
from fleets.models import Area, NavalBattle
from fleets.selectors.fleets import naval_losses
from league.selectors.map_history import round_map_history
from rules.rounds import WAITING

TOP = 5


def _page(name: str, campaign_id: int, *args) -> str:
    return absolute(reverse(f"campaigns:{name}", args=[campaign_id, *args]))


def _player_names(campaign_id: int, ids=None) -> dict[int, str]:
    players = Player.objects.filter(campaign=campaign_id).select_related("user")
    if ids is not None:
        players = players.filter(pk__in=ids)
    players = list(players)
    profiles = profiles_of([p.user for p in players])
    return {p.pk: display(p.user, profiles.get(p.user_id)) for p in players}


def _deadline_facts(rnd: Round) -> dict:
    return {"round": rnd.number, "phase": rnd.phase,
            "deadline": rnd.phase_deadline.isoformat() if rnd.phase_deadline else None,
            "link": _page("detail", rnd.campaign_id)}


def phase_opened_emit(*, round: Round, now: datetime) -> None:  # noqa: A002
    """A waiting phase opened, with its deadline (R-RND-1)."""
    opened = int((round.phase_started_at or now).timestamp())
    event_emit(campaign=round.campaign, kind="phase_opened",
               key=f"phase:{round.pk}:{round.phase}:{opened}",
               facts=_deadline_facts(round), audience="public", now=now)


def deadline_soon_emit(*, now: datetime) -> int:
    """Every minute: once per round and phase, when the deadline reminder is due (the same
    moment as the players' mail), who still owes input by display name; the names reach
    only the hooks whose admin opted in (``Webhook.include_owing``). Not while paused."""
    emitted = 0
    soon = Round.objects.filter(phase__in=WAITING, phase_deadline__gt=now,
                                phase_deadline__lte=now + REMINDER_BEFORE,
                                campaign__paused_at__isnull=True,
                                campaign__is_sandbox=False).select_related("campaign")
    for rnd in soon:
        if not reminder_due(rnd, now):
            continue
        key = f"deadline:{rnd.pk}:{rnd.phase}:{int(rnd.phase_deadline.timestamp())}"
        if rnd.campaign.events.filter(key=key).exists():
            continue
        owing = set(owing_players(rnd)) - away_player_ids(rnd.campaign, now)
        with transaction.atomic():
            event_emit(campaign=rnd.campaign, kind="deadline_soon", key=key,
                       facts={**_deadline_facts(rnd),
                              "owing": sorted(_player_names(rnd.campaign_id, owing).values())},
                       audience="public", now=now)
        emitted += 1
    return emitted


def naval_battles_emit(*, round: Round, now: datetime) -> None:  # noqa: A002
    """When the fleet phase ends its battles become public (R-FLT-7): where, who, the winner
    and how many ships each side lost; never lines, values, stances or the log."""
    battles = list(NavalBattle.objects.filter(round=round).order_by("area_id", "sequence")
                   .defer("events"))  # the logs (MBs of JSON) are not shown here
    if not battles:
        return
    names = _player_names(round.campaign_id)
    areas = dict(Area.objects.filter(campaign=round.campaign).values_list("id", "name"))
    facts = []
    for battle in battles:
        losses = naval_losses(battle)
        winner = battle.outcome.get("winner")
        facts.append({
            "area": areas.get(battle.area_id), "attacker": names.get(battle.attacker_id),
            "defender": names.get(battle.defender_id),
            "winner": winner if winner in ("attacker", "defender") else None,
            "lost": {side: {kind: len(ships) for kind, ships in losses[side].items()}
                     for side in ("attacker", "defender")},
            "link": _page("naval-battle", round.campaign_id, battle.pk)})
    event_emit(campaign=round.campaign, kind="naval_battles", key=f"naval:{round.pk}",
               facts={"round": round.number, "battles": facts}, audience="public", now=now)


def round_closed_emit(*, round: Round, now: datetime) -> None:  # noqa: A002
    """After ``round_close``: the frozen standings' top 5 and the tiles that changed hands
    since the round before (the map history's public changes)."""
    standings = RoundStandings.objects.filter(round=round).first()
    rows = standings.rows[:TOP] if standings else []
    names = _player_names(round.campaign_id)
    history = round_map_history(round.campaign, round.number)
    # [decision] round 1 has no recorded map before it (map history's START basis: every tile
    # would count as changed), so its changes are the conquest results' alone
    recorded = history is not None and history.basis == "previous"
    changes = (history.changes or {}).get("owners", []) if recorded else []
    event_emit(campaign=round.campaign, kind="round_closed", key=f"closed:{round.pk}", facts={
        "round": round.number,
        "standings": [{"rank": row.get("rank"), "player": names.get(row["player"],
                                                                     row.get("display_name")),
                       "faction": row.get("faction"), "victory_points": row.get("victory_points"),
                       "tiles": row.get("tiles")} for row in rows],
        "map_changes": [{**_tile(c["tile"]), "from": names.get(c["from"]),
                         "to": names.get(c["to"])} for c in changes],
        "link": _page("detail", round.campaign_id)}, audience="public", now=now)


def _tile(info: dict) -> dict:
    """As ``battles.services.campaign_events`` names a tile: ``tile`` by planet and
    coordinates, ``tile_name`` by its name when it has one (campaigns.labels)."""
    where = {"planet": info.get("planet_name"), "q": info.get("q"), "r": info.get("r")}
    return {"tile": place_label(**where), "tile_name": place_label(**where,
                                                                   name=info.get("name") or "")}
