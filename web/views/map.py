"""/campaigns/<id>/map/: one SVG hex map per planet with the areas around it and their fleets;
in the declare phase a click on a tile asks the rules whether the player may attack it (an
htmx partial) and declares; attack armies are bought and declarations withdrawn here."""

from typing import NamedTuple

from django.contrib import messages
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from battles.selectors.attacks import army_balance, visible_attacks
from battles.selectors.legality import attack_check
from battles.services.attacks import attack_declare, attack_withdraw, purchase_create
from campaigns.cache import cached
from campaigns.errors import DomainError
from campaigns.labels import tile_label
from campaigns.models import Attack, Marker, MarkerType, Player, Round, Tile
from campaigns.values import parse_number
from fleets.models import FleetOrder
from fleets.selectors.fleet_view import full_fleets
from league.selectors.map import current_map_document
from web.forms.common import add_service_error
from web.forms.map import DeclareForm, PurchaseForm
from web.presenters.declarations import FIELDS, declarations_html
from web.presenters.hexmap import (
    Viewer,
    draw_public,
    legend_players,
    marker_legend,
    overlay,
    owner_defs,
)
from web.presenters.map_text import map_tables
from web.templatetags.feldzug import explained, marker_name
from web.views.confirm import ask, confirmed
from web.views.scope import Scope, campaign_page


def _in_declare(scope: Scope) -> bool:
    return scope.round is not None and scope.round.phase == Round.Phase.DECLARE


class MapPlayer(NamedTuple):
    """What the maps draw of a player: its faction and owner colour."""

    pk: int
    faction: str
    colour: str


def map_inputs(campaign) -> tuple[dict, dict, dict]:
    """The map document (``league.selectors.map``), the players by id (``MapPlayer``: plain
    values) and the marker type names by code: what
    ``web.presenters.hexmap.draw_map`` draws, for this page and the map history (which passes
    its own ``MapState``). ``campaign`` as loaded with the request (the document is kept per
    revision)."""
    players = {pk: MapPlayer(pk, faction, colour) for pk, faction, colour in
               Player.objects.filter(campaign=campaign).order_by("id")
               .values_list("id", "faction", "colour")}
    marker_names = {code: marker_name(code, name) for code, name in
                    MarkerType.objects.filter(campaign=campaign).order_by("id")
                    .values_list("code", "name")}
    return current_map_document(campaign), players, marker_names


def _own_fleets(scope: Scope) -> dict:
    """``full_fleets`` for the reader: kept per map revision (every fleet and ship write bumps
    it) under the name of whom it is for, a player or the admins (R-FLT-7), since a reader
    looks at the map many times between changes to their fleets."""
    reader = "admin" if scope.is_admin else getattr(scope.player, "pk", None)
    if reader is None:
        return {}
    return cached("full-fleets", scope.campaign, lambda: full_fleets(
        scope.campaign, player=scope.player, is_admin=scope.is_admin), reader)


def _viewer(scope: Scope) -> Viewer:
    """The reader's own fleets in full (all for the admin, R-FLT-7) and, during ``declare``,
    the player's own movement orders (R-FLT-4): never anyone else's."""
    full = _own_fleets(scope)
    orders = {}
    if scope.player and _in_declare(scope):
        orders = dict(FleetOrder.objects.filter(round=scope.round, fleet__owner=scope.player)
                      .values_list("fleet_id", "path"))
    return Viewer(own_fleets={pk: fleet["name"] for pk, fleet in full.items()}, orders=orders,
                  details=full)


def _selected(request, name: str) -> int | None:
    return parse_number(request.GET.get(name, ""))


def _public_map(campaign) -> dict:
    """The map as everyone who may see it sees it (``draw_public``, public facts only), with
    its legend: drawn once per map revision and language and the same for every
    reader, so it holds nothing only a fleet's owner or the admin may see (R-FLT-7)."""

    def draw() -> dict:
        document, players, marker_names = map_inputs(campaign)
        drawing = draw_public(document, players=players, marker_names=marker_names,
                              map_url=reverse("campaigns:map", args=[campaign.pk]),
                              fleets_url=reverse("campaigns:fleets", args=[campaign.pk]))
        return {"drawing": drawing, "legend_players": legend_players(players),
                "owner_defs": owner_defs(players), "marker_legend": marker_legend(marker_names)}

    return cached("map-page", campaign, draw, get_language())


