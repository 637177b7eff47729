"""A paused campaign: players can read, but every player write is refused
(409 ``campaign_paused``) until the admin resumes it; admin corrections stay possible. The
player services' phase checks call ``check_not_paused`` first, so pages and API refuse alike
[reading R-RND-1: a pause holds the whole round, deadlines included]."""

from django.utils.translation import gettext as _

from campaigns.errors import Conflict
from campaigns.models import Campaign

CODE = "campaign_paused"


def paused_message(campaign: Campaign) -> str:
    if campaign.pause_reason:
        return _("The campaign is paused (%(reason)s). Players can read everything, but "
                 "nothing can be entered until the admin resumes it.") % {
            "reason": campaign.pause_reason}
    return _("The campaign is paused. Players can read everything, but nothing can be "
             "entered until the admin resumes it.")


def check_not_paused(campaign: Campaign) -> None:
    """409 while ``campaign`` is paused."""
    if campaign.paused_at is not None:
        raise Conflict(paused_message(campaign), code=CODE)
