"""Nudges: the campaign admin reminds players who still owe input in the
current waiting phase (``battles.selectors.obligations.owing_players``) by mail, at most once per
person, phase and ``NUDGE_EVERY`` (``Nudge`` rows). Players marked away today are never nudged
(their inputs take their defaults, R-RND-3), nor is anyone while the campaign is paused (no
reminders go out). The round row is locked, so two admins clicking at once nudge once.

Each mail is rendered for its recipient (language, zone, display name) by the notification
outbox (``notify_players``, kind ``nudge``: not a kind a player switches off), links the page
where the player acts, and the call is recorded in the admin log (not public)."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.selectors.obligations import owing_players
from battles.selectors.reliability import NUDGE_EVERY
from battles.services.notifications import notify_players, phase_context
from campaigns.errors import Conflict, DomainError
from campaigns.mail import name_of
from campaigns.models import Campaign, Nudge, Player
from campaigns.selectors.absences import away_player_ids
from campaigns.selectors.players import display_name
from campaigns.selectors.rounds import current_round
from campaigns.services.admin_log import record
from rules.rounds import WAITING

KIND = "nudge"


@dataclass
class NudgeOutcome:
    """Who was nudged now, and who was skipped with the reason (``owes_nothing``, ``away``,
    ``recently`` with ``until``, ``no_email``)."""

    round: object
    nudged: list[Player] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)


def _targets(campaign: Campaign, player_ids, owing: set[int]) -> list[Player]:
    players = Player.objects.filter(campaign=campaign).select_related("user__profile")
    if player_ids is None:
        return list(players.filter(pk__in=owing).order_by("id"))
    wanted = {pk for pk in player_ids}
    found = list(players.filter(pk__in=wanted).order_by("id"))
    if len(found) != len(wanted):
        raise DomainError(_("Nudge players of this campaign only."),
                          code="unknown_player", field="players")
    return found


def _recent(rnd, players: list[Player], now: datetime) -> dict[int, datetime]:
    """{player id: their last nudge in this phase} for nudges less than 12 hours old."""
    return dict(Nudge.objects.filter(round=rnd, phase=rnd.phase, player__in=players,
                                     at__gt=now - NUDGE_EVERY)
                .values("player_id").annotate(last=Max("at")).values_list("player_id", "last"))


def _skip_reason(player: Player, owing, away, recent) -> dict | None:
    if player.pk not in owing:
        return {"reason": "owes_nothing"}
    if player.pk in away:
        return {"reason": "away"}
    if player.pk in recent:
        return {"reason": "recently", "until": recent[player.pk] + NUDGE_EVERY}
    if not player.user.email:
        return {"reason": "no_email"}
    return None


@transaction.atomic
def nudges_send(*, campaign: Campaign, by, player_ids=None,
                now: datetime | None = None) -> NudgeOutcome:
    """Mail the given players (default: everyone who owes input now) a reminder, skipping
    who owes nothing, is away, has no address or was nudged in this phase less than 12 hours
    ago. 409 outside a waiting phase or while the campaign is paused."""
    now = now or timezone.now()
    rnd = current_round(campaign, lock=True)
    if rnd is None or rnd.phase not in WAITING:
        raise Conflict(_("Nudges remind players of a waiting phase; none is open."),
                       code="not_waiting")
    if rnd.campaign.paused_at is not None:
        raise Conflict(_("The campaign is paused; no reminders go out."), code="paused")
    owing = owing_players(rnd)
    players = _targets(campaign, player_ids, owing)
    away, recent = away_player_ids(campaign, now), _recent(rnd, players, now)
    outcome = NudgeOutcome(round=rnd)
    for player in players:
        reason = _skip_reason(player, owing, away, recent)
        if reason:
            outcome.skipped.append({"player": player, **reason})
        else:
            outcome.nudged.append(player)
    if outcome.nudged:
        _send(rnd, outcome.nudged, by, now)
    return outcome


def _send(rnd, players: list[Player], by, now: datetime) -> None:
    Nudge.objects.bulk_create([Nudge(round=rnd, player=p, phase=rnd.phase, by=by, at=now)
                               for p in players])
    sender = name_of(by)
    notify_players(kind=KIND, campaign=rnd.campaign, players=[p.pk for p in players],
                   event=f"nudge:{rnd.pk}:{rnd.phase}:{now.isoformat()}", now=now,
                   context={**phase_context(rnd), "sender": sender})
    names = [player_name(p) for p in players]
    record(campaign=rnd.campaign, actor=by, kind="nudge", target=", ".join(names),
           after={"phase": rnd.phase, "players": names}, public=False, round=rnd)


def player_name(player: Player) -> str:
    """Display name, else username (``user__profile`` selected)."""
    return display_name(player.user) or player.user.get_username()
