"""The organiser's corrections of what a player spent (R-SEC-2): requisition, attack armies of
the current round (R-ECO-1, R-ATK-1) and declarations cancelled on the player's behalf
(R-ATK-5). Each asks for a reason, is refused while an automatic phase runs
(``campaigns.services.corrections.check_correctable``) and is recorded in the audit log with
who, when, before, after and the reason. The caller re-checks early advance after the commit
(R-RND-2), as after a player's own input.

Armies: a player's armies this round are the sum of its ``Purchase`` rows, less one per
declaration ever made (withdrawn and cancelled ones included, R-ATK-5). A correction adds a
row of kind ``grant`` (cost 0; negative to take armies back), so every count of armies
(``battles.selectors.attacks``, the legality check, the to-do list) sees it unchanged.

Audit entries are admin-only (``public=False``): a player's requisition and, during
``declare``, its declarations are hidden from the other players (R-SEC-2)."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from battles.selectors.attacks import armies_unused
from campaigns import access
from campaigns.errors import Conflict, DomainError
from campaigns.models import Attack, Player, Purchase, Round
from campaigns.services.admin_log import record
from campaigns.services.corrections import check_correctable, require_reason
from campaigns.services.map_facts import tile_label

MAX_REQUISITION = 1_000_000  # [decision] a bound on input, no rule
MAX_ARMIES = 10_000  # as ``battles.services.attacks.MAX_ARMIES``


def _check_admin(by, player: Player) -> None:
    if not access.is_campaign_admin(by, player.campaign):
        raise PermissionDenied(_("Only a campaign admin corrects a player's armies."))


def _bounded(value, field: str, most: int) -> int:
    if type(value) is not int or not 0 <= value <= most:
        raise DomainError(_("Give a whole number from 0 to %(most)s.") % {"most": most},
                          code="invalid", field=field)
    return value


def _require_declare(rnd: Round, field: str | None = None) -> None:
    """Armies and declarations belong to ``declare`` (R-ECO-1, R-ATK-5); a pause does not stop
    the organiser."""
    if rnd.phase != Round.Phase.DECLARE:
        raise Conflict(_("Attack armies and declarations are corrected in the declare phase; "
                         "unused armies lapse when it ends (R-ECO-1)."),
                       code="wrong_phase", field=field)


def _grant(rnd: Round, player: Player, armies: int) -> None:
    Purchase.objects.create(round=rnd, player=player, attack_armies=armies, cost=0,
                            kind=Purchase.Kind.GRANT)


def _lock(player: Player) -> tuple[Round | None, Player]:
    """The current round (locked by ``check_correctable``, refusing an automatic phase), then
    the player: the order every purchase and declaration locks them in."""
    player = Player.objects.select_related("campaign").get(pk=player.pk)
    rnd = check_correctable(player.campaign)
    return rnd, Player.objects.select_for_update().select_related("campaign").get(pk=player.pk)


@transaction.atomic
def player_armies_adjust(*, player: Player, by, reason, requisition: int | None = None,
                         armies: int | None = None) -> dict:
    """Set the player's requisition balance and/or the attack armies it has left this round
    (e.g. give back an army spent by mistake). Armies only in ``declare`` (unused armies
    lapse when it ends, R-ECO-1), and never fewer than 0. Returns the new values."""
    reason = require_reason(reason)
    _check_admin(by, player)
    if requisition is None and armies is None:
        raise DomainError(_("Give the new requisition or the attack armies left."),
                          code="nothing_to_change", field="requisition")
    rnd, player = _lock(player)
    before, after = {}, {}
    if requisition is not None:
        requisition = _bounded(requisition, "requisition", MAX_REQUISITION)
        if requisition != player.requisition:
            before["requisition"], after["requisition"] = player.requisition, requisition
            player.requisition = requisition
            player.save(update_fields=["requisition"])
    if armies is not None:
        armies = _bounded(armies, "armies", MAX_ARMIES)
        if rnd is None:
            raise Conflict(_("The campaign has not started: there are no armies yet."),
                           code="not_started", field="armies")
        _require_declare(rnd, "armies")
        left = armies_unused(rnd, player)
        if armies != left:
            _grant(rnd, player, armies - left)
            before["armies"], after["armies"] = left, armies
    if after:
        record(campaign=player.campaign, actor=by, kind="player.armies", target=player.faction,
               before=before, after=after, public=False, round=rnd, reason=reason)
    return {"requisition": player.requisition,
            "armies": armies_unused(rnd, player) if rnd is not None else 0}


@transaction.atomic
def attack_cancel(*, attack: Attack, by, reason) -> Attack:
    """Cancel a standing declaration on the player's behalf during ``declare``.
    [reading R-ATK-5] The rules spend the army of a withdrawal the player makes; they are
    silent on the organiser's cancel, which exists to undo a mistake: the army comes back
    (a ``grant`` of one army), so the player may declare again this round."""
    reason = require_reason(reason)
    _check_admin(by, attack.player)
    rnd, player = _lock(attack.player)
    attack = Attack.objects.select_for_update().select_related("tile__planet").get(pk=attack.pk)
    if rnd is None or attack.round_id != rnd.pk:
        raise Conflict(_("Only a declaration of the current round can be cancelled."),
                       code="wrong_round")
    _require_declare(rnd)
    if attack.status != Attack.Status.ACTIVE:
        raise Conflict(_("The declaration is %(status)s already.")
                       % {"status": attack.get_status_display()}, code="not_active")
    attack.status = Attack.Status.CANCELLED
    attack.status_reason = "R-ATK-5: cancelled by the organiser; the army was given back"
    attack.save(update_fields=["status", "status_reason"])
    _grant(rnd, player, 1)
    record(campaign=player.campaign, actor=by, kind="attack.cancel",
           target=f"{player.faction}: {tile_label(attack.tile)}",
           before={"status": Attack.Status.ACTIVE}, after={"status": attack.status},
           public=False, round=rnd, reason=reason)
    return attack
