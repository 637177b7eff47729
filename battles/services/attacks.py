"""Attack armies and attack declarations (R-ECO-1, R-ATK-1..6).

Every write locks the round row first: the phase can not change under it, declaration numbers
stay unique and two declarations can not both use a player's last army. A purchase then locks
the player row too (two requests of one player can not both spend its last requisition). The
rules are checked by ``rules.economy`` and ``rules.attacks``; this module only loads their
inputs and stores their answers."""

import json
from functools import cache

from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import DEFERRED
from django.utils.translation import gettext as _

from battles.messages import phase_of, rule_error, rules_refusal
from battles.selectors.legality import attack_check, state_of, state_statement
from campaigns.errors import Conflict, DomainError, RuleViolation
from campaigns.locking import lock_round
from campaigns.models import Attack, Campaign, Player, Purchase, Round, Tile
from campaigns.pausing import check_not_paused
from campaigns.prepared import run_prepared
from campaigns.selectors.campaigns import ruleset_of, ruleset_of_text
from campaigns.steps import phase_step
from fleets.selectors.board import orbit_forces
from rules.attacks import orbital_cancellations
from rules.economy import buy_armies
from rules.ruleset import Ruleset

MAX_ARMIES = 10_000  # [decision] most attack armies bought at once: a bound on input, no rule


def require_declare(rnd: Round) -> None:
    """Purchases, declarations and withdrawals happen in the ``declare`` phase (R-RND-1), not
    while the campaign is paused."""
    check_not_paused(rnd.campaign)
    if rnd.phase != Round.Phase.DECLARE:
        raise Conflict(_("Round %(number)s is in the %(phase)s phase; attack armies are "
                         "bought and attacks declared or withdrawn in the declare phase.")
                       % phase_of(rnd))


