"""Writes of the fleets page: movement orders (R-FLT-4), standing orders (R-FLT-5), embarking
and disembarking detachments (R-FLT-8), each through ``fleets.services.orders``. Another
player's fleet is refused (403) before any service runs, as in the API; a refusal of the
service lands next to the field it names and the page is shown again (400)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.errors import DomainError
from fleets.models import Fleet, Ship
from fleets.selectors.fleets import campaign_fleets, ship_data
from fleets.services import orders
from web.forms import (
    DisembarkForm,
    EmbarkForm,
    FleetOrderForm,
    StandingOrdersForm,
    add_service_error,
)
from web.templatetags.feldzug import explained
from web.views.actions import form_action
from web.views.fleets import embark_id, gives_standing_orders, render_fleets
from web.views.scope import Scope, campaign_page


def _fleet(scope: Scope, fleet_id: int) -> Fleet:
    fleet = campaign_fleets(scope.campaign).filter(pk=fleet_id).first()
    if fleet is None:
        raise Http404("No such fleet.")
    return fleet


def _own_fleet(scope: Scope, fleet_id: int) -> Fleet:
    fleet = _fleet(scope, fleet_id)
    if scope.player is None or fleet.owner_id != scope.player.pk:
        raise PermissionDenied("Only the fleet's owner may do this.")
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
        raise PermissionDenied("Only the fleet's owner gives standing orders.")
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
        key = {("embark", int(ship_id)): form} if ship_id.isdigit() else {}
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
