"""/campaigns/<id>/conquest/: the player's won attacks with threshold, modifiers and exact
chance (R-CON-7), recomputed live (htmx) as boxes are ticked; the sealed choice (R-CON-4) and,
once every choice is in, the rolls as they were made (threshold, modifiers, chance, dice)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from battles.selectors.conquest import conquest_view
from battles.services.conquest import conquest_choose
from campaigns.errors import DomainError
from campaigns.models import Attack, Round, Tile
from campaigns.values import parse_number, parse_numbers
from web.forms.common import add_service_error
from web.forms.conquest import ConquestChoiceForm
from web.views.actions import advance_if_ready
from web.views.scope import Scope, campaign_page


def _round(scope: Scope, number: str) -> Round | None:
    """Round ``number``; by default the current round while it is in conquest, else the
    latest round whose rolls were made, else the current one."""
    rounds = scope.campaign.rounds.all()
    if parse_number(number) is not None:
        return get_object_or_404(rounds, number=parse_number(number))
    current = scope.round
    if current is None or current.phase == Round.Phase.CONQUEST:
        return current
    resolved = rounds.filter(conquest_resolved_at__isnull=False).order_by("-number").first()
    return resolved or current


def _preview(params) -> list[int] | None:
    """The ticked attack ids of a live preview; None when the page was not ticked yet."""
    if "preview" not in params:
        return None
    return parse_numbers(params.getlist("roll"))


def conquest_context(scope: Scope, rnd: Round | None, preview=None, form=None) -> dict:
    """Before the rolls: the items with the odds of the choice (R-CON-7). Once they are made:
    each roll as it was made and the waived attacks (R-CON-5); nothing is recomputed."""
    if rnd is None:
        return {"conquest_round": None, "items": [], "rolls": [], "waived": []}
    view = conquest_view(rnd, scope.player, preview)
    waived = list(Attack.objects.filter(pk__in=view["waived"]).select_related("tile__planet")
                  .order_by("pk")) if view["waived"] else []
    tiles = Tile.objects.filter(pk__in={row["tile"] for row in view["items"] + view["rolls"]})
    tiles = {tile.pk: tile for tile in tiles.select_related("planet")}
    chosen = view["choice"] if view["choice"] is not None else preview
    ticked = {item["attack"] for item in view["items"]} if chosen is None else set(chosen)
    items = [{**item, "tile_obj": tiles[item["tile"]], "ticked": item["attack"] in ticked}
             for item in view["items"]]
    return {"conquest_round": rnd, "items": items,
            "rolls": [{**roll, "tile_obj": tiles[roll["tile"]]} for roll in view["rolls"]],
            "choice": view["choice"], "resolved": view["resolved"],
            "waived": [attack.tile for attack in waived],
            "choosing": (rnd.phase == Round.Phase.CONQUEST and view["choice"] is None
                         and not view["resolved"] and bool(items)),
            "expected": sum(item["chance"] for item in items if item["ticked"]),
            "form": form}


def _round_numbers(scope: Scope) -> list[int]:
    return list(scope.campaign.rounds.order_by("number").values_list("number", flat=True))


def _page_url(scope: Scope, rnd: Round) -> str:
    url = reverse("campaigns:conquest", args=[scope.campaign.pk])
    return f"{url}?round={rnd.number}"


@require_http_methods(["GET", "POST"])
@campaign_page("player")
def conquest_page(request, scope: Scope):
    if request.method == "POST":
        return _choose(request, scope)
    rnd = _round(scope, request.GET.get("round", ""))
    context = scope.context(**conquest_context(scope, rnd),
                            rounds=_round_numbers(scope))
    return render(request, "web/conquest.html", context)


def _choose(request, scope: Scope):
    """Seal the choice (R-CON-4): ticked attacks roll, the rest are waived (R-CON-5)."""
    rnd = _round(scope, request.POST.get("round", ""))
    if rnd is None:
        messages.error(request, _("The campaign has not started yet."))
        return redirect("campaigns:conquest", scope.campaign.pk)
    own = [item["attack"] for item in conquest_view(rnd, scope.player)["items"]]
    form = ConquestChoiceForm(request.POST, attacks=own)
    if form.is_valid():
        try:
            conquest_choose(player=scope.player, rnd=rnd, roll=form.cleaned_data["roll"])
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            advance_if_ready(rnd.pk)  # early advance
            messages.success(request, _("Your choice is sealed."))
            return redirect(_page_url(scope, rnd))
    ticked = parse_numbers(request.POST.getlist("roll"))
    context = scope.context(**conquest_context(scope, rnd, ticked, form),
                            rounds=_round_numbers(scope))
    return render(request, "web/conquest.html", context, status=400)


@require_GET
@campaign_page("player")
def conquest_preview(request, scope: Scope):
    """The items table for the ticked boxes, as an htmx partial."""
    rnd = _round(scope, request.GET.get("round", ""))
    if not request.htmx:
        return redirect(_page_url(scope, rnd) if rnd else
                        reverse("campaigns:conquest", args=[scope.campaign.pk]))
    context = scope.context(**conquest_context(scope, rnd, _preview(request.GET)))
    return render(request, "web/_conquest_items.html", context)
