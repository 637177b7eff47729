"""Who may see and do what in a campaign (R-SEC-1, R-SEC-2). Shared by the API and the pages.

Objects a caller may not see answer 404, never 403 (API.md: no existence oracle)."""

from django.db.models import BooleanField, IntegerField
from django.db.models.expressions import RawSQL
from django.http import Http404

from campaigns.models import Campaign, Player


def is_site_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.is_superuser)


def is_campaign_admin(user, campaign: Campaign) -> bool:
    if not (user and user.is_authenticated):
        return False
    if user.is_superuser:
        return True
    cache = getattr(user, "_campaign_admin_cache", None)
    if cache is None:
        cache = user._campaign_admin_cache = {}
    if campaign.pk not in cache:
        cache[campaign.pk] = campaign.admins.filter(pk=user.pk).exists()
    return cache[campaign.pk]


def player_of(user, campaign: Campaign) -> Player | None:
    """The caller's player in the campaign, or None."""
    if not (user and user.is_authenticated):
        return None
    cache = getattr(user, "_player_cache", None)
    if cache is None:
        cache = user._player_cache = {}
    if campaign.pk not in cache:
        cache[campaign.pk] = Player.objects.filter(campaign=campaign, user=user).first()
    return cache[campaign.pk]


def is_member(user, campaign: Campaign) -> bool:
    if is_campaign_admin(user, campaign):
        return True
    known = getattr(user, "_player_id_cache", {})  # get_visible_campaign's read
    if campaign.pk in known:
        return known[campaign.pk] is not None
    return player_of(user, campaign) is not None


def can_view(user, campaign: Campaign) -> bool:
    return campaign.visibility == Campaign.Visibility.PUBLIC or is_member(user, campaign)


def visible_campaigns(user):
    """Public campaigns plus those the user plays in or administers."""
    from django.db.models import Q

    qs = Campaign.objects.all()
    if is_site_admin(user):
        return qs
    condition = Q(visibility=Campaign.Visibility.PUBLIC)
    if user and user.is_authenticated:
        condition |= Q(players__user=user) | Q(admins=user)
    return qs.filter(condition).distinct()


def get_visible_campaign(user, campaign_id, campaigns=None) -> Campaign:
    """The campaign if the user may see it; 404 otherwise (also for a missing one).
    ``campaigns``: the query to read it from (e.g. annotated); all by default."""
    rows = Campaign.objects.all() if campaigns is None else campaigns
    campaign = _with_caller(rows.filter(pk=campaign_id), user).first()
    if campaign is not None and hasattr(campaign, "caller_is_admin"):
        _remember_caller(user, campaign)
    if campaign is None or not can_view(user, campaign):
        raise Http404("No such campaign.")
    return campaign


# as SQL, since compiling the same two ORM subqueries cost more than running them
CALLER_IS_ADMIN = (f"EXISTS (SELECT 1 FROM {Campaign.admins.through._meta.db_table} a "
                   f"WHERE a.campaign_id = {Campaign._meta.db_table}.id AND a.user_id = %s)")
CALLER_PLAYER_ID = (f"(SELECT p.id FROM {Player._meta.db_table} p WHERE p.campaign_id = "
                    f"{Campaign._meta.db_table}.id AND p.user_id = %s ORDER BY p.id LIMIT 1)")


def _with_caller(campaigns, user):
    """Whether the caller administers the campaign and its player id, read with
    the campaign (one query instead of three per request)."""
    if not (user and user.is_authenticated) or user.is_superuser:
        return campaigns
    return campaigns.annotate(
        caller_is_admin=RawSQL(CALLER_IS_ADMIN, (user.pk,), output_field=BooleanField()),
        caller_player_id=RawSQL(CALLER_PLAYER_ID, (user.pk,), output_field=IntegerField()))


def _remember_caller(user, campaign: Campaign) -> None:
    """Prime the per-request caches of ``is_campaign_admin`` and ``is_member`` (``player_of``
    still loads the Player when a view needs it)."""
    if not hasattr(user, "_campaign_admin_cache"):
        user._campaign_admin_cache = {}
    user._campaign_admin_cache.setdefault(campaign.pk, campaign.caller_is_admin)
    if not hasattr(user, "_player_id_cache"):
        user._player_id_cache = {}
    user._player_id_cache[campaign.pk] = campaign.caller_player_id
