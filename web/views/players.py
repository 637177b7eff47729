"""Managing players on the members page, campaign admin only: edit a seat's
faction and colour, remove a player before the start, replace a player by an existing account
or by a seat invitation mailed to an address. Each posts, then goes back to the members page;
a refusal shows the page again (400/409) with the error next to the form. Each action calls
the service the API calls."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from campaigns.errors import DomainError
from campaigns.models import Campaign, Player, Tile
from campaigns.selectors.players import display_name, holders_by_seat
from campaigns.services import invitations as invitation_services
from campaigns.services import players as services
from web.forms.common import add_service_error
from web.forms.members import (
    PlayerEditForm,
    PlayerRemoveForm,
    PlayerReplaceForm,
    SeatInviteForm,
)
from web.templatetags.feldzug import explained, member
from web.views.actions import campaign_advance_if_ready
from web.views.confirm import ask, confirmed
from web.views.scope import Scope, campaign_page

FORMS = {"edit": PlayerEditForm, "replace": PlayerReplaceForm, "invite": SeatInviteForm,
         "remove": PlayerRemoveForm}


def holder_name(user) -> str:
    """A seat's holder as the members page names them: display name (username)."""
    if user is None:
        return _("former member")
    name = display_name(user)
    return f"{name} ({member(user)})" if name else member(user)


def player_rows(scope: Scope, players, bound: dict | None = None) -> list[dict]:
    """Per seat: its holders (oldest first) and the admin's forms (``bound``: the one form
    that came back with errors, keyed by (kind, player id))."""
    holders = holders_by_seat(scope.campaign)
    rows = []
    for player in players:
        forms = {kind: (bound or {}).get((kind, player.pk)) or form_class(
            prefix=f"{kind}{player.pk}",
            initial={"faction": player.faction, "colour": player.colour, "seat": player.pk})
            for kind, form_class in FORMS.items()}
        history = [{"name": holder_name(h.user), "since": h.since, "until": h.until,
                    "round_number": h.round_number} for h in holders.get(player.pk, [])]
        rows.append({"player": player, "holder": holder_name(player.user),
                     "history": history, **forms})
    return rows


def _player(scope: Scope, player_id: int) -> Player:
    return get_object_or_404(Player.objects.select_related("user", "campaign"),
                             campaign=scope.campaign, pk=player_id)


def _back(scope: Scope, player_id: int | None = None):
    response = redirect("campaigns:manage-members", scope.campaign.pk)
    response["Location"] += f"#player-{player_id}" if player_id else "#players"
    return response


def _again(request, scope: Scope, kind: str, player_id: int, form, status: int = 400):
    from web.views.members import render_members  # members imports player_rows from here

    return render_members(request, scope, status=status,
                          player_forms={(kind, player_id): form})


def _post(request, scope: Scope, player_id: int, kind: str, call, back=None):
    """Bind the ``kind`` form, run ``call(player, data)`` -> success message."""
    player = _player(scope, player_id)
    form = FORMS[kind](request.POST, prefix=f"{kind}{player_id}")
    if form.is_valid():
        try:
            message = call(player, form.cleaned_data)
        except DomainError as exc:
            add_service_error(form, exc, {"email": "email", "account": "account"})
            if kind == "remove":  # a running campaign shows no remove form: say it on top
                messages.error(request, explained(exc))
            return _again(request, scope, kind, player_id, form, status=exc.status)
        messages.success(request, message)
        return back() if back else _back(scope, player_id)
    return _again(request, scope, kind, player_id, form)


def admin_action(view):
    return require_POST(campaign_page("admin")(view))


@admin_action
def player_edit(request, scope: Scope, player_id: int):
    def edit(player, data):
        services.player_update(player=player, actor=request.user, **data)
        return _("Player saved.")

    return _post(request, scope, player_id, "edit", edit)


@admin_action
def player_replace(request, scope: Scope, player_id: int):
    def replace(player, data):
        seat = services.player_replace(player=player, actor=request.user,
                                       account=data["account"])
        campaign_advance_if_ready(scope.campaign.pk)  # R-RND-2: re-check at once
        return _("%(holder)s now holds the seat of %(faction)s.") % {
            "holder": holder_name(seat.user), "faction": seat.faction}

    return _post(request, scope, player_id, "replace", replace)


@admin_action
def player_invite(request, scope: Scope, player_id: int):
    def invite(player, data):
        invitation = invitation_services.seat_invitation_create(
            player=player, by=request.user, email=data["email"],
            expires_at=data["expires_at"])
        return _("Invitation to take over the seat of %(faction)s sent to %(email)s.") % {
            "faction": player.faction, "email": invitation.email}

    return _post(request, scope, player_id, "invite", invite)


def _remove_question(player: Player) -> dict:
    """What removing a seat before the start loses: its tiles and fleets."""
    tiles, fleets = Tile.objects.filter(owner=player).count(), player.fleets.count()
    texts = [_("The seat is deleted with its faction, colour and requisition.")]
    if tiles:
        texts.append(ngettext("%(count)s tile becomes neutral.",
                              "%(count)s tiles become neutral.", tiles) % {"count": tiles})
    if fleets:
        texts.append(ngettext("%(count)s fleet is deleted with its ships.",
                              "%(count)s fleets are deleted with their ships.", fleets)
                     % {"count": fleets})
    if tiles or fleets:
        texts.append(_("Adding the player again does not bring its tiles and fleets back."))
    return {"question": _("Remove %(faction)s (%(holder)s) from the campaign?") % {
                "faction": player.faction, "holder": holder_name(player.user)},
            "consequence": " ".join(texts), "yes": _("Yes, remove the player")}


@admin_action
def player_remove(request, scope: Scope, player_id: int):
    if can_remove(scope.campaign) and not confirmed(request):  # running: refused below
        return ask(request, scope, **_remove_question(_player(scope, player_id)),
                   back=_back(scope, player_id)["Location"])

    def remove(player, data):
        if data["seat"] != player.pk:
            raise DomainError(_("This form removes another player; reload the page."),
                              field="seat")
        services.player_remove(player=player, actor=request.user)
        campaign_advance_if_ready(scope.campaign.pk)  # R-RND-2: re-check at once
        return _("%(faction)s was removed.") % {"faction": player.faction}

    return _post(request, scope, player_id, "remove", remove, back=lambda: _back(scope))


def can_remove(campaign: Campaign) -> bool:
    return campaign.status == Campaign.Status.SETUP
