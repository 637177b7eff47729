"""The map editor's planets and tiles page (campaign admin only):
/manage/map/editor/ lists the planets (add, rename, delete) and draws the chosen planet's hex
grid with the free hexes around its tiles. A free hex adds a tile there (``static/editor.js``
posts the add form on a click or Enter; without script the hex's link fills that form); a tile
opens its form: name, owner, features (R-MAP-2), markers (R-MRK), moving, deleting and explicit
links (R-MAP-1). The page also imports and exports the map document.

Every form posts to an action that calls the map service the API calls, with the admin as the
actor: in a running campaign each change is a correction, refused while the fleets phase runs
(409) and logged (``campaigns.services.corrections``) with the reason the form may give. An
invalid form or a refusal shows the page again with the service's message next to the field it
names."""

import re

from django.contrib import messages
from django.db.models import Count, Q
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.errors import DomainError
from campaigns.models import Marker, Planet, Tile, TileLink
from campaigns.services import map as services
from campaigns.services.corrections import AUTOMATIC_PHASES, is_running
from campaigns.services.map_facts import tile_label
from campaigns.values import parse_number
from league.selectors.map import map_document
from web.forms.common import add_service_error
from web.forms.manage import MapImportForm
from web.forms.map_editor import (
    NEUTRAL,
    SERVICE_FIELDS,
    DeleteForm,
    HexForm,
    LinkForm,
    MarkerForm,
    PlanetForm,
    TileForm,
)
from web.presenters.editor_grid import editor_grid
from web.views.map_import import import_upload
from web.views.scope import Scope, campaign_page

_SIGNED = re.compile(r"-?[0-9]{1,6}")


def _signed(value) -> int | None:
    return int(value) if isinstance(value, str) and _SIGNED.fullmatch(value) else None


def editor_url(scope: Scope, *, planet=None, tile=None, slot=None, anchor: str = "") -> str:
    query = {}
    if tile is not None:
        query["tile"] = tile.pk
    elif planet is not None:
        query["planet"] = planet.pk
    if slot is not None:
        query.update(q=slot[0], r=slot[1])
    url = reverse("campaigns:map-editor", args=[scope.campaign.pk])
    return url + (f"?{urlencode(query)}" if query else "") + (f"#{anchor}" if anchor else "")


# --- reading ---------------------------------------------------------------------------------

def _tile_forms(campaign, tile: Tile) -> dict:
    return {
        "tile_form": lambda: TileForm(campaign=campaign, prefix="tile", initial={
            "name": tile.name, "owner": tile.owner_id or NEUTRAL, "features": tile.features}),
        "move_form": lambda: HexForm(prefix="move", initial={"q": tile.q, "r": tile.r}),
        "marker_form": lambda: MarkerForm(campaign=campaign, prefix="marker"),
        "link_form": lambda: LinkForm(campaign=campaign, tile=tile, prefix="link"),
    }


def _tile_links(tile: Tile) -> list[dict]:
    rows = []
    for link in (TileLink.objects.filter(Q(a=tile) | Q(b=tile))
                 .select_related("a__planet", "b__planet").order_by("id")):
        other = link.b if link.a_id == tile.pk else link.a
        rows.append({"link": link, "other": other, "label": tile_label(other)})
    return rows


def render_editor(request, scope: Scope, *, planet=None, tile=None, slot=None,
                  status: int = 200, map_errors=None, **given):
    """The page, with fresh forms except those ``given`` bound (by name)."""
    campaign = scope.campaign
    planets = list(Planet.objects.filter(campaign=campaign).annotate(tile_count=Count("tiles"))
                   .order_by("id"))
    if tile is not None:
        planet = tile.planet
    elif planet is None and planets:
        planet = planets[0]
    fresh = {
        "new_planet_form": lambda: PlanetForm(prefix="new"),
        "slot_form": lambda: HexForm(prefix="slot", initial=dict(zip("qr", slot or (),
                                                                     strict=False))),
        "import_form": MapImportForm,
        "action_form": DeleteForm,
    }
    if planet is not None:
        fresh["rename_form"] = lambda: PlanetForm(prefix="planet", initial={"name": planet.name})
    if tile is not None:
        fresh.update(_tile_forms(campaign, tile))
    built = {name: given[name] if given.get(name) is not None else make()
             for name, make in fresh.items()}
    grid = None
    if planet is not None:
        tiles = (Tile.objects.filter(planet=planet).select_related("owner")
                 .prefetch_related("markers").order_by("r", "q"))
        grid = editor_grid(tiles, selected_tile=tile.pk if tile else None, selected_slot=slot)
    rnd = scope.round
    context = scope.context(
        editor_tab="planets", planets=planets, planet=planet, tile=tile, slot=slot, grid=grid,
        tile_name=tile_label(tile) if tile else "",
        markers=list(tile.markers.select_related("type").order_by("id")) if tile else [],
        links=_tile_links(tile) if tile else [], map_errors=map_errors or {},
        running=is_running(campaign),
        refused=rnd is not None and rnd.phase in AUTOMATIC_PHASES, **built)
    return render(request, "web/map_editor.html", context, status=status)


