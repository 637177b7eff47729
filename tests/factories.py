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
