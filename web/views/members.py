"""Members: the admin's players (managed in ``web.views.players``), invitations and
join requests (/campaigns/<id>/manage/members/ and its actions, POST then back), the
invitation page behind a link (/invite/<token>/) and asking to join a public campaign
(/campaigns/<id>/join/). Each action calls the service the API calls."""

from urllib.parse import quote

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.errors import DomainError
from campaigns.models import Invitation, JoinRequest
from campaigns.selectors.campaigns import player_list
from campaigns.selectors.invitations import (
    ACTIVE,
    campaign_invitations,
    campaign_join_requests,
    can_request_to_join,
    invitation_by_token,
    invitation_state,
    pending_join_request,
)
from campaigns.services import campaigns as campaign_services
from campaigns.services import invitations as services
from web.forms.common import add_service_error
from web.forms.members import (
    AcceptInvitationForm,
    AdminAddForm,
    InviteEmailsForm,
    InviteLinkForm,
    JoinDecisionForm,
    JoinRequestForm,
    JoinSettingsForm,
)
from web.middleware import activate_reader_language
from web.templatetags.feldzug import explained
from web.views.absences import away_context
from web.views.actions import form_action
from web.views.admins import admin_rows
from web.views.confirm import ask, confirmed
from web.views.players import can_remove, player_rows
from web.views.scope import Scope, campaign_page

NEW_LINK = "new_invitation_link"  # session key: a link invitation's address, shown once


def state_label(state: str) -> str:
    return {"active": _("active"), "revoked": _("revoked"), "expired": _("expired"),
            "used_up": _("used up")}[state]


def render_members(request, scope: Scope, *, status: int = 200, decision_forms=None,
                   player_forms=None, admin_form=None, **forms):
    campaign = scope.campaign
    forms.setdefault("emails_form", None)
    forms.setdefault("link_form", None)
    forms["emails_form"] = forms["emails_form"] or InviteEmailsForm()
    forms["link_form"] = forms["link_form"] or InviteLinkForm()
    forms.setdefault("join_settings_form", JoinSettingsForm(
        initial={"join_requests_open": campaign.join_requests_open}))
    invitations = [{"invitation": inv, "state": invitation_state(inv),
                    "state_label": state_label(invitation_state(inv))}
                   for inv in campaign_invitations(campaign)[:200]]
    requests = []
    for join_request in campaign_join_requests(campaign)[:200]:
        form = (decision_forms or {}).get(join_request.pk) or JoinDecisionForm(
            prefix=f"r{join_request.pk}")
        requests.append({"request": join_request, "form": form})
    players = list(player_list(campaign))
    context = scope.context(players=players, invitations=invitations,
                            new_invitation_link=request.session.pop(NEW_LINK, None),
                            player_rows=player_rows(scope, players, player_forms),
                            can_remove=can_remove(campaign),
                            join_requests=requests, ACTIVE=ACTIVE,
                            admin_rows=admin_rows(scope),
                            admin_form=admin_form or AdminAddForm(),
                            away=away_context(scope), **forms)
    return render(request, "web/members.html", context, status=status)


@require_GET
@campaign_page("admin")
def members_page(request, scope: Scope):
    return render_members(request, scope)


def _back(scope: Scope, anchor: str):
    response = redirect("campaigns:manage-members", scope.campaign.pk)
    response["Location"] += f"#{anchor}"
    return response


def admin_action(view):
    return require_POST(campaign_page("admin")(view))


def _preset(data: dict) -> dict:
    return {key: data.get(key) or "" for key in ("faction", "colour")}


@admin_action
def invite_emails(request, scope: Scope):
    def invite(data):
        created = services.invitations_create(
            campaign=scope.campaign, by=request.user, emails=data["emails"],
            expires_at=data["expires_at"], **_preset(data))
        return _("Invitations sent: %(count)s.") % {"count": len(created)}

    return form_action(request, InviteEmailsForm(request.POST), invite,
                       done=lambda: _back(scope, "invitations"),
                       again=lambda form: render_members(request, scope, status=400,
                                                         emails_form=form))


@admin_action
def invite_link(request, scope: Scope):
    def create(data):
        _invitation, token = services.invitation_link_create(
            campaign=scope.campaign, by=request.user, max_uses=data["max_uses"],
            expires_at=data["expires_at"], **_preset(data))
        # only the token's hash is kept: the members page shows the link once, to copy
        request.session[NEW_LINK] = services.invitation_link(token)
        return _("Invitation link created; copy it now, it is shown only once.")

    return form_action(request, InviteLinkForm(request.POST), create,
                       done=lambda: _back(scope, "invitations"),
                       again=lambda form: render_members(request, scope, status=400,
                                                         link_form=form))


def _invitation_action(request, scope: Scope, invitation_id: int, call, message: str):
    invitation = get_object_or_404(Invitation, campaign=scope.campaign, pk=invitation_id)
    try:
        call(invitation)
    except DomainError as exc:
        messages.error(request, explained(exc))
    else:
        messages.success(request, message)
    return _back(scope, "invitations")


@admin_action
def invitation_resend(request, scope: Scope, invitation_id: int):
    return _invitation_action(
        request, scope, invitation_id,
        lambda inv: services.invitation_resend(invitation=inv, by=request.user),
        _("Invitation sent again, with a new link."))