def _lock(rnd: Round, player: Player) -> tuple[Round, Player]:
    """Lock the campaign and the round, then the player (``campaigns.locking``)."""
    rnd = lock_round(rnd.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.campaign_id != rnd.campaign_id:
        raise ValueError("the player does not play in the round's campaign")
    return rnd, player


@cache
def _lock_sql() -> tuple[str, str]:
    """The campaign's row, then the round's, locked in the order of ``campaigns.locking``
    (the round's join to its campaign only reads it)."""
    rounds, campaigns = Round._meta.db_table, Campaign._meta.db_table
    has_lock = connection.features.has_select_for_update
    lock = " FOR NO KEY UPDATE" if has_lock else ""
    first = (f"SELECT c.id FROM {campaigns} c WHERE c.id = "
             f"(SELECT campaign_id FROM {rounds} WHERE id = %(round)s){lock}")
    then = (f"SELECT r.campaign_id, r.number, r.phase, c.paused_at, c.pause_reason, "
            f"CAST(c.ruleset AS TEXT) FROM {rounds} r JOIN {campaigns} c ON c.id = r.campaign_id "
            f"WHERE r.id = %(round)s{lock + ' OF r' if has_lock else ''}")
    return first, then


def _partial(model, **values):
    """An instance of ``model`` holding ``values``; its other fields are deferred (read from
    the database if ever asked for, never guessed)."""
    return model.from_db(connection.alias, list(values),
                         [values.get(f.attname, DEFERRED) for f in model._meta.concrete_fields])


def _lock_and_read(rnd: Round, player: Player, tile: Tile) -> tuple[Round, Ruleset, list]:
    """``_lock`` for a declaration, and the rules' inputs, in one round trip: the campaign's
    row and the round's, locked in that order as ``_lock`` locks them, read as the fields a
    declaration needs, then ``declaration_state``'s rows, read once the lock is held. The
    player's row is not locked: every write of what a declaration checks (purchases, declarations,
    withdrawals, the phase) locks this round first (fewer round trips). Returns
    the round, its campaign's ruleset and the state's rows."""
    campaign_lock, round_lock = _lock_sql()
    _campaign, locked, state = run_prepared(
        ("declaration_lock_campaign", campaign_lock, {"round": rnd.pk}),
        ("declaration_lock", round_lock, {"round": rnd.pk}),
        state_statement(rnd.pk, player.pk, tile))
    if not locked:
        raise Round.DoesNotExist
    campaign_id, number, phase, paused_at, reason, ruleset = locked[0]
    campaign = _partial(Campaign, id=campaign_id, paused_at=paused_at, pause_reason=reason,
                        ruleset=json.loads(ruleset))
    rnd = _partial(Round, id=rnd.pk, campaign_id=campaign_id, number=number, phase=phase)
    rnd.campaign = campaign
    return rnd, ruleset_of_text(ruleset), state


@transaction.atomic
def purchase_create(*, player: Player, round: Round, attack_armies: int) -> Purchase:
    """Buy attack armies for the round (R-ECO-1): the cost is deducted from the requisition at
    once; armies left unused lapse with the phase, unrefunded."""
    rnd, player = _lock(round, player)
    require_declare(rnd)
    with rules_refusal(field="attack_armies"):
        bought = buy_armies(ruleset_of(rnd.campaign), player.requisition, attack_armies)
    player.requisition = bought.balance_after
    player.save(update_fields=["requisition"])
    return Purchase.objects.create(round=rnd, player=player, attack_armies=bought.armies,
                                   cost=bought.cost)


def attack_declare(*, player: Player, round: Round, tile: Tile) -> Attack:
    """Declare an attack on ``tile`` (R-ATK-1..3); an illegal one raises ``RuleViolation`` whose
    code is the broken rule and whose message says why (R-ATK-6). The declaration records its
    source (R-ATK-2) and the next declaration number of the round (R-ATK-5 order).

    Three statements in two round trips: the lock with the rules' inputs, then the insert. No
    savepoint inside a caller's transaction (two round trips more than the insert):
    nothing is written before every check passed, and a refusal is raised once the block is
    left, so it leaves the caller's transaction usable."""
    with transaction.atomic(savepoint=False):
        try:
            return _declare(player, round, tile)
        except DomainError as refusal:
            refused = refusal
    raise refused


def _declare(player: Player, rnd: Round, tile: Tile) -> Attack:
    rnd, ruleset, rows = _lock_and_read(rnd, player, tile)
    require_declare(rnd)
    if player.campaign_id != rnd.campaign_id:
        raise ValueError("the player does not play in the round's campaign")
    if tile.campaign_id != rnd.campaign_id:
        raise RuleViolation(_("The tile is not on this campaign's map."), code="invalid",
                            field="tile")
    state = state_of(rows, tile)
    check = attack_check(rnd, player, tile, state=state, ruleset=ruleset)
    if not check.legal:
        raise rule_error(check, field="tile")
    return Attack.objects.create(round=rnd, player=player, tile=tile, source=check.source,
                                 order=state.last_order + 1)


@transaction.atomic
def attack_withdraw(*, player: Player, attack: Attack) -> Attack:
    """Withdraw a declaration during ``declare`` (R-ATK-5); its army stays spent: withdrawn
    declarations still count against the armies bought."""
    rnd, player = _lock(attack.round, player)
    attack = Attack.objects.select_for_update().get(pk=attack.pk)
    if attack.player_id != player.pk:
        raise PermissionDenied(_("Only the declaring player may withdraw an attack."))
    require_declare(rnd)
    if attack.status != Attack.Status.ACTIVE:
        raise Conflict(_("The attack is %(status)s already.")
                       % {"status": attack.get_status_display()}, code="not_active")
    attack.status = Attack.Status.WITHDRAWN
    attack.status_reason = "R-ATK-5: withdrawn by the player; the army is spent"
    attack.save(update_fields=["status", "status_reason"])
    return attack


@phase_step
def attacks_cancel_uncovered_orbital(*, round: Round) -> list[int]:
    """R-ATK-3 re-check when ``fleets`` ends: per player and planet, the orbital declarations
    the embarked points in that orbit no longer cover are cancelled, latest first; their armies
    are lost. Returns the cancelled ids. Idempotent; call inside the advancing transaction."""
    rnd = round
    ruleset = ruleset_of(rnd.campaign)
    orbital: dict[tuple[int, int], list[int]] = {}
    rows = (Attack.objects.filter(round=rnd, source=Attack.Source.ORBIT,
                                  status=Attack.Status.ACTIVE)
            .order_by("order").values_list("pk", "player_id", "tile__planet_id"))
    for pk, player, planet in rows:
        orbital.setdefault((player, planet), []).append(pk)
    if not orbital:
        return []
    forces = orbit_forces(rnd.campaign)
    cancelled: list[int] = []
    for key, ids in orbital.items():
        points, has_fleet = forces.get(key, (0, False))
        cancelled += orbital_cancellations(ids, points, ruleset, has_fleet=has_fleet)
    if cancelled:
        Attack.objects.filter(pk__in=cancelled).update(
            status=Attack.Status.CANCELLED,
            status_reason="R-ATK-3: the embarked army points in orbit no longer cover this "
                          "orbital attack when the fleets phase ended; the army is lost")
    return cancelled
