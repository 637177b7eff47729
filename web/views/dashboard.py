"""/campaigns/<id>/manage/dashboard/: the organiser's dashboard, campaign
admins only: the current phase and its deadline, every player with what they still owe, their
"done", absence, last nudge and reliability; the disputes to settle and the absences to come.
The nudge buttons post to ``nudge`` (``battles.services.nudges.nudges_send``, as the API).
It says when the clock that advances deadlines last ran, and plainly when it is late (R-RND-2).
Each dispute shows who disputed and why; in the last 24 hours before the battles deadline a
warning says what the deadline does to the disputes still open (R-BAT-3 [decision])."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from battles.selectors.battles import disputes_deadline_near, disputes_of
from battles.selectors.dashboard import dashboard
from battles.services.nudges import NudgeOutcome, nudges_send, player_name
from campaigns.errors import DomainError
from campaigns.selectors.campaigns import ruleset_of
from campaigns.selectors.clock import clock_state
from campaigns.values import parse_number
from web.presenters.clock import clock_facts
from web.presenters.times import local_text
from web.templatetags.feldzug import explained
from web.views.battles import UNPLAYED_AS
from web.views.scope import Scope, campaign_page


@require_GET
@campaign_page("admin")
def dashboard_page(request, scope: Scope):
    now = timezone.now()
    facts = dashboard(scope.campaign, scope.round, now)
    reasons = disputes_of(facts.disputes)
    for battle in facts.disputes:
        battle.dispute = reasons.get(battle.pk)
    open_now = [b for b in facts.disputes if scope.round and b.round_id == scope.round.pk]
    near = bool(open_now) and disputes_deadline_near(scope.round, now)
    return render(request, "web/dashboard.html", scope.context(
        board=facts, clock=clock_facts(clock_state(now), now),
        disputes_deadline=scope.round.phase_deadline if near else None,
        unplayed=UNPLAYED_AS[ruleset_of(scope.campaign).unplayed_outcome] if near else ""))


def _player_ids(request) -> list[int] | None:
    """The players named by the form (one button per player), None: everyone who owes."""
    wanted = request.POST.getlist("player")
    if not wanted:
        return None
    ids = [parse_number(value) for value in wanted]
    if any(pk is None for pk in ids):
        raise DomainError(_("Choose players of this campaign."), code="unknown_player")
    return ids


SKIPPED = {
    "owes_nothing": gettext_lazy("%(name)s owes nothing now."),
    "away": gettext_lazy("%(name)s is away today."),
    "no_email": gettext_lazy("%(name)s has no e-mail address."),
}


def skipped_text(item: dict) -> str:
    name = player_name(item["player"])
    if item["reason"] == "recently":
        return _("%(name)s was nudged less than 12 hours ago (again from %(until)s).") % {
            "name": name, "until": local_text(item["until"], "short")}
    return str(SKIPPED[item["reason"]]) % {"name": name}


def _report(request, outcome: NudgeOutcome) -> None:
    if outcome.nudged:
        names = ", ".join(player_name(p) for p in outcome.nudged)
        messages.success(request, _("Nudged by e-mail: %(names)s.") % {"names": names})
    elif not outcome.skipped:
        messages.info(request, _("Nobody owes anything now; nobody was nudged."))
    for item in outcome.skipped:
        messages.info(request, skipped_text(item))


@require_POST
@campaign_page("admin")
def nudge(request, scope: Scope):
    try:
        outcome = nudges_send(campaign=scope.campaign, by=request.user,
                              player_ids=_player_ids(request), now=timezone.now())
    except DomainError as exc:
        messages.error(request, explained(exc))
    else:
        _report(request, outcome)
    return redirect("campaigns:dashboard", scope.campaign.pk)
