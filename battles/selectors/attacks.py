"""Which attack declarations a caller sees (R-SEC-2, API.md): during ``declare`` a player sees
its own and the campaign admin all; once ``declare`` ended every member sees all."""

from django.db.models import QuerySet, Sum

from campaigns.models import Attack, Player, Purchase, Round


def visible_attacks(rnd: Round, *, player: Player | None, is_admin: bool) -> QuerySet:
    attacks = Attack.objects.filter(round=rnd).order_by("order")
    if is_admin or rnd.phase != Round.Phase.DECLARE:
        return attacks
    if player is None:
        return attacks.none()
    return attacks.filter(player=player)


def armies_bought(rnd: Round, player: Player) -> int:
    """R-ATK-1: attack armies the player bought this round (the sum of its purchases)."""
    total = Purchase.objects.filter(round=rnd, player=player).aggregate(n=Sum("attack_armies"))
    return total["n"] or 0


def army_balance(rnd: Round, player: Player) -> dict[str, int]:
    """Attack armies bought this round and declarations that used one (R-ATK-1, R-ATK-5:
    withdrawn and cancelled declarations used theirs too)."""
    return {"armies_bought": armies_bought(rnd, player),
            "armies_used": Attack.objects.filter(round=rnd, player=player).count()}


def armies_unused(rnd: Round, player: Player) -> int:
    """Armies the player has left to declare with this round (R-ATK-1, R-ATK-5)."""
    balance = army_balance(rnd, player)
    return balance["armies_bought"] - balance["armies_used"]
