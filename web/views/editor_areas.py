"""The map editor's areas and fleets pages (campaign admin only).

/manage/map/editor/areas/ lists the sea and space areas as a chart with their links (two
clicks link two areas; ``static/editor-areas.js``, with a two-select form without script) and
adds areas; /manage/map/editor/areas/<id>/ edits one area: its name, kind, orbit, owner and
coastal borders, its fleets with their ships, and its hidden hazards.

Every form posts to an action that calls the service the API calls (``fleets.services``); a
running campaign's change is a correction (refused while the fleets phase runs, logged). An
invalid form or a refusal shows the page again (400, 409 for a refused phase) with the
service's message, naming the rule, next to the field."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.errors import DomainError
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services.corrections import is_running
from fleets.models import Area, Fleet, SeaHazard, Ship
from fleets.services import area_links, areas, hazards, ships
from fleets.services import fleets as fleet_services
from web.forms.common import add_service_error
from web.forms.editor_areas import (
    SERVICE_FIELDS,
    AreaForm,
    BordersForm,
    FleetForm,
    HazardForm,
    LinkForm,
    ShipForm,
)
from web.presenters.area_chart import area_chart
from web.templatetags.feldzug import explained
from web.views.scope import Scope, campaign_page

# --- reading ---------------------------------------------------------------------------------


def _areas(campaign):
    return list(Area.objects.filter(campaign=campaign).select_related("planet", "owner")
                .prefetch_related("adjacent").order_by("id"))


def _links(area_list) -> list[tuple[Area, Area]]:
    by_id = {a.pk: a for a in area_list}
    return [(a, by_id[b.pk]) for a in area_list for b in a.adjacent.all()
            if a.pk < b.pk and b.pk in by_id]


def render_areas(request, scope: Scope, *, status: int = 200, area_form=None, link_form=None):
    campaign = scope.campaign
    area_list = _areas(campaign)
    links = _links(area_list)
    counts: dict[int, int] = {}
    for area_id in Fleet.objects.filter(campaign=campaign).values_list("area_id", flat=True):
        counts[area_id] = counts.get(area_id, 0) + 1
    context = scope.context(
        rows=[(area, counts.get(area.pk, 0)) for area in area_list], links=links,
        chart=area_chart(area_list, [(a.pk, b.pk) for a, b in links], counts),
        area_form=area_form or AreaForm(campaign=campaign, prefix="new"),
        link_form=link_form or LinkForm(campaign=campaign, prefix="link"), editor_tab="areas",
        running=is_running(campaign))
    return render(request, "web/editor_areas.html", context, status=status)


def _is_d6(campaign) -> bool:
    return ruleset_of(campaign).naval_engine == "d6_space"


def _fleet_rows(scope: Scope, area: Area, bound: dict, d6: bool) -> list[dict]:
    campaign = scope.campaign
    rows = []
    fleets = (Fleet.objects.filter(area=area).select_related("owner")
              .prefetch_related("ships").order_by("id"))
    for fleet in fleets:
        initial = {"name": fleet.name, "owner": fleet.owner_id, "kind": fleet.kind,
                   "admiral_rating": fleet.admiral_rating, "area": fleet.area_id}
        ship_rows = [{"ship": ship, "form": bound.get(f"ship-{ship.pk}") or ShipForm(
            initial=ShipForm.initial_of(ship), datasheet=d6, prefix=f"ship{ship.pk}")}
            for ship in sorted(fleet.ships.all(), key=lambda s: (s.position, s.pk))]
        rows.append({
            "fleet": fleet, "ships": ship_rows,
            "form": bound.get(f"fleet-{fleet.pk}") or FleetForm(
                campaign=campaign, initial=initial, prefix=f"fleet{fleet.pk}"),
            "new_ship": bound.get(f"new-ship-{fleet.pk}") or ShipForm(
                datasheet=d6, prefix=f"newship{fleet.pk}")})
    return rows


def render_area(request, scope: Scope, area: Area, *, status: int = 200, bound=None):
    """The area's page; ``bound`` holds a submitted form that failed, by its key."""
    campaign, bound = scope.campaign, bound or {}
    d6 = _is_d6(campaign)
    area_initial = {"name": area.name, "kind": area.kind, "planet": area.planet_id,
                    "owner": area.owner_id}
    hazard_rows = [{"hazard": h, "form": bound.get(f"hazard-{h.pk}") or HazardForm(
        initial={"name": h.name, "attack": h.attack, "defence": h.defence,
                 "agility": h.agility}, prefix=f"hazard{h.pk}")}
        for h in SeaHazard.objects.filter(area=area).order_by("id")]
    context = scope.context(
        area=area, d6=d6, editor_tab="areas", running=is_running(campaign),
        neighbours=area.adjacent.order_by("name"),
        area_form=bound.get("area") or AreaForm(campaign=campaign, initial=area_initial,
                                                prefix="area"),
        borders_form=bound.get("borders") or BordersForm(
            campaign=campaign, prefix="borders",
            initial={"tiles": list(area.borders_tiles.values_list("pk", flat=True))}),
        fleets=_fleet_rows(scope, area, bound, d6),
        new_fleet=bound.get("new-fleet") or FleetForm(
            campaign=campaign, prefix="newfleet", initial={"area": area.pk}),
        hazards=hazard_rows,
        new_hazard=bound.get("new-hazard") or HazardForm(prefix="newhazard"))
    return render(request, "web/editor_area.html", context, status=status)


