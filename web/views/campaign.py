"""/campaigns/<id>/: the campaign's home: round, phase, deadline with a live countdown, what
the player still owes this phase, recent events, players and the rounds' dice audits."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from battles.selectors.obligations import obligations
from campaigns.models import Round
from campaigns.selectors.campaigns import player_list
from league.selectors.events import recent_events
from web.views.absences import away_context
from web.views.phase_done import done_context
from web.views.scope import Scope, campaign_page


@require_GET
@campaign_page()
def detail(request, scope: Scope):
    return render_detail(request, scope)


def render_detail(request, scope: Scope, *, status: int = 200, away_form=None):
    """The home page; ``away_form``: the Away card's form that came back refused."""
    campaign = scope.campaign
    context = scope.context(
        away=away_context(scope, away_form),
        owed=obligations(scope.round, scope.player),
        done=done_context(scope),
        events=recent_events(campaign, member=scope.is_member),
        players=player_list(campaign),
        rounds=Round.objects.filter(campaign=campaign).order_by("number").only(
            "number", "phase", "campaign_id"))
    return render(request, "web/detail.html", context, status=status)