def map_context(scope: Scope, request=None) -> dict:
    """The drawings, legend and area list everyone who sees the campaign sees, with full
    fleets only for their owner and the admin (R-FLT-7)."""
    public = _public_map(scope.campaign)
    viewer = _viewer(scope)
    selected_area = _selected(request, "area") if request else None
    drawn = overlay(public["drawing"], viewer, selected_area=selected_area,
                    selected_tile=_selected(request, "tile") if request else None)
    return {"planets": drawn["planets"], "figures": drawn["figures"],
            "theatre": drawn["theatre"], "areas": drawn["areas"], "tile_url": drawn["tile_url"],
            "legend_players": public["legend_players"], "owner_defs": public["owner_defs"],
            "marker_legend": public["marker_legend"], "selected_area": selected_area,
            "theatre_orders": bool(viewer.orders)}


def _declare_context(scope: Scope, request) -> dict:
    """The player's armies, requisition and declarations this round; the others' declarations
    only once declare ended (``visible_attacks``, R-SEC-2); a withdraw form on the player's
    own active ones during declare (R-ATK-5)."""
    rnd = scope.round
    if rnd is None or not scope.is_member:
        return {}
    rows = visible_attacks(rnd, player=scope.player, is_admin=scope.is_admin).values_list(*FIELDS)
    withdrawing = {}
    if scope.player and _in_declare(scope):
        campaign_id = scope.campaign.pk
        withdrawing = {"own": scope.player.pk, "csrf_token": get_token(request),
                       "withdraw_url": lambda pk: reverse("campaigns:withdraw",
                                                          args=[campaign_id, pk])}
    context = {"declarations": declarations_html(rows, **withdrawing)}
    if scope.player:
        context["balance"] = army_balance(rnd, scope.player)
    return context


def render_map(request, scope: Scope, *, purchase_form=None, status: int = 200):
    tile_id = request.GET.get("tile", "")
    panel = {}
    if parse_number(tile_id) is not None:
        tile = _tile(scope, parse_number(tile_id))
        panel = tile_context(scope, tile) if tile else {}
    if purchase_form is None and _in_declare(scope) and scope.player:
        purchase_form = PurchaseForm()
    context = scope.context(**map_context(scope, request), **_declare_context(scope, request),
                            **panel, purchase_form=purchase_form)
    return render(request, "web/map.html", context, status=status)


@require_GET
@campaign_page()
def map_page(request, scope: Scope):
    return render_map(request, scope)


@require_GET
@campaign_page()
def map_text_page(request, scope: Scope):
    """The map as text: the map page's document, owners and labels as tables of tiles and
    areas (``web.presenters.map_text``), in a fixed number of queries whatever the map's
    size; the attacks the reader may see (R-SEC-2) and their own fleets' names (R-FLT-7)."""
    document, players, marker_names = map_inputs(scope.campaign)
    attacks = []
    if scope.round is not None and scope.is_member:
        attacks = list(visible_attacks(scope.round, player=scope.player, is_admin=scope.is_admin)
                       .filter(status=Attack.Status.ACTIVE).values_list("tile_id", "player_id"))
    own = {pk: fleet["name"] for pk, fleet in _own_fleets(scope).items()}
    tables = map_tables(document, players=players, marker_names=marker_names,
                        viewer=Viewer(own_fleets=own), attacks=attacks)
    return render(request, "web/map_text.html", scope.context(**tables))


def _tile(scope: Scope, tile_id: int) -> Tile | None:
    return (Tile.objects.filter(campaign=scope.campaign, pk=tile_id)
            .select_related("planet", "owner__user").first())