@require_GET
@campaign_page("admin")
def areas_page(request, scope: Scope):
    return render_areas(request, scope)


@require_GET
@campaign_page("admin")
def area_page(request, scope: Scope, area_id: int):
    return render_area(request, scope, _area(scope, area_id))


# --- writing ---------------------------------------------------------------------------------


def _area(scope: Scope, area_id: int) -> Area:
    return get_object_or_404(Area.objects.select_related("campaign"), campaign=scope.campaign,
                             pk=area_id)


def _refuse(form, exc: DomainError) -> int:
    add_service_error(form, exc, SERVICE_FIELDS)
    return exc.status


def _act(request, form, call, *, done, again):
    """Validate ``form``, run ``call(cleaned_data)`` (a service; returns the message), then
    ``done()``; otherwise ``again(form, status)``: 400, or the refusal's own status (409)."""
    if form.is_valid():
        try:
            message = call(form.cleaned_data)
        except DomainError as exc:
            return again(form, _refuse(form, exc))
        messages.success(request, message)
        return done()
    return again(form, 400)


def _to_areas(scope: Scope, anchor: str = ""):
    response = redirect("campaigns:map-editor-areas", scope.campaign.pk)
    if anchor:
        response["Location"] += f"#{anchor}"
    return response


def _to_area(scope: Scope, area_id: int, anchor: str = ""):
    response = redirect("campaigns:map-editor-area", scope.campaign.pk, area_id)
    if anchor:
        response["Location"] += f"#{anchor}"
    return response


def admin_post(view):
    return require_POST(campaign_page("admin")(view))


def _reason(request) -> str:
    """A delete button's optional reason (no form: the service checks it)."""
    return request.POST.get("reason", "")


def _simple(request, scope: Scope, call, message: str, done):
    """An action without input (delete): run it, or show its refusal as a message."""
    try:
        call()
    except DomainError as exc:
        messages.error(request, explained(exc))
    else:
        messages.success(request, message)
    return done()


@admin_post
def area_create(request, scope: Scope):
    user = request.user

    def create(data):
        area = areas.area_create(campaign=scope.campaign, actor=user, **data)
        return _("Area %(name)s added.") % {"name": area.name}

    return _act(request, AreaForm(request.POST, campaign=scope.campaign, prefix="new"), create,
                done=lambda: _to_areas(scope, "areas"),
                again=lambda form, status: render_areas(request, scope, status=status,
                                                        area_form=form))


