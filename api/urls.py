from django.urls import path

from api import army_lists, attacks, battles, campaigns, conquest, odds, rounds, schedule, views
from api import calendar as calendar_views
from api import fleets as fleet_views
from api import map as map_views
from api import naval_battles as naval_battle_views
from api import notifications as notification_views
from api.auth import TokenView

app_name = "api"
urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("me/", views.MeView.as_view(), name="me"),
]
for module in (campaigns, map_views, rounds, attacks, battles, conquest, army_lists, schedule,
               calendar_views, notification_views, fleet_views, naval_battle_views, odds):
    urlpatterns += module.urlpatterns
