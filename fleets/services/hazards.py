"""The admin edits a sea hazard (R-SEA-2): its name, area, owner and ship
values within the bounds of R-FLT-2. Hazards are hidden: the log entry is for admins only.
Placing and removing: ``fleets.services.fleets``."""

from django.db import transaction

from campaigns.locking import lock_campaign
from campaigns.services.corrections import correction
from campaigns.services.map import checked_text, owned
from fleets.models import SeaHazard
from fleets.services.fleets import check_hazard, hazard_facts

_UNSET = object()
VALUES = ("attack", "defence", "agility")


@transaction.atomic
def hazard_update(*, hazard: SeaHazard, name=_UNSET, area=_UNSET, owner=_UNSET,
                  actor=None, reason: str = "", **values) -> SeaHazard:
    lock_campaign(hazard.campaign_id)  # campaigns.locking: the campaign first
    hazard = SeaHazard.objects.select_for_update().select_related("campaign").get(pk=hazard.pk)
    campaign = hazard.campaign
    before = hazard_facts(hazard)
    if name is not _UNSET:
        hazard.name = checked_text(name, "name", SeaHazard)
    if area is not _UNSET:
        hazard.area = owned(campaign, area, "area")
    if owner is not _UNSET:
        hazard.owner = owned(campaign, owner, "owner")
    for key, value in values.items():
        if key not in VALUES:
            raise TypeError(f"unknown hazard value {key!r}")
        setattr(hazard, key, value)
    check_hazard(hazard.area, hazard.owner, {k: getattr(hazard, k) for k in VALUES})
    if hazard.hits >= hazard.defence:  # R-SEA-2: removed once its hits reach its defence
        hazard.active = False
    correction(campaign=campaign, actor=actor, kind="hazard.update",
               target=f"hazard {hazard.name}", before=before, after=hazard_facts(hazard),
               public=False, reason=reason)
    hazard.save()
    return hazard

