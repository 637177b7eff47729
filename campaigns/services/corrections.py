"""Changes to a running campaign's map, fleets and players are corrections: the
admin may make them while a phase waits for players or between rounds, never while an
automatic phase (R-RND-2: ``fleets``) is being resolved; each is recorded in the admin log
(``AdminAction``) with who, when, what, before and after. They never touch the dice log."""

from django.utils.translation import gettext as _

from campaigns.errors import Conflict, DomainError
from campaigns.locking import lock_current_round
from campaigns.models import Campaign, Round
from campaigns.services.admin_log import record

AUTOMATIC_PHASES = frozenset({Round.Phase.FLEETS})  # R-RND-1/2: phases with a background job
MAX_REASON = 500


def require_reason(reason) -> str:
    """The organiser's corrections say why (R-SEC-2): a non-empty text of at most
    ``MAX_REASON`` characters, else a 400 naming ``reason``."""
    text = " ".join(reason.split()) if isinstance(reason, str) else ""
    if not text:
        raise DomainError(_("Say why you make this correction: it is shown in the audit log."),
                          code="reason_required", field="reason")
    if len(text) > MAX_REASON:
        raise DomainError(_("The reason has at most %(n)s characters.") % {"n": MAX_REASON},
                          code="reason_too_long", field="reason")
    return text


def clean_reason(reason) -> str:
    """An optional reason (map corrections): "" when none is given, else ``require_reason``."""
    if reason is None or (isinstance(reason, str) and not reason.strip()):
        return ""
    return require_reason(reason)


def is_running(campaign: Campaign) -> bool:
    """Read from the database: a campaign object loaded before the start must not skip the
    guard and the log."""
    status = Campaign.objects.filter(pk=campaign.pk).values_list("status", flat=True).first()
    return status not in (None, Campaign.Status.SETUP)


def check_correctable(campaign: Campaign) -> Round | None:
    """Lock and return the campaign's current round (None before it starts); refuse while an
    automatic phase runs. Call inside the writing transaction, before changing anything."""
    _campaign, current = lock_current_round(campaign)  # campaign first (campaigns.locking)
    if current is not None and current.phase in AUTOMATIC_PHASES:
        raise Conflict(_("Corrections are refused while the automatic fleets phase is being "
                       "resolved (R-RND-2); try again when the next phase has opened."),
                       code="automatic_phase")
    return current


def correction(*, campaign: Campaign, actor, kind: str, target: str, before=None, after=None,
               public: bool = True, reason: str = "") -> None:
    """Guard and log one change; before the campaign starts changes are free and unlogged.
    ``reason`` is optional here (the map editor's corrections): checked by ``clean_reason``."""
    reason = clean_reason(reason)
    if not is_running(campaign):
        return
    current = check_correctable(campaign)
    record(campaign=campaign, actor=actor, kind=kind, target=target, before=before,
           after=after, public=public, round=current, reason=reason)