@require_GET
@campaign_page("admin")
def editor_page(request, scope: Scope):
    campaign = scope.campaign
    tile = planet = None
    tile_id, planet_id = parse_number(request.GET.get("tile")), parse_number(
        request.GET.get("planet"))
    if tile_id is not None:
        tile = Tile.objects.select_related("planet", "owner").filter(
            campaign=campaign, pk=tile_id).first()
    if tile is None and planet_id is not None:
        planet = Planet.objects.filter(campaign=campaign, pk=planet_id).first()
    q, r = _signed(request.GET.get("q")), _signed(request.GET.get("r"))
    slot = (q, r) if q is not None and r is not None and tile is None else None
    return render_editor(request, scope, planet=planet, tile=tile, slot=slot)


@require_GET
@campaign_page("admin")
def map_export(request, scope: Scope):
    """The map document as a file, the shape the import takes (tile names included)."""
    response = JsonResponse(map_document(scope.campaign, request.user),
                            json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = (
        f'attachment; filename="campaign-{scope.campaign.pk}-map.json"')
    return response


# --- writing ---------------------------------------------------------------------------------

def admin_post(view):
    return require_POST(campaign_page("admin")(view))


def _run(request, scope: Scope, form, call, *, form_name: str, again: dict, fields=None):
    """Validate ``form``, run ``call(data)`` -> (message, address) and go there; else the
    page again with the bound form (400, or the refusal's status: 409 for a refused phase)."""
    status = 400
    if form.is_valid():
        try:
            message, url = call(form.cleaned_data)
        except DomainError as exc:
            add_service_error(form, exc, fields)
            status = exc.status
        else:
            messages.success(request, message)
            return redirect(url)
    return render_editor(request, scope, status=status, **again, **{form_name: form})


def _tile(scope: Scope, tile_id: int) -> Tile:
    return get_object_or_404(Tile.objects.select_related("planet", "owner"),
                             campaign=scope.campaign, pk=tile_id)


def _planet(scope: Scope, planet_id: int) -> Planet:
    return get_object_or_404(Planet, campaign=scope.campaign, pk=planet_id)


@admin_post
def planet_add(request, scope: Scope):
    def add(data):
        planet = services.planet_create(campaign=scope.campaign, name=data["name"],
                                        actor=request.user, reason=data["reason"])
        return (_("Planet %(name)s added.") % {"name": planet.name},
                editor_url(scope, planet=planet, anchor="grid"))

    return _run(request, scope, PlanetForm(request.POST, prefix="new"), add,
                form_name="new_planet_form", again={})


@admin_post
def planet_rename(request, scope: Scope, planet_id: int):
    planet = _planet(scope, planet_id)

    def rename(data):
        services.planet_update(planet=planet, name=data["name"], actor=request.user,
                               reason=data["reason"])
        return _("Planet renamed to %(name)s.") % {"name": planet.name}, editor_url(
            scope, planet=planet)

    return _run(request, scope, PlanetForm(request.POST, prefix="planet"), rename,
                form_name="rename_form", again={"planet": _planet(scope, planet_id)})


@admin_post
def planet_remove(request, scope: Scope, planet_id: int):
    planet = _planet(scope, planet_id)

    def remove(data):
        name = planet.name
        services.planet_delete(planet=planet, actor=request.user, reason=data["reason"])
        return _("Planet %(name)s deleted.") % {"name": name}, editor_url(scope)

    return _run(request, scope, DeleteForm(request.POST), remove, form_name="action_form",
                again={"planet": _planet(scope, planet_id)})


@admin_post
def tile_add(request, scope: Scope, planet_id: int):
    planet = _planet(scope, planet_id)
    form = HexForm(request.POST, prefix="slot")

    def add(data):
        tile = services.tile_create(campaign=scope.campaign, planet=planet, q=data["q"],
                                    r=data["r"], actor=request.user, reason=data["reason"])
        return (_("Tile %(tile)s added.") % {"tile": tile_label(tile)},
                editor_url(scope, tile=tile, anchor="tile-panel"))

    return _run(request, scope, form, add, form_name="slot_form", again={"planet": planet})


@admin_post
def tile_save(request, scope: Scope, tile_id: int):
    tile = _tile(scope, tile_id)

    def save(data):
        services.tile_update(tile=tile, name=data["name"], owner=data["owner"],
                             features=list(data["features"]), actor=request.user,
                             reason=data["reason"])
        return (_("Tile %(tile)s saved.") % {"tile": tile_label(tile)},
                editor_url(scope, tile=tile, anchor="tile-panel"))

    return _run(request, scope, TileForm(request.POST, campaign=scope.campaign, prefix="tile"),
                save, form_name="tile_form", again={"tile": _tile(scope, tile_id)})


@admin_post
def tile_move(request, scope: Scope, tile_id: int):
    tile = _tile(scope, tile_id)

    def move(data):
        services.tile_update(tile=tile, q=data["q"], r=data["r"], actor=request.user,
                             reason=data["reason"])
        return (_("Tile moved to %(tile)s.") % {"tile": tile_label(tile)},
                editor_url(scope, tile=tile, anchor="tile-panel"))

    return _run(request, scope, HexForm(request.POST, prefix="move"), move,
                form_name="move_form", again={"tile": _tile(scope, tile_id)})


@admin_post
def tile_remove(request, scope: Scope, tile_id: int):
    tile = _tile(scope, tile_id)

    def remove(data):
        label, planet = tile_label(tile), tile.planet
        services.tile_delete(tile=tile, actor=request.user, reason=data["reason"])
        return _("Tile %(tile)s deleted.") % {"tile": label}, editor_url(
            scope, planet=planet, anchor="grid")

    return _run(request, scope, DeleteForm(request.POST), remove, form_name="action_form",
                again={"tile": _tile(scope, tile_id)})


@admin_post
def marker_add(request, scope: Scope, tile_id: int):
    tile = _tile(scope, tile_id)

    def add(data):
        services.marker_create(campaign=scope.campaign, tile=tile, type=data["type"],
                               actor=request.user, reason=data["reason"])
        return (_("Marker added to %(tile)s.") % {"tile": tile_label(tile)},
                editor_url(scope, tile=tile, anchor="markers"))

    return _run(request, scope, MarkerForm(request.POST, campaign=scope.campaign,
                                           prefix="marker"),
                add, form_name="marker_form", again={"tile": tile}, fields=SERVICE_FIELDS)


@admin_post
def marker_remove(request, scope: Scope, marker_id: int):
    marker = get_object_or_404(Marker.objects.select_related("tile__planet", "type"),
                               campaign=scope.campaign, pk=marker_id)
    tile = marker.tile

    def remove(data):
        services.marker_delete(marker=marker, actor=request.user, reason=data["reason"])
        return (_("Marker removed from %(tile)s.") % {"tile": tile_label(tile)},
                editor_url(scope, tile=tile, anchor="markers"))

    return _run(request, scope, DeleteForm(request.POST), remove, form_name="action_form",
                again={"tile": tile})


@admin_post
def link_add(request, scope: Scope, tile_id: int):
    tile = _tile(scope, tile_id)

    def add(data):
        services.tile_link_create(campaign=scope.campaign, a=tile, b=data["other"],
                                  actor=request.user, reason=data["reason"])
        return (_("%(a)s and %(b)s are linked.") % {"a": tile_label(tile),
                                                   "b": tile_label(data["other"])},
                editor_url(scope, tile=tile, anchor="links"))

    form = LinkForm(request.POST, campaign=scope.campaign, tile=tile, prefix="link")
    return _run(request, scope, form, add, form_name="link_form", again={"tile": tile},
                fields=SERVICE_FIELDS)


@admin_post
def link_remove(request, scope: Scope, link_id: int):
    link = get_object_or_404(TileLink.objects.select_related("a__planet", "b__planet"),
                             campaign=scope.campaign, pk=link_id)
    back = link.b if parse_number(request.POST.get("from")) == link.b_id else link.a

    def remove(data):
        services.tile_link_delete(link=link, actor=request.user, reason=data["reason"])
        return _("The link was removed."), editor_url(scope, tile=back, anchor="links")

    return _run(request, scope, DeleteForm(request.POST), remove, form_name="action_form",
                again={"tile": back})


@admin_post
def map_upload(request, scope: Scope):
    """Replace the whole map from a document (the manage page's import, answered here)."""
    form, errors, status = import_upload(request, scope)
    if status is None:
        messages.success(request, _("Map imported."))
        return redirect(editor_url(scope))
    return render_editor(request, scope, status=status, import_form=form, map_errors=errors)
