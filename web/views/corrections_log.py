"""/campaigns/<id>/log/: the audit log: who did what
to the campaign, when, before and after. Members read the public entries; the campaign's admins
read all (the admin-only ones hold hidden facts, R-FLT-7, R-SEA-2). Filtered by a group of
kinds and by round, paginated; the queries do not grow with the entries."""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.selectors.admin_log import KIND_GROUPS, audit_entries
from campaigns.values import parse_number
from web.presenters.admin_log import group_choices, log_entries
from web.views.scope import Scope, campaign_page

PER_PAGE = 50


@require_GET
@campaign_page("member")
def log_page(request, scope: Scope):
    group = request.GET.get("kind", "")
    group = group if group in KIND_GROUPS else ""
    numbers = list(scope.campaign.rounds.order_by("number").values_list("number", flat=True))
    number = parse_number(request.GET.get("round", ""))
    number = number if number in numbers else None
    actions = audit_entries(scope.campaign, admin=scope.is_admin, kind=group,
                            round_number=number)
    page = Paginator(actions, PER_PAGE).get_page(request.GET.get("page"))
    query = "&".join(f"{key}={value}" for key, value in (("kind", group), ("round", number))
                     if value)
    return render(request, "web/corrections_log.html", scope.context(
        page=page, entries=log_entries(page.object_list), groups=group_choices(),
        group=group, round_numbers=numbers, round_number=number, filter_query=query))