def _link_action(request, scope: Scope, service, message: str):
    def link(data):
        service(a=data["a"], b=data["b"], actor=request.user, reason=data["reason"])
        return message % {"a": data["a"].name, "b": data["b"].name}

    return _act(request, LinkForm(request.POST, campaign=scope.campaign, prefix="link"), link,
                done=lambda: _to_areas(scope),
                again=lambda form, status: render_areas(request, scope, status=status,
                                                        link_form=form))


@admin_post
def link_add(request, scope: Scope):
    return _link_action(request, scope, area_links.area_link_add,
                        _("%(a)s and %(b)s are linked."))


@admin_post
def link_remove(request, scope: Scope):
    return _link_action(request, scope, area_links.area_link_remove,
                        _("%(a)s and %(b)s are no longer linked."))


@admin_post
def area_update(request, scope: Scope, area_id: int):
    area = _area(scope, area_id)

    def save(data):
        areas.area_update(area=area, actor=request.user, **data)
        return _("Area saved.")

    return _act(request, AreaForm(request.POST, campaign=scope.campaign, prefix="area"), save,
                done=lambda: _to_area(scope, area.pk),
                again=lambda form, status: render_area(request, scope, _area(scope, area_id),
                                                       status=status, bound={"area": form}))


@admin_post
def area_delete(request, scope: Scope, area_id: int):
    area = _area(scope, area_id)
    try:
        areas.area_delete(area=area, actor=request.user, reason=_reason(request))
    except DomainError as exc:
        messages.error(request, explained(exc))
        return _to_area(scope, area.pk)
    messages.success(request, _("Area deleted."))
    return _to_areas(scope, "areas")


@admin_post
def borders_save(request, scope: Scope, area_id: int):
    area = _area(scope, area_id)

    def save(data):
        area_links.area_borders_set(area=area, tiles=data["tiles"], actor=request.user,
                                    reason=data["reason"])
        return _("Coastal borders saved.")

    return _act(request, BordersForm(request.POST, campaign=scope.campaign, prefix="borders"),
                save, done=lambda: _to_area(scope, area.pk, "borders"),
                again=lambda form, status: render_area(request, scope, area, status=status,
                                                       bound={"borders": form}))


# --- fleets, ships, hazards ------------------------------------------------------------------


def _fleet(scope: Scope, fleet_id: int) -> Fleet:
    return get_object_or_404(Fleet, campaign=scope.campaign, pk=fleet_id)


def _again(request, scope: Scope, area_id: int, key: str):
    return lambda form, status: render_area(request, scope, _area(scope, area_id),
                                            status=status, bound={key: form})


@admin_post
def fleet_create(request, scope: Scope, area_id: int):
    area = _area(scope, area_id)
    form = FleetForm(request.POST, campaign=scope.campaign, prefix="newfleet")

    def place(data):
        fleet = fleet_services.fleet_create(campaign=scope.campaign, actor=request.user, **data)
        return _("Fleet %(name)s placed.") % {"name": fleet.name}

    return _act(request, form, place, done=lambda: _to_area(scope, area.pk, "fleets"),
                again=_again(request, scope, area.pk, "new-fleet"))


@admin_post
def fleet_update(request, scope: Scope, fleet_id: int):
    fleet = _fleet(scope, fleet_id)
    form = FleetForm(request.POST, campaign=scope.campaign, prefix=f"fleet{fleet.pk}")

    def save(data):
        fleet_services.fleet_update(fleet=fleet, actor=request.user, **data)
        return _("Fleet saved.")

    return _act(request, form, save,
                done=lambda: _to_area(scope, form.cleaned_data["area"].pk, f"fleet-{fleet.pk}"),
                again=_again(request, scope, fleet.area_id, f"fleet-{fleet.pk}"))


