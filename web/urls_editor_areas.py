"""Addresses of the map editor's areas and fleets pages, included in
``web.urls`` under the ``campaigns`` namespace."""

from django.urls import path

from web.views import editor_areas as views

EDITOR = "campaigns/<int:campaign_id>/manage/map/editor/"
AREAS = EDITOR + "areas/"
AREA = AREAS + "<int:area_id>/"

urlpatterns = [
    path(AREAS, views.areas_page, name="map-editor-areas"),
    path(AREAS + "new/", views.area_create, name="map-editor-area-create"),
    path(AREAS + "links/add/", views.link_add, name="map-editor-link-add"),
    path(AREAS + "links/remove/", views.link_remove, name="map-editor-link-remove"),
    path(AREA, views.area_page, name="map-editor-area"),
    path(AREA + "edit/", views.area_update, name="map-editor-area-update"),
    path(AREA + "delete/", views.area_delete, name="map-editor-area-delete"),
    path(AREA + "borders/", views.borders_save, name="map-editor-borders"),
    path(AREA + "fleets/", views.fleet_create, name="map-editor-fleet-create"),
    path(AREA + "hazards/", views.hazard_create, name="map-editor-hazard-create"),
    path(EDITOR + "fleets/<int:fleet_id>/edit/", views.fleet_update,
         name="map-editor-fleet-update"),
    path(EDITOR + "fleets/<int:fleet_id>/delete/", views.fleet_delete,
         name="map-editor-fleet-delete"),
    path(EDITOR + "fleets/<int:fleet_id>/ships/", views.ship_create,
         name="map-editor-ship-create"),
    path(EDITOR + "ships/<int:ship_id>/edit/", views.ship_update, name="map-editor-ship-update"),
    path(EDITOR + "ships/<int:ship_id>/delete/", views.ship_delete,
         name="map-editor-ship-delete"),
    path(EDITOR + "hazards/<int:hazard_id>/edit/", views.hazard_update,
         name="map-editor-hazard-update"),
    path(EDITOR + "hazards/<int:hazard_id>/delete/", views.hazard_delete,
         name="map-editor-hazard-delete"),
]
