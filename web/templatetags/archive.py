"""Template helpers of the archive and sandbox sections, so the home and
manage pages show them without their views knowing."""

from django import template

from campaigns.models import Campaign
from web.forms.archive import ArchiveImportForm

register = template.Library()


@register.simple_tag
def archive_form(bound=None):
    """The archive upload form: ``bound`` if given (it failed), else a fresh one."""
    return bound or ArchiveImportForm()


@register.simple_tag
def campaign_sandboxes(campaign, user):
    """The campaign's sandboxes that ``user`` administers (each is its cloner's alone),
    newest first, in one query."""
    sandboxes = Campaign.objects.filter(sandbox_of=campaign)
    if not user.is_superuser:
        sandboxes = sandboxes.filter(admins=user)
    return list(sandboxes.order_by("-created_at", "-id").only("id", "name", "created_at"))
