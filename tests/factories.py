"""Factory-boy factories shared by the Django-side tests."""

import factory
from django.contrib.auth.models import User

from campaigns.models import Campaign, MarkerType, Planet, Player, Tile


class UserFactory(factory.django.DjangoModelFactory):
    """A user; an existing username gives the existing user (read, then inserted: without
    ``get_or_create``'s savepoint)."""

    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse 42")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        existing = model_class.objects.filter(username=kwargs["username"]).first()
        return existing or super()._create(model_class, *args, **kwargs)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    visibility = Campaign.Visibility.PRIVATE


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    faction = factory.Sequence(lambda n: f"Faction {n}")
    colour = "#aa3300"
    requisition = 1


class PlanetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Planet

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Planet {n}")


class TileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tile

    planet = factory.SubFactory(PlanetFactory)
    campaign = factory.SelfAttribute("planet.campaign")
    q = factory.Sequence(lambda n: n)
    r = 0
    features = factory.LazyFunction(list)


class MarkerTypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MarkerType
        django_get_or_create = ("campaign", "code")

    campaign = factory.SubFactory(CampaignFactory)
    code = "manufactorum"
    name = "Manufactorum"
    army_points_bonus = 50


# --- map: areas, fleets, ships, markers, tile links (appended for the map API tests) ---

from campaigns.models import Marker, TileLink  # noqa: E402
from fleets.models import Area, Fleet, Ship  # noqa: E402


class MarkerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Marker

    tile = factory.SubFactory(TileFactory)
    campaign = factory.SelfAttribute("tile.campaign")
    type = factory.SubFactory(MarkerTypeFactory, campaign=factory.SelfAttribute("..campaign"))


class TileLinkFactory(factory.django.DjangoModelFactory):
    """Give ``a`` and ``b`` with a.pk < b.pk (the link_ordered constraint)."""

    class Meta:
        model = TileLink

    a = factory.SubFactory(TileFactory)
    b = factory.SubFactory(TileFactory, planet=factory.SelfAttribute("..a.planet"))
    campaign = factory.SelfAttribute("a.campaign")


class AreaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Area

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Area {n}")
    kind = Area.Kind.OCEAN


class FleetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Fleet

    area = factory.SubFactory(AreaFactory)
    campaign = factory.SelfAttribute("area.campaign")
    owner = factory.SubFactory(PlayerFactory, campaign=factory.SelfAttribute("..campaign"))
    name = factory.Sequence(lambda n: f"Fleet {n}")


class ShipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ship

    fleet = factory.SubFactory(FleetFactory)
    position = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Ship {n}")
    ship_class = "Frigate"
    attack = 3
    defence = 4
    agility = 3
    capacity = 1


# --- rounds, declarations, battles; orbit fleets and markers (appended for the attack and
# battle tests; module aliases keep these independent of the imports above) ---

from battles import models as battle_models  # noqa: E402
from campaigns import models as campaign_models  # noqa: E402
from fleets import models as fleet_models  # noqa: E402
from rules.dice import commitment as seed_commitment  # noqa: E402
from rules.dice import new_seed  # noqa: E402


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = campaign_models.Round

    campaign = factory.SubFactory(CampaignFactory)
    number = 1
    phase = campaign_models.Round.Phase.DECLARE
    server_seed = factory.LazyFunction(new_seed)
    seed_commitment = factory.LazyAttribute(lambda o: seed_commitment(o.server_seed))


class AttackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = campaign_models.Attack

    round = factory.SubFactory(RoundFactory)
    player = factory.SubFactory(PlayerFactory, campaign=factory.SelfAttribute("..round.campaign"))
    tile = factory.SubFactory(TileFactory, planet__campaign=factory.SelfAttribute(
        "...round.campaign"))
    source = campaign_models.Attack.Source.ADJACENT
    order = factory.Sequence(lambda n: n + 1)


class BattleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = battle_models.Battle

    attack = factory.SubFactory(AttackFactory)
    round = factory.SelfAttribute("attack.round")
    campaign = factory.SelfAttribute("attack.round.campaign")
    tile = factory.SelfAttribute("attack.tile")
    attacker = factory.SelfAttribute("attack.player")


