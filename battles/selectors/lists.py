"""Who sees which army list when (R-ARM-3, R-SEC-2); the [decision] on the lists windows is in
battles.services.lists."""

from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from battles.models import ArmyList, Battle
from battles.rosters import warning_text
from campaigns import access
from campaigns.models import Round
from campaigns.selectors.rounds import phase_hours

BEFORE_LISTS = (Round.Phase.DECLARE, Round.Phase.FLEETS)


def participants(battle: Battle) -> list[int]:
    """Player ids of the battle's sides; a neutral garrison (or an unsettled link) has only
    the attacker."""
    return [battle.attacker_id] + ([battle.defender_id] if battle.defender_id else [])


def late_link(battle: Battle, rnd: Round) -> bool:
    """A chain link settled during ``battles`` (R-ATK-5): its lists window starts then."""
    return rnd.phase == Round.Phase.BATTLES and battle.chain_position > 1


def late_deadline(battle: Battle) -> datetime | None:
    """When a late chain link's lists window ends; None while the campaign is paused and the
    window had not ended when the pause began (its clock stands; the resume moves
    it on, ``battles.services.windows``)."""
    if battle.settled_at is None:
        return None
    deadline = battle.settled_at + timedelta(hours=phase_hours(battle.campaign, "lists"))
    paused_at = battle.campaign.paused_at
    return None if paused_at is not None and deadline > paused_at else deadline


def lists_revealed(battle: Battle, rnd: Round, now: datetime) -> bool:
    """R-ARM-3: may each participant see the other's list now?"""
    if battle.lists_revealed_at is not None:
        return True
    if rnd.phase in BEFORE_LISTS:
        return False
    if rnd.phase == Round.Phase.LISTS:
        return rnd.phase_deadline is not None and now >= rnd.phase_deadline
    if late_link(battle, rnd):
        deadline = late_deadline(battle)
        return deadline is not None and now >= deadline
    return True  # the lists phase (and every late window, at the battles deadline) is over


def visible_lists(battle: Battle, rnd: Round, user, now: datetime) -> list[ArmyList]:
    """R-ARM-3, R-SEC-2: a participant sees its own list, and the other's once revealed - also
    when it is a campaign admin too; a campaign admin not playing this battle sees all. Anyone
    else is refused."""
    rows = list(ArmyList.objects.filter(battle=battle).order_by("player_id"))
    player = access.player_of(user, battle.campaign)
    if player is not None and player.pk in participants(battle):
        if lists_revealed(battle, rnd, now):
            return rows
        return [row for row in rows if row.player_id == player.pk]
    if access.is_campaign_admin(user, battle.campaign):
        return rows
    raise PermissionDenied(_("Only the battle's participants and the campaign admin see its "
                             "army lists."))


def list_dict(row: ArmyList) -> dict:
    """A list as shown; its ``settings`` (R-ARM-2) travel with it, so they are as hidden as
    its units until the reveal (R-ARM-3)."""
    return {"player": row.player_id, "name": row.name, "faction": row.faction,
            "total": row.total, "roster_total": row.roster_total, "entries": row.entries,
            "settings": row.settings, "warnings": [warning_text(w) for w in row.warnings],
            "source": row.source,
            "submitted_at": row.submitted_at}
