from api.views import (
    admins,
    army_lists,
    attacks,
    auth,
    battles,
    calendar,
    campaigns,
    conquest,
    fleets,
    invitations,
    join_requests,
    map_history,
    naval_battles,
    notifications,
    odds,
    rounds,
    schedule,
)
from api.views import map as map_views

app_name = "api"
urlpatterns = []
for module in (auth, campaigns, map_views, rounds, attacks, battles, conquest, army_lists,
               schedule, calendar, notifications, fleets, naval_battles, odds, invitations,
               join_requests, map_history, admins):
    urlpatterns += module.urlpatterns