class OrbitAreaFactory(factory.django.DjangoModelFactory):
    """The orbit area of a planet (R-MAP-3)."""

    class Meta:
        model = fleet_models.Area

    planet = factory.SubFactory(PlanetFactory)
    campaign = factory.SelfAttribute("planet.campaign")
    name = factory.Sequence(lambda n: f"Orbit {n}")
    kind = fleet_models.Area.Kind.ORBIT


class OrbitFleetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = fleet_models.Fleet

    area = factory.SubFactory(OrbitAreaFactory)
    campaign = factory.SelfAttribute("area.campaign")
    owner = factory.SubFactory(PlayerFactory, campaign=factory.SelfAttribute("..campaign"))
    name = factory.Sequence(lambda n: f"Transport fleet {n}")


class TransportShipFactory(factory.django.DjangoModelFactory):
    """A ship with embarked detachments: ``cargo`` = [{"name", "points"}] (R-FLT-2)."""

    class Meta:
        model = fleet_models.Ship

    fleet = factory.SubFactory(OrbitFleetFactory)
    name = factory.Sequence(lambda n: f"Transport {n}")
    capacity = 3
    cargo = factory.LazyFunction(lambda: [{"name": "Assault company", "points": 500}])


class TileMarkerFactory(factory.django.DjangoModelFactory):
    """A marker on a tile (default type: manufactorum, +50 army points, R-MRK-1)."""

    class Meta:
        model = campaign_models.Marker

    tile = factory.SubFactory(TileFactory)
    campaign = factory.SelfAttribute("tile.campaign")
    type = factory.SubFactory(MarkerTypeFactory, campaign=factory.SelfAttribute("..campaign"))


# --- army lists, date proposals, notification switches (appended for the army list,
# schedule and notification tests) ---

from datetime import timedelta as _timedelta  # noqa: E402

from django.utils import timezone as dj_timezone  # noqa: E402


class ArmyListFactory(factory.django.DjangoModelFactory):
    """A stored list; give ``battle`` and ``player`` (a participant)."""

    class Meta:
        model = battle_models.ArmyList

    battle = factory.SubFactory(BattleFactory)
    player = factory.SelfAttribute("battle.attacker")
    name = "Spearhead"
    entries = factory.LazyFunction(lambda: [{"name": "Captain", "points": 85}])
    total = factory.LazyAttribute(lambda o: sum(e["points"] for e in o.entries))
    source = "json"
    submitted_at = factory.LazyFunction(dj_timezone.now)


class ScheduleProposalFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = battle_models.ScheduleProposal

    battle = factory.SubFactory(BattleFactory)
    proposed_by = factory.SelfAttribute("battle.attacker")
    proposed_at = factory.LazyFunction(lambda: dj_timezone.now() + _timedelta(days=3))
    place = "Club house"
    created_at = factory.LazyFunction(dj_timezone.now)


class NotificationPreferenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = battle_models.NotificationPreference
        django_get_or_create = ("player", "kind")

    player = factory.SubFactory(PlayerFactory)
    kind = battle_models.NotificationKind.DEADLINE_SOON
    enabled = False


# --- fleet phase: orders and sea hazards (appended for the fleet tests; module aliases keep
# these independent of the imports above) ---

from fleets import models as fleet_phase_models  # noqa: E402


class FleetOrderFactory(factory.django.DjangoModelFactory):
    """A movement order (R-FLT-4); give ``round``, ``fleet`` and ``path`` (area ids)."""

    class Meta:
        model = fleet_phase_models.FleetOrder

    round = factory.SubFactory(RoundFactory)
    fleet = factory.SubFactory(FleetFactory)
    path = factory.LazyFunction(list)


class SeaHazardFactory(factory.django.DjangoModelFactory):
    """A hidden sea hazard (R-SEA-2) in ``area``; ``owner`` None: placed by the admin."""

    class Meta:
        model = fleet_phase_models.SeaHazard

    area = factory.SubFactory(AreaFactory)
    campaign = factory.SelfAttribute("area.campaign")
    name = factory.Sequence(lambda n: f"Hazard {n}")
    attack = 3
    defence = 3
    agility = 2
