"""The benchmark's URLconf: the product's URLs plus the floor views, minimal views
returning the same rows from one ``.values()`` query as a JsonResponse. Only the gunicorn
process of ``bench/league.py`` uses it (``bench/settings.py``); the product's URLs never
include the floors."""

from django.http import JsonResponse
from django.urls import include, path

from battles.models import Battle
from campaigns.models import Campaign, Player, Round, Tile


def tiles(request, cid):
    rows = list(Tile.objects.filter(campaign_id=cid).values(
        "id", "planet_id", "q", "r", "owner_id", "features", "name"))
    return JsonResponse({"tiles": rows})


def players(request, cid):
    rows = list(Player.objects.filter(campaign_id=cid).values(
        "id", "faction", "colour", "requisition", "user__username"))
    return JsonResponse({"rows": rows})


def battles(request, cid):
    size = int(request.GET.get("page_size", 50))
    rows = list(Battle.objects.filter(campaign_id=cid).order_by("id").values(
        "id", "round__number", "tile_id", "attacker_id", "defender_id", "neutral",
        "chain_position", "chain_length", "status", "point_limits", "bonus",
        "scheduled_at", "place", "outcome", "attacker_vp", "defender_vp")[:size])
    return JsonResponse({"results": rows})


def campaign(request, cid):
    return JsonResponse(Campaign.objects.filter(pk=cid).values()[0])


def rounds(request, cid):
    rows = list(Round.objects.filter(campaign_id=cid).values(
        "id", "number", "phase", "phase_started_at", "phase_deadline", "seed_commitment"))
    return JsonResponse(rows, safe=False)


def campaigns(request):
    rows = list(Campaign.objects.values("id", "name", "status", "visibility"))
    return JsonResponse(rows, safe=False)


def database(request):
    """The gunicorn process's connection settings, for the benchmark's first line."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    return JsonResponse({"CONN_MAX_AGE": db.get("CONN_MAX_AGE"),
                         "CONN_HEALTH_CHECKS": db.get("CONN_HEALTH_CHECKS")})


urlpatterns = [
    path("floor/settings/", database),
    path("floor/<int:cid>/tiles/", tiles),
    path("floor/<int:cid>/players/", players),
    path("floor/<int:cid>/battles/", battles),
    path("floor/<int:cid>/campaign/", campaign),
    path("floor/<int:cid>/rounds/", rounds),
    path("floor/campaigns/", campaigns),
    path("", include("config.urls")),
]