@admin_post
def fleet_delete(request, scope: Scope, fleet_id: int):
    fleet = _fleet(scope, fleet_id)
    return _simple(request, scope, lambda: fleet_services.fleet_delete(
        fleet=fleet, actor=request.user, reason=_reason(request)), _("Fleet removed."),
        lambda: _to_area(scope, fleet.area_id, "fleets"))


@admin_post
def ship_create(request, scope: Scope, fleet_id: int):
    fleet = _fleet(scope, fleet_id)
    form = ShipForm(request.POST, datasheet=_is_d6(scope.campaign), prefix=f"newship{fleet.pk}")

    def add(data):
        fleet_services.ship_create(fleet=fleet, actor=request.user, reason=data["reason"],
                                   **form.values())
        return _("Ship added.")

    return _act(request, form, add, done=lambda: _to_area(scope, fleet.area_id,
                                                          f"fleet-{fleet.pk}"),
                again=_again(request, scope, fleet.area_id, f"new-ship-{fleet.pk}"))


def _ship(scope: Scope, ship_id: int) -> Ship:
    return get_object_or_404(Ship.objects.select_related("fleet"),
                             fleet__campaign=scope.campaign, pk=ship_id)


@admin_post
def ship_update(request, scope: Scope, ship_id: int):
    ship = _ship(scope, ship_id)
    form = ShipForm(request.POST, datasheet=_is_d6(scope.campaign), prefix=f"ship{ship.pk}")
    captain = ship.datasheet.get("captain") if isinstance(ship.datasheet, dict) else None

    def save(data):
        ships.ship_update(ship=ship, actor=request.user, reason=data["reason"],
                          **form.values(captain))
        return _("Ship saved.")

    return _act(request, form, save,
                done=lambda: _to_area(scope, ship.fleet.area_id, f"fleet-{ship.fleet_id}"),
                again=_again(request, scope, ship.fleet.area_id, f"ship-{ship.pk}"))


@admin_post
def ship_delete(request, scope: Scope, ship_id: int):
    ship = _ship(scope, ship_id)
    return _simple(request, scope, lambda: ships.ship_delete(ship=ship, actor=request.user,
                                                             reason=_reason(request)),
                   _("Ship removed."),
                   lambda: _to_area(scope, ship.fleet.area_id, f"fleet-{ship.fleet_id}"))


@admin_post
def hazard_create(request, scope: Scope, area_id: int):
    area = _area(scope, area_id)

    def place(data):
        fleet_services.hazard_create(campaign=scope.campaign, area=area, actor=request.user,
                                     **data)
        return _("Hazard placed.")

    return _act(request, HazardForm(request.POST, prefix="newhazard"), place,
                done=lambda: _to_area(scope, area.pk, "hazards"),
                again=_again(request, scope, area.pk, "new-hazard"))


def _hazard(scope: Scope, hazard_id: int) -> SeaHazard:
    return get_object_or_404(SeaHazard, campaign=scope.campaign, pk=hazard_id)


@admin_post
def hazard_update(request, scope: Scope, hazard_id: int):
    hazard = _hazard(scope, hazard_id)

    def save(data):
        hazards.hazard_update(hazard=hazard, actor=request.user, **data)
        return _("Hazard saved.")

    return _act(request, HazardForm(request.POST, prefix=f"hazard{hazard.pk}"), save,
                done=lambda: _to_area(scope, hazard.area_id, "hazards"),
                again=_again(request, scope, hazard.area_id, f"hazard-{hazard.pk}"))


@admin_post
def hazard_delete(request, scope: Scope, hazard_id: int):
    hazard = _hazard(scope, hazard_id)
    return _simple(request, scope, lambda: fleet_services.hazard_delete(
        hazard=hazard, actor=request.user, reason=_reason(request)), _("Hazard removed."),
        lambda: _to_area(scope, hazard.area_id, "hazards"))
