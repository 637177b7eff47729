"""/campaigns/<id>/fleets/: the viewer's fleets in full (ships with values, cargo, crew and
datasheet, standing orders, this round's movement order), with the forms to change them;
other fleets with their public fields only (R-FLT-7); the sea hazards the viewer may see
(R-SEA-2) and the naval battles of rounds past the fleets phase (R-FLT-7, R-NAV-13).

Movement orders are built by clicking areas: each area is a button carrying its neighbours
(``static/feldzug.js`` keeps the path field in step); without script the area numbers are typed.
The services decide whether an order is legal.

The naval odds preview (R-ODDS-1) is a section of the page (``web.views.odds``).

Writes of the fleets page: movement orders (R-FLT-4), standing orders (R-FLT-5), embarking
and disembarking detachments (R-FLT-8), each through ``fleets.services.orders``. Another
player's fleet is refused (403) before any service runs, as in the API; a refusal of the
service lands next to the field it names and the page is shown again (400)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.errors import DomainError
from campaigns.models import Round
from campaigns.selectors.campaigns import player_list
from campaigns.values import parse_number
from fleets.models import Fleet, Ship
from fleets.selectors.fleets import (
    campaign_fleets,
    fleet_views,
    naval_report,
    ship_data,
    visible_hazards,
    visible_naval_battles,
)
from fleets.services import orders
from league.selectors.map import current_map_document
from rules.fleet_phase import EMBARK_AREA_KINDS
from web.forms.common import add_service_error
from web.forms.fleets import DisembarkForm, EmbarkForm, FleetOrderForm, StandingOrdersForm
from web.templatetags.feldzug import explained
from web.views.actions import form_action
from web.views.odds import odds_form, odds_run, odds_section
from web.views.scope import Scope, campaign_page


def _phase(scope: Scope) -> str | None:
    return scope.round.phase if scope.round else None


def _owns(scope: Scope, fleet: dict) -> bool:
    return scope.player is not None and fleet["owner"] == scope.player.pk


def gives_standing_orders(scope: Scope, owner_id: int | None) -> bool:
    """The owner, or the admin for an ownerless (pirate) fleet, as the API allows."""
    if owner_id is None:
        return scope.is_admin
    return scope.player is not None and owner_id == scope.player.pk


def embark_id(ship_id) -> str:
    """Element ids of a ship's embark form: one form per ship on the page."""
    return f"id_e{ship_id}_%s"


def _forms(scope: Scope, fleet: dict, bound: dict) -> dict:
    key = fleet["id"]
    declare = _phase(scope) == Round.Phase.DECLARE and _owns(scope, fleet)
    path = ", ".join(str(a) for a in (fleet["orders"] or {}).get("path", []))
    standing = fleet["standing_orders"]
    forms = {
        "order_form": bound.get(("orders", key)) or (
            FleetOrderForm(initial={"path": path}, prefix=f"f{key}") if declare else None),
        "standing_form": bound.get(("standing", key)) or (
            StandingOrdersForm(ships=fleet["ships"], prefix=f"s{key}", initial={
                "interception": standing["interception"], "stance": standing["stance"],
                "benefits": ", ".join(standing["benefits"])})
            if gives_standing_orders(scope, fleet["owner"])
            and _phase(scope) != Round.Phase.FLEETS else None),
        "transport": declare,
    }
    return forms


def _ships(fleet: dict, area: dict, transport: bool, bound: dict) -> list[dict]:
    ships = []
    for ship in fleet["ships"]:
        embark = None
        if transport and area["kind"] in EMBARK_AREA_KINDS and ship["capacity"]:
            embark = bound.get(("embark", ship["id"])) or EmbarkForm(
                initial={"ship": ship["id"]}, auto_id=embark_id(ship["id"]))
        ships.append({**ship, "embark_form": embark})
    return ships


def _full(scope: Scope, fleet: dict, areas: dict, bound: dict) -> dict:
    area = areas[fleet["area"]]
    forms = _forms(scope, fleet, bound)
    path = (fleet["orders"] or {}).get("path", [])
    return {**fleet, **forms, "area_obj": area,
            "ships": _ships(fleet, area, forms["transport"], bound),
            "path_names": [areas[a]["name"] for a in path if a in areas],
            "line_names": [s["name"] for s in fleet["ships"]]}


