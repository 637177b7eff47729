from django.apps import AppConfig


class FleetsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fleets"

    def ready(self):
        from campaigns.models import Round
        from campaigns.revision import via, watch, watch_m2m
        from fleets.models import Area, Fleet, NavalBattle, Ship

        # what the map and the standings show (campaigns/revision.py)
        for model in (Area, Fleet):
            watch(model, lambda obj: obj.campaign_id)
        watch(Ship, via("fleet", Fleet))
        watch(NavalBattle, via("round", Round))
        for through in (Area.adjacent.through, Area.borders_tiles.through):
            watch_m2m(through, lambda obj: obj.campaign_id)  # an area or a tile
