"""/: the campaigns a user plays in or runs, the others they may watch, and (for staff, as in
the API) a form to create a campaign."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import BooleanField, CharField
from django.db.models.expressions import RawSQL
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.errors import DomainError
from campaigns.languages import supported
from campaigns.models import Campaign, Player
from campaigns.selectors.campaigns import campaign_list, round_summary
from campaigns.services.accounts import profile_read
from campaigns.services.campaigns import campaign_create
from web.forms.common import add_service_error
from web.forms.home import CampaignForm, campaign_fields
from web.forms.zones import suggest_browser_zone
from web.middleware import activate_read_zone, with_viewer_zone
from web.presenters.campaign_list import campaign_cards
from web.views.scope import forbidden


def may_create(user) -> bool:
    return user.is_authenticated and (user.is_staff or user.is_superuser)


# As SQL: ORM subqueries cost more to compile than the queries they save
MY_FACTION = (f"(SELECT p.faction FROM {Player._meta.db_table} p WHERE p.campaign_id = "
              f"{Campaign._meta.db_table}.id AND p.user_id = %s)")  # one seat per campaign
I_RUN = (f"EXISTS (SELECT 1 FROM {Campaign.admins.through._meta.db_table} a WHERE "
         f"a.campaign_id = {Campaign._meta.db_table}.id AND a.user_id = %s)")


def _listed(user) -> list[Campaign]:
    """The campaigns ``user`` may see, each with the user's faction in it (``my_faction``),
    whether the user runs it (``i_run``) and the user's own time zone (one query)."""
    campaigns = campaign_list(user)
    if not user.is_authenticated:
        return list(campaigns)
    return list(with_viewer_zone(campaigns, user).annotate(
        my_faction=RawSQL(MY_FACTION, (user.pk,), output_field=CharField()),
        i_run=RawSQL(I_RUN, (user.pk,), output_field=BooleanField())))


def _creator_zone(user) -> str:
    """A new campaign's zone is, unless chosen, its creator's own or the site's."""
    return profile_read(user).time_zone or settings.CAMPAIGN_TIME_ZONE


def _render(request, form=None, status: int = 200):
    campaigns = _listed(request.user)
    activate_read_zone(request, campaigns[0] if campaigns else None)  # before any time shows
    mine, others = [], []
    for campaign in campaigns:
        entry = {"campaign": campaign, "round": round_summary(campaign),
                 "faction": getattr(campaign, "my_faction", None),
                 "runs": getattr(campaign, "i_run", False)}
        (mine if entry["faction"] or entry["runs"] else others).append(entry)
    if form is None and may_create(request.user):
        zone = _creator_zone(request.user)
        form = CampaignForm(initial={"time_zone": zone, "language": supported(get_language())})
        if zone == settings.CAMPAIGN_TIME_ZONE:  # only the site's default: the browser's wins
            suggest_browser_zone(form.fields["time_zone"], zone)
    # the cards as markup built once per request (web/presenters/campaign_list.py)
    return render(request, "home.html", {"mine": campaign_cards(mine),
                                         "others": campaign_cards(others), "form": form},
                  status=status)


@require_GET
def index(request):
    return _render(request)


index.reads_zone = True  # web.middleware.ActivateTimeZone: _render activates it


@require_POST
def create(request):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("campaigns:index"))
    if not may_create(request.user):
        return forbidden(request)
    form = CampaignForm(request.POST)
    if form.is_valid():
        try:
            campaign = campaign_create(creator=request.user,
                                       **campaign_fields(form.cleaned_data))
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("Campaign created. Add players, import a map and "
                                        "start the first round."))
            return redirect("campaigns:manage", campaign.pk)
    return _render(request, form, status=400)
