"""Is a waiting phase ready to advance early (R-RND-2 [reading])?

R-RND-2 advances a phase at its deadline or by the admin. With the ruleset's
``early_advance`` on (the default), a waiting phase (declare, lists, battles, conquest) of a
campaign that is not paused is READY as soon as every player who can act in it has acted or
said "done for this phase" (``PhaseDone``). [reading R-RND-2] where the rules are silent:

- Who can act: in ``declare`` every player of the campaign, and only a "done" counts there
  (declaring is open-ended: a declaration is no sign the player has finished). In ``lists``,
  ``battles`` and ``conquest`` the players with a to-do entry the phase waits for
  (``battles.selectors.obligations``); having nothing left that waits is having acted. A
  player whose opponent reported a result owes the confirmation: that player is not ready
  until they confirm, dispute or say done.
- A "done" stands for what the player has not given: their inputs take the defaults at the
  advance, as at the deadline (R-RND-3). It counts for its own phase only.
- A player marked away today counts as ready: their inputs take the defaults (R-RND-3).
- A phase nobody can act in (a conquest phase nobody won anything in) is ready at once.
- What only the admin can give holds the phase until the deadline or until the admin gives
  it: a disputed result, an open battle against a neutral garrison (R-BAT-3, R-ATK-4). Ending
  the battles phase early would otherwise take them as unplayed (R-RND-3).
- A paused campaign never advances early; nor does a phase whose deadline has passed (the
  periodic job advances it, as it always did).

Leaving ``lists`` early reveals the lists (R-ARM-3), as at the deadline: once everyone has
submitted or said done, nobody can still react to what they see."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from battles.models import Battle
from battles.selectors.obligations import owing_players
from campaigns.models import Campaign, PhaseDone, Player, Round
from campaigns.selectors.absences import away_player_ids
from campaigns.selectors.campaigns import ruleset_of
from rules.rounds import WAITING


@dataclass(frozen=True)
class Readiness:
    """``players``: all players of the campaign; ``waiting``: the ids the phase still waits
    for; ``marked``: the ids that said done; ``held``: the admin owes something."""

    phase: str
    enabled: bool
    players: int
    waiting: frozenset[int]
    marked: frozenset[int]
    held: bool = False

    @property
    def done_count(self) -> int:
        return self.players - len(self.waiting)

    @property
    def ready(self) -> bool:
        return self.enabled and not self.held and not self.waiting

    def as_dict(self, player: Player | None = None) -> dict:
        """The public state: counts only (never who owes what)."""
        return {"phase": self.phase, "early_advance": self.enabled,
                "done": player is not None and player.pk in self.marked,
                "ready": self.done_count, "players": self.players,
                "waiting_for": len(self.waiting)}


def early_advance_on(campaign: Campaign) -> bool:
    """Does the campaign advance early now: its ruleset says so and it is not paused?"""
    return ruleset_of(campaign).early_advance and campaign.paused_at is None


def readiness(rnd: Round, *, now: datetime) -> Readiness:
    """The early-advance state of ``rnd``'s current phase (see the module's readings). A fixed
    number of queries besides the obligations of lists, battles and conquest."""
    campaign = rnd.campaign
    enabled = rnd.phase in WAITING and early_advance_on(campaign) and not _past(rnd, now)
    players = set(Player.objects.filter(campaign=campaign).values_list("pk", flat=True))
    if rnd.phase not in WAITING:
        return Readiness(rnd.phase, False, len(players), frozenset(), frozenset())
    marked = set(PhaseDone.objects.filter(round=rnd, phase=rnd.phase)
                 .values_list("player_id", flat=True))
    can_act = players if rnd.phase == Round.Phase.DECLARE else owing_players(rnd)
    waiting = (can_act & players) - marked - away_player_ids(campaign, now)
    return Readiness(rnd.phase, enabled, len(players), frozenset(waiting),
                     frozenset(marked & players), held=_held(rnd))


def _past(rnd: Round, now: datetime) -> bool:
    return rnd.phase_deadline is not None and rnd.phase_deadline <= now


def _held(rnd: Round) -> bool:
    """Does the battles phase wait for the admin: a disputed result, or an open battle
    against a neutral garrison (its result is the admin's, R-ATK-4)?"""
    if rnd.phase != Round.Phase.BATTLES:
        return False
    return Battle.objects.filter(round=rnd, status=Battle.Status.OPEN).filter(
        Q(result_status=Battle.ResultStatus.DISPUTED) | Q(defender__isnull=True)).exists()
