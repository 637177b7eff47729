"""The campaign's events: one explicit ``event_emit`` that every service calls where
the thing happens. It records the ``CampaignEvent`` (the Atom feed's source) and one
``WebhookDelivery`` per enabled hook that subscribed to the kind and may read it, then hands
the deliveries to the sending task after commit.

Callers pass public facts only (R-FLT-7): names, tiles, counts; never army lists before the
reveal, fleet contents or orders, hazards or seeds. A sandbox campaign emits
nothing."""

from datetime import datetime

from django.db import transaction
from django.urls import reverse

from campaigns import webhooks
from campaigns.enqueue import enqueue_on_commit
from campaigns.mail import absolute
from campaigns.models import Campaign, CampaignEvent, Webhook, WebhookDelivery

PRIVATE_FACTS = {"deadline_soon": ("owing",)}  # kept only for hooks that opted in


def campaign_facts(campaign: Campaign) -> dict:
    return {"id": campaign.pk, "name": campaign.name, "time_zone": campaign.time_zone,
            "url": absolute(reverse("campaigns:detail", args=[campaign.pk]))}


def _data_for(hook: Webhook, kind: str, facts: dict) -> dict:
    if hook.include_owing:
        return facts
    return {k: v for k, v in facts.items() if k not in PRIVATE_FACTS.get(kind, ())}


def deliveries_create(*, campaign: Campaign, hooks, kind: str, key: str, facts: dict,
                      at: datetime, now: datetime) -> list[int]:
    """One pending delivery per hook, handed to the task after commit; the unique key makes a
    retried or concurrent emit insert none twice (the task sends each row once). Returns the
    pending deliveries' ids."""
    if not hooks:
        return []
    about = campaign_facts(campaign)
    WebhookDelivery.objects.bulk_create([
        WebhookDelivery(hook=hook, event_key=key, kind=kind, created_at=now, next_attempt_at=now,
                        payload=webhooks.payload(kind=kind, key=key, at=at, campaign=about,
                                                 data=_data_for(hook, kind, facts)))
        for hook in hooks], ignore_conflicts=True)
    ids = list(WebhookDelivery.objects.filter(hook__in=hooks, event_key=key,
                                              status=WebhookDelivery.Status.PENDING)
               .order_by("pk").values_list("pk", flat=True))
    if ids:
        from campaigns.tasks import deliver_webhooks  # the task module imports the services

        enqueue_on_commit(deliver_webhooks, ids, now.isoformat())
    return ids


def event_emit(*, campaign: Campaign, kind: str, key: str, facts: dict, audience: str,
               now: datetime) -> bool:
    """Record event ``key`` of ``campaign`` once and fan it out to the hooks (see the module
    docstring). Idempotent: a second call with the same key changes nothing. Returns whether
    this call recorded it.

    A step of its caller's transaction (every caller is a service): no savepoint of its own,
    and no ``get_or_create`` (a savepoint around its insert). Speed: three queries, where
    there were seven; an emitter racing on the same key inserts nothing (``ON CONFLICT DO
    NOTHING``) and its deliveries are the same rows."""
    if campaign.is_sandbox:
        return False
    with transaction.atomic(savepoint=False):
        if CampaignEvent.objects.filter(campaign=campaign, key=key).exists():
            return False
        CampaignEvent.objects.bulk_create([CampaignEvent(
            campaign=campaign, key=key, kind=kind, at=now, facts=facts, audience=audience)],
            ignore_conflicts=True)
        hooks = [hook for hook in Webhook.objects.filter(campaign=campaign, enabled=True)
                 if kind in hook.events and webhooks.reaches(hook.audience, audience)]
        deliveries_create(campaign=campaign, hooks=hooks, kind=kind, key=key, facts=facts,
                          at=now, now=now)
    return True