def _revoke_question(invitation: Invitation) -> dict:
    """What revoking loses: the link stops working for good; who joined stays."""
    if invitation.kind == Invitation.Kind.EMAIL:
        question = _("Revoke the invitation for %(email)s?") % {"email": invitation.email}
    else:
        question = _("Revoke this invitation link?")
    texts = [_("Its link stops working at once and for good: nobody can join with it any "
               "more. To invite again, create a new invitation.")]
    if invitation.uses:
        texts.append(ngettext("%(count)s person joined with it already and stays a player.",
                              "%(count)s people joined with it already and stay players.",
                              invitation.uses) % {"count": invitation.uses})
    return {"question": question, "consequence": " ".join(texts),
            "yes": _("Yes, revoke the invitation")}


@admin_action
def invitation_revoke(request, scope: Scope, invitation_id: int):
    if not confirmed(request):
        invitation = get_object_or_404(Invitation, campaign=scope.campaign, pk=invitation_id)
        return ask(request, scope, **_revoke_question(invitation),
                   back=reverse("campaigns:manage-members", args=[scope.campaign.pk])
                   + "#invitations")
    return _invitation_action(
        request, scope, invitation_id,
        lambda inv: services.invitation_revoke(invitation=inv), _("Invitation revoked."))


@admin_action
def join_settings(request, scope: Scope):
    def save(data):
        campaign_services.campaign_update(campaign=scope.campaign, actor=request.user,
                                          join_requests_open=data["join_requests_open"])
        return _("Join request setting saved.")

    return form_action(request, JoinSettingsForm(request.POST), save,
                       done=lambda: _back(scope, "join-requests"),
                       again=lambda form: render_members(request, scope, status=400,
                                                         join_settings_form=form))


@admin_action
def join_accept(request, scope: Scope, request_id: int):
    join_request = get_object_or_404(JoinRequest, campaign=scope.campaign, pk=request_id)

    def accept(data):
        player = services.join_request_accept(join_request=join_request, by=request.user,
                                              **data)
        return _("%(user)s joined as %(faction)s.") % {"user": player.user.username,
                                                        "faction": player.faction}

    def refusal(form, exc):
        add_service_error(form, exc)

    return form_action(request, JoinDecisionForm(request.POST, prefix=f"r{request_id}"),
                       accept, done=lambda: _back(scope, "join-requests"),
                       again=lambda form: render_members(request, scope, status=400,
                                                         decision_forms={request_id: form}),
                       refusal=refusal)


@admin_action
def join_decline(request, scope: Scope, request_id: int):
    join_request = get_object_or_404(JoinRequest, campaign=scope.campaign, pk=request_id)
    try:
        services.join_request_decline(join_request=join_request, by=request.user)
    except DomainError as exc:
        messages.error(request, explained(exc))
    else:
        messages.success(request, _("Join request declined."))
    return _back(scope, "join-requests")


# --- asking to join (a logged-in visitor of a public campaign) --------------------------------

@require_http_methods(["GET", "POST"])
@campaign_page("view")
def join_page(request, scope: Scope):
    """The form to ask to join, or where the caller's request stands."""
    if not request.user.is_authenticated:
        from django.contrib.auth.views import redirect_to_login

        return redirect_to_login(request.get_full_path())
    campaign = scope.campaign
    form = JoinRequestForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.join_request_create(campaign=campaign, user=request.user,
                                             message=form.cleaned_data["message"])
            except DomainError as exc:
                add_service_error(form, exc)
            else:
                messages.success(request, _("Your request was sent to the campaign's admin."))
                return redirect("campaigns:join", campaign.pk)
        status = 400
    context = scope.context(form=form, open=can_request_to_join(campaign),
                            pending=pending_join_request(campaign, request.user))
    return render(request, "web/join.html", context, status=status)


# --- the invitation page ----------------------------------------------------------------------

def _signup_url(next_path: str) -> str | None:
    """The sign-up page (another part of the site) coming back to ``next_path``, if the site
    has one."""
    try:
        return f"{reverse('signup')}?next={quote(next_path)}"
    except NoReverseMatch:
        return None


@require_http_methods(["GET", "POST"])
def invitation_page(request, token: str):
    """What the link opens: the campaign, whether the invitation still works; anonymous
    visitors get links to log in or sign up that come back here; a logged-in one chooses
    faction and colour (unless the admin set them) and joins."""
    invitation = invitation_by_token(token)
    if invitation is None:
        return render(request, "web/invitation.html", {"unknown": True}, status=404)
    campaign, state = invitation.campaign, invitation_state(invitation)
    activate_reader_language(request, campaign)  # someone new: the campaign's language
    here = request.get_full_path()
    context = {"invitation": invitation, "invited_campaign": campaign, "state": state,
               "state_label": state_label(state),
               "login_url": f"{reverse('login')}?next={quote(here)}",
               "signup_url": _signup_url(here)}
    user = request.user
    if user.is_authenticated:
        player = campaign.players.filter(user=user).first()
        if player is not None:
            context["player"] = player
            return render(request, "web/invitation.html", context)
    if state != ACTIVE:
        return render(request, "web/invitation.html", context, status=410)
    if not user.is_authenticated:
        return render(request, "web/invitation.html", context)
    form = AcceptInvitationForm(request.POST if request.method == "POST" else None,
                                invitation=invitation)
    if request.method == "POST" and form.is_valid():
        try:
            services.invitation_accept(token=token, user=user, **form.cleaned_data)
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Welcome: you now play in %(campaign)s.")
                             % {"campaign": campaign.name})
            return redirect("campaigns:detail", campaign.pk)
    context["form"] = form
    return render(request, "web/invitation.html", context,
                  status=400 if request.method == "POST" else 200)
