"""/campaigns/<id>/log/: the corrections log (issue 18): who changed what in the running
campaign, when, before and after. Members read the public entries; the campaign admin reads
all (the private ones hold hidden fleet facts, R-FLT-7)."""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.models import AdminAction
from web.presenters.admin_log import log_entries
from web.views.scope import Scope, campaign_page

PER_PAGE = 50


@require_GET
@campaign_page("member")
def log_page(request, scope: Scope):
    actions = (AdminAction.objects.filter(campaign=scope.campaign)
               .select_related("actor", "round").order_by("-at", "-id"))
    if not scope.is_admin:
        actions = actions.filter(public=True)
    page = Paginator(actions, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "web/corrections_log.html",
                  scope.context(page=page, entries=log_entries(page.object_list)))
