"""The manage page's pause, resume and "extend the deadline" actions; each
calls the service the API calls."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.services import pause as pause_services
from web.forms.manage import ExtendForm, PauseForm
from web.views.manage import _form_action, admin_action
from web.views.scope import Scope


@admin_action
def pause(request, scope: Scope):
    def call(data):
        pause_services.campaign_pause(campaign=scope.campaign, by=request.user,
                                      reason=data["reason"])
        return _("The campaign is paused.")

    return _form_action(request, scope, PauseForm(request.POST), "pause_form", "pause", call)


@admin_action
def resume(request, scope: Scope):
    def call(data):
        pause_services.campaign_resume(campaign=scope.campaign, by=request.user)
        return _("The campaign runs again; deadlines have the time they had left.")

    # the form only carries the CSRF token; a refusal lands above the pause form
    return _form_action(request, scope, PauseForm({}), "pause_form", "pause", call)


@admin_action
def extend(request, scope: Scope):
    def call(data):
        pause_services.round_extend_deadline(campaign=scope.campaign, by=request.user,
                                             hours=data["hours"])
        return ngettext("The deadline is %(hours)s hour later.",
                        "The deadline is %(hours)s hours later.", data["hours"]) % {
            "hours": data["hours"]}

    return _form_action(request, scope, ExtendForm(request.POST), "extend_form", "round", call)
