"""The battle events for webhooks and feeds, as public facts for ``event_emit``: battles created,
a date agreed, a result confirmed, a dispute (admins only), the conquest rolls. A battle is
named as the pages name it (its tile and the sides' players by display name) and linked;
never its lists, the place of the game, or anything else hidden (R-FLT-7, R-ARM-3)."""

from datetime import datetime

from django.urls import reverse

from battles.models import Battle, ConquestRoll
from campaigns.labels import place_label, tile_label
from campaigns.mail import absolute, display, profiles_of
from campaigns.models import Round
from campaigns.services.events import event_emit


def _names(users) -> dict[int, str]:
    users = [u for u in users if u is not None]
    profiles = profiles_of(users)
    return {u.pk: display(u, profiles.get(u.pk)) for u in users}


def _battles(ids) -> list[Battle]:
    return list(Battle.objects.filter(pk__in=ids).select_related(
        "tile__planet", "attacker__user", "defender__user").order_by("tile_id", "chain_position"))


def _tile_facts(tile) -> dict:
    """``tile``: where it is, by planet and coordinates (stable when the tile is renamed);
    ``tile_name``: what the pages call it, by its name when it has one (campaigns.labels)."""
    return {"tile": place_label(planet=tile.planet.name, q=tile.q, r=tile.r),
            "tile_name": tile_label(tile)}


def battle_facts(battle: Battle, names: dict[int, str]) -> dict:
    defender = battle.defender.user_id if battle.defender_id else None
    return {"id": battle.pk, **_tile_facts(battle.tile),
            "attacker": names.get(battle.attacker.user_id),
            "defender": names.get(defender) if defender else None,
            "link": absolute(reverse("campaigns:battle", args=[battle.campaign_id, battle.pk]))}


def _one(battle: Battle) -> dict:
    battle = _battles([battle.pk])[0]
    users = [battle.attacker.user, battle.defender.user if battle.defender_id else None]
    return battle_facts(battle, _names(users))


def battles_created_emit(*, round: Round, now: datetime) -> None:  # noqa: A002
    """The round's battles, once they are final (a phase step after the orbital re-check,
    R-ATK-3). Members only, like the battles page."""
    battles = _battles(Battle.objects.filter(round=round).values_list("pk", flat=True))
    names = _names([u for b in battles for u in (b.attacker.user,
                                                 b.defender.user if b.defender_id else None)])
    event_emit(campaign=round.campaign, kind="battles_created", key=f"battles:{round.pk}",
               facts={"round": round.number, "battles": [battle_facts(b, names)
                                                         for b in battles],
                      "link": absolute(reverse("campaigns:battles", args=[round.campaign_id]))},
               audience="members", now=now)


def date_agreed_emit(*, battle: Battle, now: datetime) -> None:
    """R-BAT-2: the accepted date (not the place: that may be someone's home)."""
    event_emit(campaign=battle.campaign, kind="battle_date_agreed",
               key=f"date:{battle.pk}:{battle.calendar_sequence}",
               facts={"round": battle.round.number, "battle": _one(battle),
                      "at": battle.scheduled_at.isoformat(),
                      "link": absolute(reverse("campaigns:battle",
                                               args=[battle.campaign_id, battle.pk]))},
               audience="members", now=now)


def result_confirmed_emit(*, battle: Battle, change_id: int, now: datetime) -> None:
    """R-BAT-3/4: a confirmed (or corrected) result, once per history entry."""
    facts = _one(battle)
    event_emit(campaign=battle.campaign, kind="result_confirmed",
               key=f"result:{battle.pk}:{change_id}",
               facts={"round": battle.round.number, "battle": facts, "outcome": battle.outcome,
                      "attacker_vp": battle.attacker_vp, "defender_vp": battle.defender_vp,
                      "link": facts["link"]},
               audience="members", now=now)


def dispute_emit(*, battle: Battle, by_name: str, reason: str, change_id: int,
                 now: datetime) -> None:
    """R-BAT-3: a dispute, for the admins' hooks only."""
    facts = _one(battle)
    event_emit(campaign=battle.campaign, kind="dispute_raised",
               key=f"dispute:{battle.pk}:{change_id}",
               facts={"round": battle.round.number, "battle": facts, "by": by_name,
                      "reason": reason,
                      "link": absolute(reverse("campaigns:manage", args=[battle.campaign_id]))},
               audience="admins", now=now)


def conquest_emit(*, round: Round, now: datetime) -> None:  # noqa: A002
    """R-CON-1..4: every roll made and whether it took the tile; public (R-DICE-3)."""
    rolls = list(ConquestRoll.objects.filter(round=round).select_related(
        "tile__planet", "player__user").order_by("counter"))
    names = _names([r.player.user for r in rolls])
    event_emit(campaign=round.campaign, kind="conquest_results", key=f"conquest:{round.pk}",
               facts={"round": round.number,
                      "rolls": [{**_tile_facts(r.tile), "player": names.get(
                          r.player.user_id), "total": r.total, "threshold": r.threshold,
                          "success": r.success} for r in rolls],
                      "link": absolute(reverse("campaigns:conquest", args=[round.campaign_id]))},
               audience="public", now=now)