def _area_rows(document: dict) -> dict[int, dict]:
    planets = {p["id"]: p["name"] for p in document["planets"]}
    return {a["id"]: {**a, "planet_name": planets.get(a["planet"]),
                      "adjacent_text": " ".join(str(n) for n in a["adjacent"])}
            for a in document["areas"]}


def _load(scope: Scope) -> tuple[list[dict], dict, dict]:
    """The fleets as the viewer may see them (R-FLT-7), the areas and the players."""
    campaign = scope.campaign
    areas = _area_rows(current_map_document(campaign))  # areas only: no fleet is read
    players = {p.pk: p for p in player_list(campaign)}
    views = fleet_views(campaign_fleets(campaign), player=scope.player, is_admin=scope.is_admin,
                        rnd=scope.round)
    return views, areas, players


def fleets_context(scope: Scope, bound: dict | None = None, odds: dict | None = None,
                   loaded: tuple | None = None) -> dict:
    """Everything the page shows; ``bound`` holds the forms of a refused post, keyed by
    (form kind, fleet or ship id), shown instead of fresh ones; ``odds`` the naval odds
    section of a preview (``web.views.odds.odds_section``), else a fresh form for members."""
    bound = bound or {}
    campaign = scope.campaign
    views, areas, players = loaded or _load(scope)
    full = [_full(scope, v, areas, bound) for v in views if "ships" in v]
    public = [{**v, "area_obj": areas[v["area"]], "owner_player": players.get(v["owner"])}
              for v in views if "ships" not in v]
    for fleet in full:
        fleet["owner_player"] = players.get(fleet["owner"])
    context = {"own_fleets": [f for f in full if _owns(scope, f)],
               "admin_fleets": [f for f in full if not _owns(scope, f)],
               "public_fleets": public, "areas": list(areas.values()),
               "in_declare": _phase(scope) == Round.Phase.DECLARE}
    if scope.is_member:
        context["hazards"] = [{"hazard": h, "area_obj": areas.get(h.area_id)} for h in
                              visible_hazards(campaign, player=scope.player,
                                              is_admin=scope.is_admin)]
    context["naval_battles"] = naval_rows(scope, areas, players)
    if odds is None and scope.is_member:
        odds = odds_section(odds_form(scope, views, areas, players))
    context["odds"] = odds
    return scope.context(**context)


def naval_rows(scope: Scope, areas: dict, players: dict) -> list[dict]:
    """Every battle the reader may open (R-FLT-7), with its summary: where, who, the winner."""
    reports = [naval_report(b, player=scope.player, is_admin=scope.is_admin)
               for b in visible_naval_battles(scope.campaign)]
    return [{"report": r, "area_obj": areas.get(r["area"]), "attacker": players.get(r["attacker"]),
             "defender": players.get(r["defender"])} for r in reports]


def render_fleets(request, scope: Scope, bound: dict | None = None, status: int = 200,
                  **extra):
    return render(request, "web/fleets.html", fleets_context(scope, bound, **extra),
                  status=status)


@require_GET
@campaign_page()
def fleets_page(request, scope: Scope):
    return render_fleets(request, scope)


def _fleet(scope: Scope, fleet_id: int) -> Fleet:
    fleet = campaign_fleets(scope.campaign).filter(pk=fleet_id).first()
    if fleet is None:
        raise Http404("No such fleet.")
    return fleet


def _own_fleet(scope: Scope, fleet_id: int) -> Fleet:
    fleet = _fleet(scope, fleet_id)
    if scope.player is None or fleet.owner_id != scope.player.pk:
        raise PermissionDenied(_("Only the fleet's owner may do this."))
    return fleet


def _ship(fleet: Fleet, ship_id) -> Ship:
    ship = next((s for s in fleet.ships.all() if s.pk == ship_id), None)
    if ship is None:
        raise Http404("No such ship in this fleet.")
    return ship


def _back(scope: Scope, fleet: Fleet):
    return redirect(f"{reverse('campaigns:fleets', args=[scope.campaign.pk])}#fleet-{fleet.pk}")


