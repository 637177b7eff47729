"""``Campaign.revision``: a counter bumped in the transaction of every write that
changes what the cached views show (``campaigns/cache.py``): the map (planets, tiles, markers,
links, areas, fleets and ships), the seats (faction, colour, requisition, holder and their
name), battles and naval battles (the standings) and the campaign's own settings. A cached
value is keyed on it, so no process serves a value older than its data.

Saves and deletes of the watched models bump it through signals (``watch``, connected in each
app's ``ready``); writes that send no signals (``QuerySet.update``, ``bulk_create``,
``bulk_update``, ``campaigns.bulk``) call ``bump`` themselves. The bump is an ``UPDATE`` of
the campaign's row in the caller's transaction: a reader sees the new revision exactly when it
sees the new data.

One bump per campaign and transaction is enough for readers outside it, so later writes in
the same transaction skip theirs (a phase's end resolves dozens of chains, each with several
watched writes). A bump counts as done only while it stands: its transaction is open and the
savepoint it ran in was not rolled back (Django drops the commit callbacks of a rolled back
savepoint, and the bump leaves one). A cached read in between (``campaigns/cache.py``) makes
the next write bump again, so no value is cached under a revision older than its data."""

from collections.abc import Callable

from django.db import connection, transaction
from django.db.models import F, Model, QuerySet
from django.db.models.signals import m2m_changed, post_delete, post_save

from campaigns.models import Campaign, Player, Profile

# A model instance -> its campaign's id, or a query of campaign ids
CampaignOf = Callable[[Model], "int | QuerySet | None"]


def bump(campaigns: "int | QuerySet | None") -> None:
    """Bump the revision of one campaign (an id) or of every campaign a query of ids names."""
    if campaigns is None:
        return
    if not isinstance(campaigns, int):
        Campaign.objects.filter(pk__in=campaigns).update(revision=F("revision") + 1)
        return
    if _standing(campaigns):
        return
    Campaign.objects.filter(pk=campaigns).update(revision=F("revision") + 1)
    if connection.in_atomic_block:
        _remember(campaigns)


def _marks() -> dict:
    """Per connection (a thread's): campaign id -> the commit callback its bump left."""
    if not hasattr(connection, "revision_marks"):
        connection.revision_marks = {}
    return connection.revision_marks


def _remember(campaign_id: int) -> None:
    marks = _marks()

    def committed():
        if marks.get(campaign_id) is committed:
            del marks[campaign_id]

    marks[campaign_id] = committed
    transaction.on_commit(committed)


def _standing(campaign_id: int) -> bool:
    """Whether this transaction bumped the campaign already, in a part not rolled back."""
    mark = _marks().get(campaign_id)
    return (mark is not None and connection.in_atomic_block
            and any(func is mark for _, func, _ in connection.run_on_commit))


def read(campaign_id: int) -> None:
    """A value of the campaign is about to be cached: the next write bumps again."""
    _marks().pop(campaign_id, None)


def via(relation: str, model: type[Model]) -> CampaignOf:
    """The campaign of a row that reaches it through ``relation`` (a foreign key to ``model``,
    which holds ``campaign_id``): the related row's campaign when it is loaded with the row (an
    id: one bump per transaction), else a query of it."""

    def campaign_of(row):
        related = getattr(row, relation) if getattr(type(row), relation).is_cached(row) else None
        if related is not None:
            return related.campaign_id
        return model.objects.filter(pk=getattr(row, f"{relation}_id")).values("campaign_id")

    return campaign_of


def _deleted_with_campaign(origin) -> bool:
    # deleting a whole campaign: its rows go with it, nothing is left to cache
    return isinstance(origin, Campaign)


def watch(model: type[Model], campaign_of: CampaignOf) -> None:
    """Bump the campaign's revision whenever an instance of ``model`` is saved or deleted."""

    def saved(sender, instance, raw=False, **kwargs):
        if not raw:  # fixtures: no campaign row to bump yet
            bump(campaign_of(instance))

    def deleted(sender, instance, origin=None, **kwargs):
        if not _deleted_with_campaign(origin):
            bump(campaign_of(instance))

    post_save.connect(saved, sender=model, weak=False, dispatch_uid=f"revision:{model}")
    post_delete.connect(deleted, sender=model, weak=False, dispatch_uid=f"revision-:{model}")


def watch_m2m(through: type[Model], campaign_of: CampaignOf) -> None:
    """Bump on every add, remove and clear of a many-to-many relation (``instance`` is the
    side the change was made from)."""

    def changed(sender, instance, action, **kwargs):
        if action in ("post_add", "post_remove", "post_clear"):
            bump(campaign_of(instance))

    m2m_changed.connect(changed, sender=through, weak=False,
                        dispatch_uid=f"revision-m2m:{through}")


def campaigns_of_user(user_id: int) -> QuerySet:
    return Player.objects.filter(user_id=user_id).values("campaign_id")


def _user_saved(sender, instance, created=False, update_fields=None, raw=False, **kwargs):
    # a login writes only last_login; names and usernames show in the standings; a new user
    # holds no seat yet
    if raw or created or update_fields == frozenset({"last_login"}):
        return
    bump(campaigns_of_user(instance.pk))


def _profile_saved(sender, instance, raw=False, **kwargs):
    if not raw:
        bump(campaigns_of_user(instance.user_id))


def _campaign_saved(sender, instance, created=False, raw=False, **kwargs):
    if not created and not raw:
        bump(instance.pk)


def connect() -> None:
    """The campaigns app's watched models (``CampaignsConfig.ready``)."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Marker, MarkerType, Planet, Tile, TileLink

    for model in (Player, Planet, Tile, TileLink, Marker, MarkerType):
        watch(model, lambda obj: obj.campaign_id)
    post_save.connect(_campaign_saved, sender=Campaign, dispatch_uid="revision:campaign")
    post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="revision:user")
    post_save.connect(_profile_saved, sender=Profile, dispatch_uid="revision:profile")
