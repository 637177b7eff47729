"""Attack armies and attack declarations (R-ECO-1, R-ATK-1..6).

Every write locks the round row first (the phase can not change under it, declaration numbers
stay unique) and then the player row (two requests of one player can not both spend its last
requisition or its last army). The rules are checked by ``rules.economy`` and
``rules.attacks``; this module only loads their inputs and stores their answers."""

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import OuterRef, Subquery, Sum

from battles.selectors.legality import attack_check
from campaigns.errors import Conflict, RuleViolation, rules_refusal
from campaigns.models import Attack, Player, Purchase, Round, Tile
from campaigns.pausing import check_not_paused
from campaigns.selectors.campaigns import ruleset_of
from fleets.selectors.board import orbit_forces
from rules.attacks import orbital_cancellations
from rules.economy import buy_armies

MAX_ARMIES = 10_000  # [decision] most attack armies bought at once: a bound on input, no rule


def require_declare(rnd: Round) -> None:
    """Purchases, declarations and withdrawals happen in the ``declare`` phase (R-RND-1), not
    while the campaign is paused (issue 19)."""
    check_not_paused(rnd.campaign)
    if rnd.phase != Round.Phase.DECLARE:
        raise Conflict(f"Round {rnd.number} is in the {rnd.phase} phase; attack armies are "
                       f"bought and attacks declared or withdrawn in the declare phase.")


def _lock(rnd: Round, player: Player) -> tuple[Round, Player]:
    """Lock the round, then the player (always in this order: no deadlock)."""
    rnd = Round.objects.select_for_update().select_related("campaign").get(pk=rnd.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.campaign_id != rnd.campaign_id:
        raise ValueError("the player does not play in the round's campaign")
    return rnd, player


def _lock_declarer(rnd: Round, player: Player) -> tuple[Round, Player]:
    """``_lock`` for a declaration, reading in the player's row what it needs besides: its
    attack armies bought this round (``bought``, R-ATK-1) and the round's last declaration
    number (``last_order``, R-ATK-5), read under the round's lock (issue 21: fewer round
    trips)."""
    rnd = Round.objects.select_for_update().select_related("campaign").get(pk=rnd.pk)
    bought = (Purchase.objects.filter(round=rnd, player=OuterRef("pk")).order_by()
              .values("player").annotate(n=Sum("attack_armies")).values("n"))
    last = Attack.objects.filter(round=rnd).order_by("-order").values("order")[:1]
    player = (Player.objects.select_for_update()
              .annotate(bought=Subquery(bought), last_order=Subquery(last)).get(pk=player.pk))
    if player.campaign_id != rnd.campaign_id:
        raise ValueError("the player does not play in the round's campaign")
    return rnd, player


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


@transaction.atomic
def attack_declare(*, player: Player, round: Round, tile: Tile) -> Attack:
    """Declare an attack on ``tile`` (R-ATK-1..3); an illegal one raises ``RuleViolation`` whose
    code is the broken rule and whose message says why (R-ATK-6). The declaration records its
    source (R-ATK-2) and the next declaration number of the round (R-ATK-5 order)."""
    rnd, player = _lock_declarer(round, player)
    require_declare(rnd)
    campaign = rnd.campaign
    if tile.campaign_id != campaign.pk:
        raise RuleViolation("The tile is not on this campaign's map.", code="invalid",
                            field="tile")
    check = attack_check(rnd, player, tile, bought=player.bought or 0)
    if not check.legal:
        raise RuleViolation.of(check, field="tile")
    return Attack.objects.create(round=rnd, player=player, tile=tile, source=check.source,
                                 order=(player.last_order or 0) + 1)


@transaction.atomic
def attack_withdraw(*, player: Player, attack: Attack) -> Attack:
    """Withdraw a declaration during ``declare`` (R-ATK-5); its army stays spent: withdrawn
    declarations still count against the armies bought."""
    rnd, player = _lock(attack.round, player)
    attack = Attack.objects.select_for_update().get(pk=attack.pk)
    if attack.player_id != player.pk:
        raise PermissionDenied("Only the declaring player may withdraw an attack.")
    require_declare(rnd)
    if attack.status != Attack.Status.ACTIVE:
        raise Conflict(f"The attack is {attack.status} already.", code="not_active")
    attack.status = Attack.Status.WITHDRAWN
    attack.status_reason = "R-ATK-5: withdrawn by the player; the army is spent"
    attack.save(update_fields=["status", "status_reason"])
    return attack


@transaction.atomic
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
