from django.apps import AppConfig


class LeagueConfig(AppConfig):
    """The round machine, closing, standings, whole-campaign documents; no models."""

    name = "league"
