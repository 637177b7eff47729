from api.views import (
    absences,
    admins,
    archive,
    army_lists,
    attacks,
    audit_log,
    auth,
    battles,
    calendar,
    campaigns,
    conquest,
    corrections,
    dashboard,
    fleets,
    invitations,
    join_requests,
    map_history,
    naval_battles,
    notifications,
    odds,
    pause,
    phase_done,
    rounds,
    schedule,
    site,
    webhooks,
)
from api.views import map as map_views

app_name = "api"
urlpatterns = []
for module in (auth, campaigns, map_views, rounds, attacks, battles, conquest, army_lists,
               schedule, calendar, notifications, fleets, naval_battles, odds, invitations,
               join_requests, map_history, admins, absences,
               pause):
    urlpatterns += module.urlpatterns
urlpatterns += audit_log.urlpatterns
urlpatterns += phase_done.urlpatterns
urlpatterns += archive.urlpatterns
urlpatterns += dashboard.urlpatterns
urlpatterns += webhooks.urlpatterns
urlpatterns += site.urlpatterns  # the site's own settings (staff)
urlpatterns += corrections.urlpatterns  # the organiser's corrections (R-SEC-2)
