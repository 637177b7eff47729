"""A small league for the attack and battle tests: an admin, four players with requisition to
spend, and helpers to build tiles, orbit transports and to move a round along."""

from dataclasses import dataclass

from rest_framework.test import APIClient

from battles.services.attacks import attack_declare, purchase_create
from campaigns.models import Campaign, Planet, Player, Round, Tile
from league.services.rounds import campaign_start, round_advance, round_run_phase_job
from rules.rounds import AUTOMATIC
from tests.factories import (
    CampaignFactory,
    OrbitAreaFactory,
    OrbitFleetFactory,
    PlanetFactory,
    PlayerFactory,
    TileFactory,
    TransportShipFactory,
    UserFactory,
)

PHASES = ["declare", "fleets", "lists", "battles", "conquest", "closed"]


@dataclass
class League:
    campaign: Campaign
    admin: object
    a: Player
    b: Player
    c: Player
    d: Player

    def planet(self, name: str = "") -> Planet:
        return PlanetFactory(campaign=self.campaign, name=name or "Planet")

    def start(self) -> Round:
        return campaign_start(campaign=self.campaign)

    def url(self, rest: str) -> str:
        return f"/api/v1/campaigns/{self.campaign.pk}/{rest}"

    def set_rules(self, **keys) -> None:
        self.campaign.ruleset = {**self.campaign.ruleset, **keys}
        self.campaign.save(update_fields=["ruleset"])


def make_league(*, visibility: str = "private") -> League:
    admin = UserFactory(username="orga")
    campaign = CampaignFactory(visibility=visibility)
    campaign.admins.add(admin)
    players = [PlayerFactory(campaign=campaign, user=UserFactory(username=name), requisition=10)
               for name in ("anna", "ben", "carl", "dora")]
    return League(campaign, admin, *players)


def tile(planet: Planet, q: int, r: int, owner: Player | None = None,
         features: tuple[str, ...] = ()) -> Tile:
    return TileFactory(planet=planet, q=q, r=r, owner=owner, features=list(features))


def row(planet: Planet, owner: Player | None, qs, r: int = 0) -> list[Tile]:
    """Tiles (q, r) for q in ``qs``, all owned by ``owner``."""
    return [tile(planet, q, r, owner) for q in qs]


def transport(planet: Planet, owner: Player, points_per_ship=(1500,)):
    """A fleet of ``owner`` in ``planet``'s orbit; each ship carries 500-point detachments
    adding up to its entry of ``points_per_ship`` (R-FLT-2, R-ATK-3)."""
    area = OrbitAreaFactory(planet=planet)
    fleet = OrbitFleetFactory(area=area, owner=owner)
    for points in points_per_ship:
        cargo = [{"name": f"Detachment {i}", "points": 500} for i in range(points // 500)]
        TransportShipFactory(fleet=fleet, cargo=cargo)
    return fleet


def buy(player: Player, rnd: Round, armies: int = 1):
    return purchase_create(player=player, round=rnd, attack_armies=armies)


def declare(player: Player, rnd: Round, target: Tile, *, armies: int = 1):
    """Buy ``armies`` (0: none) and declare an attack on ``target``."""
    if armies:
        buy(player, rnd, armies)
    return attack_declare(player=player, round=rnd, tile=target)


def advance_to(rnd: Round, phase: str) -> Round:
    """Advance the round phase by phase (every hook runs) until it is in ``phase``."""
    rnd.refresh_from_db()
    while rnd.phase != phase:
        if rnd.phase in AUTOMATIC:  # its job, then it advances by itself (R-RND-2)
            round_run_phase_job(round_id=rnd.pk, phase=rnd.phase)
        else:
            round_advance(round_id=rnd.pk, expected_phase=rnd.phase)
        rnd.refresh_from_db()
    return rnd


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
