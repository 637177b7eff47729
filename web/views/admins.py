"""Naming and removing campaign admins on the members page (nothing needs
the Django admin), campaign admin only. Each posts, then goes back to the members page; a
refusal shows the page again (400/409) with the error next to the form. Each action calls the
service the API calls (``campaigns.services.admins``)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.errors import DomainError
from campaigns.services import admins as services
from web.forms.common import add_service_error
from web.forms.members import AdminAddForm, AdminRemoveForm
from web.templatetags.feldzug import explained
from web.views.players import holder_name
from web.views.scope import Scope, campaign_page


def admin_rows(scope: Scope) -> list[dict]:
    """The campaign's admins, each with its remove form."""
    admins = scope.campaign.admins.select_related("profile").order_by("username", "pk")
    return [{"user": user, "name": holder_name(user),
             "remove": AdminRemoveForm(prefix=f"admin{user.pk}", initial={"admin": user.pk})}
            for user in admins]


def _back(scope: Scope):
    response = redirect("campaigns:manage-members", scope.campaign.pk)
    response["Location"] += "#admins"
    return response


def _again(request, scope: Scope, form, status: int = 400):
    from web.views.members import render_members  # members imports admin_rows from here

    return render_members(request, scope, status=status, admin_form=form)


def admin_action(view):
    return require_POST(campaign_page("admin")(view))


@admin_action
def admin_add(request, scope: Scope):
    form = AdminAddForm(request.POST)
    if form.is_valid():
        try:
            user = services.admin_add(campaign=scope.campaign, by=request.user,
                                      account=form.cleaned_data["account"])
        except DomainError as exc:
            add_service_error(form, exc)
            return _again(request, scope, form, status=exc.status)
        messages.success(request, _("%(name)s is now an admin of the campaign.") % {
            "name": holder_name(user)})
        return _back(scope)
    return _again(request, scope, form)


@admin_action
def admin_remove(request, scope: Scope, user_id: int):
    user = get_object_or_404(get_user_model(), pk=user_id, administered=scope.campaign)
    form = AdminRemoveForm(request.POST, prefix=f"admin{user.pk}")
    try:
        if not form.is_valid() or form.cleaned_data["admin"] != user.pk:
            raise DomainError(_("This form removes another admin; reload the page."),
                              field="admin")
        services.admin_remove(campaign=scope.campaign, by=request.user, user=user)
    except DomainError as exc:
        messages.error(request, explained(exc))
        return _again(request, scope, None, status=exc.status)
    messages.success(request, _("%(name)s is no longer an admin of the campaign.") % {
        "name": holder_name(user)})
    if user.pk == request.user.pk and not request.user.is_superuser:
        return redirect("campaigns:detail", scope.campaign.pk)  # the page is admins' only
    return _back(scope)