def _field_error(form, exc: DomainError) -> None:
    """``path[2]`` or ``benefits[0]`` name the form field before the bracket."""
    add_service_error(form, exc, {exc.field: (exc.field or "").split("[", 1)[0]})


@require_POST
@campaign_page("player")
def orders_save(request, scope: Scope, fleet_id: int):
    fleet = _own_fleet(scope, fleet_id)

    def save(data):
        order = orders.fleet_set_orders(player=scope.player, fleet=fleet, path=data["path"])
        return _("Movement order saved.") if order else \
            _("Movement order withdrawn: the fleet stays.")

    return form_action(request, FleetOrderForm(request.POST, prefix=f"f{fleet.pk}"), save,
                       done=lambda: _back(scope, fleet), refusal=_field_error,
                       again=lambda form: render_fleets(request, scope,
                                                        {("orders", fleet.pk): form}, status=400))


@require_POST
@campaign_page("member")
def standing_orders_save(request, scope: Scope, fleet_id: int):
    fleet = _fleet(scope, fleet_id)
    if not gives_standing_orders(scope, fleet.owner_id):
        raise PermissionDenied(_("Only the fleet's owner gives standing orders."))
    ships = [ship_data(ship) for ship in fleet.ships.all()]
    form = StandingOrdersForm(request.POST, ships=ships, prefix=f"s{fleet.pk}")

    def save(data):
        orders.require_not_resolving(scope.round)
        orders.fleet_set_standing_orders(fleet=fleet, changes=form.changes())
        return _("Standing orders saved.")

    return form_action(request, form, save, done=lambda: _back(scope, fleet),
                       refusal=_field_error,
                       again=lambda form: render_fleets(request, scope,
                                                        {("standing", fleet.pk): form},
                                                        status=400))


@require_POST
@campaign_page("player")
def embark(request, scope: Scope, fleet_id: int):
    fleet = _own_fleet(scope, fleet_id)
    ship_id = request.POST.get("ship", "")
    form = EmbarkForm(request.POST, auto_id=embark_id(ship_id))
    if not form.is_valid():
        number = parse_number(ship_id)
        key = {("embark", number): form} if number is not None else {}
        return render_fleets(request, scope, key, status=400)
    ship = _ship(fleet, form.cleaned_data["ship"])
    try:
        orders.fleet_embark(player=scope.player, fleet=fleet, ship=ship,
                            name=form.cleaned_data["name"], points=form.cleaned_data["points"])
    except DomainError as exc:
        _field_error(form, exc)
        return render_fleets(request, scope, {("embark", ship.pk): form}, status=400)
    messages.success(request, _("%(name)s embarked on %(ship)s.")
                     % {"name": form.cleaned_data["name"], "ship": ship.name})
    return _back(scope, fleet)


@require_POST
@campaign_page("player")
def disembark(request, scope: Scope, fleet_id: int):
    fleet = _own_fleet(scope, fleet_id)
    form = DisembarkForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a detachment to disembark."))
        return _back(scope, fleet)
    ship = _ship(fleet, form.cleaned_data["ship"])
    try:
        orders.fleet_disembark(player=scope.player, fleet=fleet, ship=ship,
                               index=form.cleaned_data["index"])
    except DomainError as exc:
        messages.error(request, _("Refused: %(reason)s") % {"reason": explained(exc)})
    else:
        messages.success(request, _("The detachment disembarked and disbanded."))
    return _back(scope, fleet)


@require_http_methods(["GET", "POST"])
@campaign_page("member")
def naval_odds(request, scope: Scope):
    """R-ODDS-1: the outcome distribution of a naval battle (``web.views.odds``). A normal form
    post (no script needed) renders the whole page with the result, scrolled to it by the
    form's ``#naval-odds`` (400 with the form's errors). A GET shows the page's section."""
    if request.method == "GET":
        return redirect(f"{reverse('campaigns:fleets', args=[scope.campaign.pk])}#naval-odds")
    loaded = _load(scope)
    form = odds_form(scope, *loaded, data=request.POST)
    result = odds_run(request, scope, form) if form.is_valid() else None
    section = odds_section(form, result)
    status = 200 if result is not None else 400
    return render_fleets(request, scope, status=status, odds=section, loaded=loaded)
