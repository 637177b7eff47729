"""Addresses of the campaign pages; links and bookmarks depend on them. Pages of
other apps (battles, fleets, naval battles) add theirs under the same ``campaigns/<id>/``."""

from django.urls import path

from web.urls_editor_areas import urlpatterns as editor_area_urls
from web.urls_editor_tiles import urlpatterns as editor_tile_urls
from web.views import (
    absences,
    admins,
    archive,
    audit,
    battles,
    campaign,
    conquest,
    corrections,
    dashboard,
    fleets,
    home,
    manage,
    map_history,
    members,
    naval,
    pause,
    phase_done,
    players,
    rules,
    site_settings,
    standings,
    webhooks,
)
from web.views import map as map_views
from web.views.news_feed import campaign_news_feed

app_name = "campaigns"
CAMPAIGN = "campaigns/<int:campaign_id>/"
MANAGE = CAMPAIGN + "manage/"
BATTLE = CAMPAIGN + "battles/<int:battle_id>/"
FLEET = CAMPAIGN + "fleets/<int:fleet_id>/"

urlpatterns = [
    path("", home.index, name="index"),
    path("campaigns/new/", home.create, name="create"),
    path("campaigns/import/", archive.archive_upload, name="import-archive"),
    path("rules/", rules.rules_page, name="rules"),  # the players' rules
    path("site/settings/", site_settings.site_settings_page, name="site-settings"),  # staff
    path(CAMPAIGN, campaign.detail, name="detail"),
    path(CAMPAIGN + "map/", map_views.map_page, name="map"),
    path(CAMPAIGN + "map/history/", map_history.map_history_page, name="map-history"),
    path(CAMPAIGN + "map/text/", map_views.map_text_page, name="map-text"),
    path(CAMPAIGN + "map/tiles/<int:tile_id>/", map_views.tile_panel, name="tile"),
    path(CAMPAIGN + "map/declare/", map_views.declare, name="declare"),
    path(CAMPAIGN + "map/purchase/", map_views.purchase, name="purchase"),
    path(CAMPAIGN + "map/attacks/<int:attack_id>/withdraw/", map_views.withdraw,
         name="withdraw"),
    path(CAMPAIGN + "battles/", battles.battle_list, name="battles"),
    path(CAMPAIGN + "battles/calendar/", battles.calendar_feed, name="calendar-feed"),
    path(BATTLE, battles.battle_detail, name="battle"),
    path(BATTLE + "army-list/", battles.list_submit, name="battle-list"),
    path(BATTLE + "schedule/", battles.date_propose, name="battle-propose"),
    path(BATTLE + "schedule/accept/", battles.date_accept, name="battle-accept"),
    path(BATTLE + "result/", battles.result_report, name="battle-report"),
    path(BATTLE + "result/confirm/", battles.result_confirm, name="battle-confirm"),
    path(BATTLE + "result/dispute/", battles.result_dispute, name="battle-dispute"),
    path(BATTLE + "chain/", battles.chain_decision, name="battle-chain"),
    path(CAMPAIGN + "fleets/", fleets.fleets_page, name="fleets"),
    path(FLEET + "orders/", fleets.orders_save, name="fleet-orders"),
    path(FLEET + "standing-orders/", fleets.standing_orders_save,
         name="fleet-standing-orders"),
    path(FLEET + "embark/", fleets.embark, name="fleet-embark"),
    path(FLEET + "disembark/", fleets.disembark, name="fleet-disembark"),
    path(CAMPAIGN + "fleets/odds/", fleets.naval_odds, name="naval-odds"),
    path(CAMPAIGN + "naval-battles/<int:naval_id>/", naval.naval_battle_page,
         name="naval-battle"),
    path(CAMPAIGN + "conquest/", conquest.conquest_page, name="conquest"),
    path(CAMPAIGN + "conquest/preview/", conquest.conquest_preview, name="conquest-preview"),
    path(CAMPAIGN + "standings/", standings.standings_page, name="standings"),
    path(CAMPAIGN + "rules/", rules.campaign_rules_page, name="campaign-rules"),
    path(MANAGE + "guide/", rules.guide_page, name="guide"),  # the organiser's guide
    # absences
    path(CAMPAIGN + "absences/", absences.absence_add, name="absence-add"),
    path(CAMPAIGN + "absences/<int:absence_id>/withdraw/", absences.absence_withdraw,
         name="absence-withdraw"),
    path(CAMPAIGN + "done/", phase_done.phase_done, name="phase-done"),
    path(CAMPAIGN + "rounds/<int:number>/audit/", audit.audit_page, name="audit"),
    path(CAMPAIGN + "rounds/<int:number>/audit/verify/", audit.verify, name="verify"),
    path(MANAGE, manage.manage_page, name="manage"),
    path(MANAGE + "dashboard/", dashboard.dashboard_page, name="dashboard"),
    path(MANAGE + "dashboard/nudge/", dashboard.nudge, name="dashboard-nudge"),
    path(MANAGE + "settings/", manage.settings_save, name="manage-settings"),
    path(MANAGE + "ruleset/", manage.ruleset_save, name="manage-ruleset"),
    path(MANAGE + "map/", manage.map_upload, name="manage-map"),
    path(MANAGE + "archive/", archive.archive_download, name="manage-archive"),
    path(MANAGE + "sandbox/", archive.sandbox_create, name="manage-sandbox"),
    path(MANAGE + "players/", manage.player_add, name="manage-players"),
    path(MANAGE + "deadline/", manage.deadline_set, name="manage-deadline"),
    path(MANAGE + "advance/", manage.advance, name="manage-advance"),
    # pause, resume, extend the current deadline
    path(MANAGE + "pause/", pause.pause, name="manage-pause"),
    path(MANAGE + "resume/", pause.resume, name="manage-resume"),
    path(MANAGE + "extend/", pause.extend, name="manage-extend"),
    path(MANAGE + "battles/<int:battle_id>/result/", manage.result_enter,
         name="manage-result"),
    # members: invitations and join requests
    path(MANAGE + "members/", members.members_page, name="manage-members"),
    path(MANAGE + "members/invite/", members.invite_emails, name="manage-invite"),
    path(MANAGE + "members/links/", members.invite_link, name="manage-invite-link"),
    path(MANAGE + "members/invitations/<int:invitation_id>/resend/",
         members.invitation_resend, name="manage-invitation-resend"),
    path(MANAGE + "members/invitations/<int:invitation_id>/revoke/",
         members.invitation_revoke, name="manage-invitation-revoke"),
    path(MANAGE + "members/join-requests/", members.join_settings, name="manage-join-settings"),
    path(MANAGE + "members/join-requests/<int:request_id>/accept/", members.join_accept,
         name="manage-join-accept"),
    path(MANAGE + "members/join-requests/<int:request_id>/decline/", members.join_decline,
         name="manage-join-decline"),
    # managing players
    path(MANAGE + "members/players/<int:player_id>/edit/", players.player_edit,
         name="manage-player-edit"),
    path(MANAGE + "members/players/<int:player_id>/remove/", players.player_remove,
         name="manage-player-remove"),
    path(MANAGE + "members/players/<int:player_id>/replace/", players.player_replace,
         name="manage-player-replace"),
    path(MANAGE + "members/players/<int:player_id>/invite/", players.player_invite,
         name="manage-player-invite"),
    # the organiser's corrections (R-SEC-2)
    path(MANAGE + "members/players/<int:player_id>/corrections/",
         corrections.player_corrections, name="player-corrections"),
    path(MANAGE + "members/players/<int:player_id>/corrections/armies/",
         corrections.armies_adjust, name="player-armies"),
    path(MANAGE + "members/players/<int:player_id>/corrections/done/",
         corrections.done_mark, name="player-done"),
    path(MANAGE + "members/players/<int:player_id>/corrections/away/",
         corrections.away_mark, name="player-away"),
    path(MANAGE + "members/players/<int:player_id>/corrections/attacks/<int:attack_id>/"
         "cancel/", corrections.attack_cancel, name="player-attack-cancel"),
    path(MANAGE + "battles/<int:battle_id>/correct/", corrections.result_correct,
         name="battle-correct"),
    path(MANAGE + "battles/<int:battle_id>/void/", corrections.result_void,
         name="battle-void"),
    # naming and removing campaign admins
    path(MANAGE + "members/admins/", admins.admin_add, name="manage-admin-add"),
    path(MANAGE + "members/admins/<int:user_id>/remove/", admins.admin_remove,
         name="manage-admin-remove"),
    path(CAMPAIGN + "join/", members.join_page, name="join"),
    # webhooks and the news feed
    path(MANAGE + "webhooks/", webhooks.webhooks_page, name="webhooks"),
    path(MANAGE + "webhooks/<int:hook_id>/", webhooks.webhook_page, name="webhook"),
    path(MANAGE + "webhooks/<int:hook_id>/delete/", webhooks.webhook_delete,
         name="webhook-delete"),
    path(MANAGE + "webhooks/<int:hook_id>/test/", webhooks.webhook_test, name="webhook-test"),
    path(CAMPAIGN + "feed.atom", campaign_news_feed, name="news-feed"),
    path("invite/<str:token>/", members.invitation_page, name="invitation"),
]
urlpatterns += editor_area_urls  # the map editor's areas and fleets
urlpatterns += editor_tile_urls  # the map editor's planets and tiles, the log
