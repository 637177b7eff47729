"""A member's personal data as one JSON document: the account, the profile,
the seats, and per seat only what the member entered themselves (purchases, attack
declarations, army lists, conquest choices, date proposals, result reports) and their
notification switches. Nothing another player entered or may hide (their lists, declarations,
fleets) is in it."""

from django.utils import timezone

from battles.models import ArmyList, Battle, ConquestChoice, ScheduleProposal
from battles.services.notifications import preferences_of
from campaigns.models import Attack, Player, Profile, Purchase

FORMAT = "feldzug-personal-data/1"


def _when(value) -> str | None:
    return value.isoformat() if value else None


def _tile(tile) -> dict:
    return {"id": tile.pk, "planet": tile.planet.name, "q": tile.q, "r": tile.r}


def _seat(player: Player) -> dict:
    attacks = Attack.objects.filter(player=player).select_related("round", "tile__planet")
    purchases = (Purchase.objects.filter(player=player, kind=Purchase.Kind.BUY)
                 .select_related("round"))  # the organiser's grants are not theirs
    lists = ArmyList.objects.filter(player=player).select_related("battle")
    choices = ConquestChoice.objects.filter(player=player).select_related("round")
    proposals = ScheduleProposal.objects.filter(proposed_by=player)
    return {
        "campaign": {"id": player.campaign_id, "name": player.campaign.name},
        "player": player.pk,
        "faction": player.faction,
        "colour": player.colour,
        "requisition": player.requisition,
        "joined_at": _when(player.joined_at),
        "notifications": preferences_of(player),
        "purchases": [{"round": p.round.number, "attack_armies": p.attack_armies,
                       "cost": p.cost, "at": _when(p.created_at)} for p in purchases],
        "declarations": [{"round": a.round.number, "tile": _tile(a.tile),
                          "source": a.source, "status": a.status, "at": _when(a.created_at)}
                         for a in attacks],
        "army_lists": [{"battle": a.battle_id, "name": a.name, "faction": a.faction,
                        "entries": a.entries, "total": a.total, "settings": a.settings,
                        "source": a.source, "submitted_at": _when(a.submitted_at)}
                       for a in lists],
        "conquest_choices": [{"round": c.round.number, "rolls": c.rolls,
                              "defaulted": c.defaulted, "at": _when(c.made_at)}
                             for c in choices],
        "date_proposals": [{"battle": p.battle_id, "date": _when(p.proposed_at),
                            "place": p.place, "status": p.status,
                            "at": _when(p.created_at)} for p in proposals],
    }


def personal_data(user) -> dict:
    """Everything the site stores that the user entered or that describes them."""
    profile = Profile.objects.filter(user=user).first()
    seats = Player.objects.filter(user=user).select_related("campaign").order_by("id")
    reports = Battle.objects.filter(reported_by=user).select_related("tile__planet").order_by("id")
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": {"id": user.pk, "username": user.username, "email": user.email,
                    "first_name": user.first_name, "last_name": user.last_name,
                    "date_joined": _when(user.date_joined),
                    "last_login": _when(user.last_login)},
        "profile": {"display_name": profile.display_name if profile else "",
                    "language": profile.language if profile else "",
                    "time_zone": profile.time_zone if profile else ""},
        "campaigns_administered": list(user.administered.values_list("id", flat=True)),
        "seats": [_seat(p) for p in seats],
        "result_reports": [{"battle": b.pk, "campaign": b.campaign_id,
                            "tile": _tile(b.tile), "outcome": b.outcome,
                            "attacker_vp": b.attacker_vp, "defender_vp": b.defender_vp,
                            "reported_at": _when(b.reported_at)} for b in reports],
    }
