"""/campaigns/<id>/rounds/<n>/audit/: the round's dice audit (R-DICE-2/3): the commitment made
when it opened, the seed once it closed (never before), the roll log and a verifier that
recomputes every logged roll from the revealed seed."""

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from campaigns.selectors.rounds import (
    dice_campaign_id,
    revealed_seed,
    verify_round,
    visible_rolls,
)
from web.views.scope import Scope, campaign_page


def _audit_context(scope: Scope, number: int, **extra) -> dict:
    rnd = get_object_or_404(scope.campaign.rounds.all(), number=number)
    return scope.context(audit_round=rnd, seed=revealed_seed(rnd),
                         dice_campaign=dice_campaign_id(rnd),
                         rolls=visible_rolls(rnd, full=scope.is_admin),
                         partial_log=not (rnd.seed_revealed or scope.is_admin), **extra)


@require_GET
@campaign_page()
def audit_page(request, scope: Scope, number: int):
    return render(request, "web/audit.html", _audit_context(scope, number))


@require_GET
@campaign_page()
def verify(request, scope: Scope, number: int):
    """The verifier's report: an htmx partial, or the audit page showing it. Before the seed
    is revealed there is nothing to verify against (409)."""
    rnd = get_object_or_404(scope.campaign.rounds.all(), number=number)
    report = verify_round(rnd) if rnd.seed_revealed else None
    status = 200 if report else 409
    if request.htmx:
        return render(request, "web/_verify.html",
                      {"report": report, "audit_round": rnd}, status=status)
    return render(request, "web/audit.html",
                  _audit_context(scope, number, report=report, verified=True), status=status)
