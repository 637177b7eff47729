"""Addresses of the map editor's planets and tiles page and the corrections log,
included in ``web.urls`` under the ``campaigns`` namespace."""

from django.urls import path

from web.views import corrections_log
from web.views import map_editor as views

CAMPAIGN = "campaigns/<int:campaign_id>/"
EDITOR = CAMPAIGN + "manage/map/editor/"
PLANET = EDITOR + "planets/<int:planet_id>/"
TILE = EDITOR + "tiles/<int:tile_id>/"

urlpatterns = [
    path(EDITOR, views.editor_page, name="map-editor"),
    path(EDITOR + "export/", views.map_export, name="map-editor-export"),
    path(EDITOR + "import/", views.map_upload, name="map-editor-import"),
    path(EDITOR + "planets/", views.planet_add, name="map-editor-planet-add"),
    path(PLANET + "rename/", views.planet_rename, name="map-editor-planet-rename"),
    path(PLANET + "delete/", views.planet_remove, name="map-editor-planet-delete"),
    path(PLANET + "tiles/", views.tile_add, name="map-editor-tile-add"),
    path(TILE + "edit/", views.tile_save, name="map-editor-tile-save"),
    path(TILE + "move/", views.tile_move, name="map-editor-tile-move"),
    path(TILE + "delete/", views.tile_remove, name="map-editor-tile-delete"),
    path(TILE + "markers/", views.marker_add, name="map-editor-marker-add"),
    path(EDITOR + "markers/<int:marker_id>/delete/", views.marker_remove,
         name="map-editor-marker-delete"),
    path(TILE + "links/", views.link_add, name="map-editor-tile-link-add"),
    path(EDITOR + "tile-links/<int:link_id>/delete/", views.link_remove,
         name="map-editor-tile-link-delete"),
    path(CAMPAIGN + "log/", corrections_log.log_page, name="corrections-log"),
]
