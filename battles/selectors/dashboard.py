"""The organiser's dashboard, one read for the page and the API: per player
what they still owe in the current phase (``obligations``), whether they said "done", are
away today, when they were last nudged and their reliability this season; the disputes the
admin must settle and the absences to come. A constant number of queries for any number of
players."""

from dataclasses import dataclass
from datetime import date, datetime

from battles.models import Battle
from battles.selectors.obligations import (
    campaign_obligations,
    disputes_to_settle,
    done_player_ids,
    waits_for_input,
)
from battles.selectors.reliability import NUDGE_EVERY, last_nudges, reliability
from campaigns.models import Absence, Campaign, Player, Round
from campaigns.selectors.absences import away_player_ids, campaign_day, upcoming_absences
from campaigns.selectors.campaigns import player_list
from rules.rounds import WAITING

NO_RECORD = {"on_time": 0, "defaulted": 0, "away": 0}


@dataclass
class PlayerRow:
    player: Player
    owed: list[dict]  # every to-do entry; ``owes`` says whether any waits for input
    owes: bool
    done: bool
    away: bool
    nudged_at: datetime | None
    next_nudge_at: datetime | None  # set while the last nudge is less than 12 hours old
    reliability: dict[str, int]

    @property
    def inputs(self) -> int:
        return self.reliability["on_time"] + self.reliability["defaulted"]

    @property
    def nudgeable(self) -> bool:
        return self.owes and not self.done and not self.away and self.next_nudge_at is None


@dataclass
class Dashboard:
    round: Round | None
    waiting: bool  # the current phase waits for players (declare, lists, battles, conquest)
    players: list[PlayerRow]
    disputes: list[Battle]
    absences: list[Absence]
    today: date

    @property
    def owing(self) -> list[PlayerRow]:
        return [row for row in self.players if row.nudgeable]


def dashboard(campaign: Campaign, rnd: Round | None, now: datetime) -> Dashboard:
    players = list(player_list(campaign))
    waiting = rnd is not None and rnd.phase in WAITING
    owed = campaign_obligations(rnd, [p.pk for p in players]) if waiting else {}
    done = done_player_ids(rnd) if waiting else set()
    away = away_player_ids(campaign, now)
    nudged, record = last_nudges(rnd), reliability(campaign)
    rows = []
    for player in players:
        entries, last = owed.get(player.pk, []), nudged.get(player.pk)
        again = last + NUDGE_EVERY if last else None
        rows.append(PlayerRow(
            player=player, owed=entries, owes=any(waits_for_input(e) for e in entries),
            done=player.pk in done, away=player.pk in away, nudged_at=last,
            next_nudge_at=again if again and again > now else None,
            reliability=record.get(player.pk, NO_RECORD)))
    today = campaign_day(campaign, now)
    return Dashboard(round=rnd, waiting=waiting, players=rows,
                     disputes=disputes_to_settle(campaign),
                     absences=list(upcoming_absences(campaign, today)), today=today)