def tile_context(scope: Scope, tile: Tile) -> dict:
    """What the tile panel shows: the tile, and for a player in declare the rules' verdict on
    attacking it (R-ATK-6: the broken rule and why)."""
    markers = Marker.objects.filter(tile=tile).select_related("type").order_by("id")
    context = {"tile": tile, "tile_markers": markers}
    if scope.player and _in_declare(scope):
        context["check"] = attack_check(scope.round, scope.player, tile)
        context["declare_form"] = DeclareForm(initial={"tile": tile.pk})
    return context


@require_GET
@campaign_page()
def tile_panel(request, scope: Scope, tile_id: int):
    """The tile panel as an htmx partial; without htmx, the map page showing it."""
    tile = _tile(scope, tile_id)
    if tile is None:
        return render(request, "web/_tile_missing.html", status=404)
    if not request.htmx:
        return redirect(_map_url(scope, tile_id))
    return render(request, "web/_tile_panel.html", scope.context(**tile_context(scope,
                                                                                      tile)))


def _map_url(scope: Scope, tile_id=None) -> str:
    url = reverse("campaigns:map", args=[scope.campaign.pk])
    return f"{url}?tile={tile_id}#tile-panel" if tile_id else url


def _refused(request, exc: DomainError) -> None:
    messages.error(request, _("Refused: %(reason)s") % {"reason": explained(exc)})


@require_POST
@campaign_page("player")
def declare(request, scope: Scope):
    form = DeclareForm(request.POST)
    tile = _tile(scope, form.cleaned_data["tile"]) if form.is_valid() else None
    if tile is None or scope.round is None:
        messages.error(request, _("Choose a tile of this campaign's map."))
        return redirect(_map_url(scope))
    try:
        attack_declare(player=scope.player, round=scope.round, tile=tile)
    except DomainError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("Attack declared on %(tile)s.") % {"tile": tile_label(tile)})
    return redirect(_map_url(scope, tile.pk))


def _withdraw_question(scope: Scope, attack: Attack) -> dict:
    """What withdrawing costs (R-ATK-5): the army stays spent, its requisition is gone."""
    tile = attack.tile
    balance = army_balance(attack.round, scope.player)
    unused = max(balance["armies_bought"] - balance["armies_used"], 0)
    if unused:
        left = ngettext("You have %(count)s unused attack army left this round.",
                        "You have %(count)s unused attack armies left this round.",
                        unused) % {"count": unused}
    else:  # the costly case: the only army is gone
        left = _("You have no unused attack army left: another attack this round needs a "
                 "newly bought one.")
    return {"question": _("Withdraw your attack on %(tile)s?") % {"tile": tile_label(tile)},
            "consequence": " ".join((
                _("Its attack army stays spent: it can not be used for another attack this "
                  "round, and its requisition is not refunded (R-ATK-5)."),
                left)),
            "yes": _("Yes, withdraw the attack"), "back": _map_url(scope)}


@require_POST
@campaign_page("player")
def withdraw(request, scope: Scope, attack_id: int):
    """Withdraw one's own declaration (R-ATK-5); another player's is 404 (R-SEC-2)."""
    attack = get_object_or_404(Attack.objects.select_related("tile__planet", "round"),
                               round__campaign=scope.campaign, player=scope.player, pk=attack_id)
    if attack.status == Attack.Status.ACTIVE and not confirmed(request):
        return ask(request, scope, **_withdraw_question(scope, attack))
    try:
        attack_withdraw(player=scope.player, attack=attack)
    except DomainError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("Declaration withdrawn; its attack army stays spent."))
    return redirect(_map_url(scope))


@require_POST
@campaign_page("player")
def purchase(request, scope: Scope):
    form = PurchaseForm(request.POST)
    if form.is_valid() and scope.round is not None:
        try:
            bought = purchase_create(player=scope.player, round=scope.round,
                                     attack_armies=form.cleaned_data["attack_armies"])
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            text = ngettext("Bought %(armies)s attack army for %(cost)s requisition.",
                            "Bought %(armies)s attack armies for %(cost)s requisition.",
                            bought.attack_armies)
            messages.success(request, text % {"armies": bought.attack_armies,
                                              "cost": bought.cost})
            return redirect(_map_url(scope))
    elif scope.round is None:
        form.add_error(None, _("The campaign has not started yet."))
    return render_map(request, scope, purchase_form=form, status=400)
