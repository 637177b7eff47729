"""factory-boy factories shared by the Django-side tests."""

import factory
from django.contrib.auth.models import User

from campaigns.models import Campaign, MarkerType, Planet, Player, Tile


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse 42")


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

