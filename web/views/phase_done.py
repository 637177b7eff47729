""""Done for this phase" on the campaign home: a player says they are done
with the current waiting phase, or takes it back; the phase advances early once everyone who
can act in it is done (R-RND-2 [reading], ``league.selectors.readiness``). The card shows how
many players are done, never who owes what."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.errors import DomainError
from league.selectors.readiness import early_advance_on, readiness
from league.services.readiness import phase_done_clear, phase_done_mark
from rules.rounds import WAITING
from web.templatetags.feldzug import explained
from web.views.scope import Scope, campaign_page


def done_context(scope: Scope) -> dict | None:
    """The card for a player in a waiting phase of a campaign that advances early."""
    rnd = scope.round
    if scope.player is None or rnd is None or rnd.phase not in WAITING \
            or not early_advance_on(scope.campaign):
        return None
    return readiness(rnd, now=timezone.now()).as_dict(scope.player)


@require_POST
@campaign_page("player")
def phase_done(request, scope: Scope):
    """``undo`` posted: not done after all; else done. ``phase``: the phase the page showed
    (required: a done must never land on a phase the player has not seen)."""
    phase = request.POST.get("phase", "")
    if phase not in WAITING:
        message = _("The form did not say which phase you are done with (R-RND-2). Reload "
                    "the page and try again.")
        return render(request, "web/refused_input.html", {"message": message}, status=400)
    if scope.round is None:
        messages.error(request, _("The campaign has not started yet."))
        return redirect("campaigns:detail", scope.campaign.pk)
    try:
        if request.POST.get("undo"):
            phase_done_clear(round=scope.round, player=scope.player, phase=phase)
            messages.success(request, _("You are not done after all; the phase waits for you "
                                        "again."))
        else:
            _created, advanced = phase_done_mark(round=scope.round, player=scope.player,
                                                 phase=phase)
            messages.success(request, _("Everyone is done: the phase moved on.") if advanced
                             else _("You are done for this phase."))
    except DomainError as exc:
        messages.error(request, _("Refused: %(reason)s") % {"reason": explained(exc)})
    return redirect("campaigns:detail", scope.campaign.pk)
