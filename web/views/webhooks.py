"""/campaigns/<id>/manage/webhooks/: the admin's webhooks: the list
and a form to add one; each hook's page with its settings, signing secret, delivery log
(status, attempts, last error) and a "send test event" button. Every action calls the service
the API calls."""

from urllib.parse import urlsplit

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from campaigns import webhooks
from campaigns.models import Webhook, WebhookDelivery
from campaigns.services import webhooks as services
from web.forms.webhooks import WebhookForm, form_values, initial_of
from web.views.actions import form_action
from web.views.confirm import ask, confirmed
from web.views.scope import Scope, campaign_page

LOG = 50


def _hooks(scope: Scope) -> list[Webhook]:
    return list(Webhook.objects.filter(campaign=scope.campaign).order_by("id"))


@campaign_page("admin")
def webhooks_page(request, scope: Scope):
    """GET: the hooks and an empty form; POST: add a hook, then its page (it shows the
    secret)."""
    def again(form, status=400):
        return render(request, "web/webhooks.html", scope.context(
            hooks=_hooks(scope), form=form), status=status)

    if request.method != "POST":
        return again(WebhookForm(initial={"events": ["phase_opened", "round_closed"]}), 200)
    created = []

    def call(data):
        created.append(services.webhook_create(campaign=scope.campaign, by=request.user,
                                               values=form_values(data), now=timezone.now()))
        return _("Webhook added. Its signing secret is shown below.")

    return form_action(request, WebhookForm(request.POST), call, again=again,
                       done=lambda: redirect("campaigns:webhook", scope.campaign.pk,
                                             created[0].pk))


@campaign_page("admin")
def webhook_page(request, scope: Scope, hook_id: int):
    hook = get_object_or_404(Webhook, pk=hook_id, campaign=scope.campaign)

    def again(form, status=400):
        rows = WebhookDelivery.objects.filter(hook=hook).order_by("-created_at", "-id")[:LOG]
        deliveries = [(row, webhooks.KINDS[row.kind][1] if row.kind in webhooks.KINDS
                       else _("Test event")) for row in rows]
        return render(request, "web/webhook.html", scope.context(
            hook=hook, form=form, deliveries=deliveries), status=status)

    if request.method != "POST":
        return again(WebhookForm(initial=initial_of(hook)), 200)

    def call(data):
        services.webhook_update(hook=hook, by=request.user, values=form_values(data),
                                now=timezone.now())
        return _("Webhook saved.")

    return form_action(request, WebhookForm(request.POST), call, again=again,
                       done=lambda: redirect("campaigns:webhook", scope.campaign.pk, hook.pk))


def _delete_question(hook: Webhook) -> dict:
    """What deleting loses: the events it would get and its delivery log."""
    logged = WebhookDelivery.objects.filter(hook=hook).count()
    texts = [_("No more campaign events are sent to it.")]
    if logged:
        texts.append(ngettext("Its delivery log of %(count)s delivery is deleted with it.",
                              "Its delivery log of %(count)s deliveries is deleted with it.",
                              logged) % {"count": logged})
    texts.append(_("Adding it again gives it a new signing secret."))
    return {"question": _("Delete the webhook to %(host)s?")
            % {"host": urlsplit(hook.url).hostname or hook.url},
            "consequence": " ".join(texts), "yes": _("Yes, delete the webhook")}


@require_POST
@campaign_page("admin")
def webhook_delete(request, scope: Scope, hook_id: int):
    hook = get_object_or_404(Webhook, pk=hook_id, campaign=scope.campaign)
    if not confirmed(request):
        return ask(request, scope, **_delete_question(hook),
                   back=reverse("campaigns:webhook", args=[scope.campaign.pk, hook.pk]))
    services.webhook_delete(hook=hook, by=request.user)
    messages.success(request, _("Webhook deleted."))
    return redirect("campaigns:webhooks", scope.campaign.pk)


@require_POST
@campaign_page("admin")
def webhook_test(request, scope: Scope, hook_id: int):
    hook = get_object_or_404(Webhook, pk=hook_id, campaign=scope.campaign)
    services.webhook_test_send(hook=hook, by=request.user, now=timezone.now())
    messages.success(request, _("Test event queued; see the delivery log."))
    return redirect("campaigns:webhook", scope.campaign.pk, hook.pk)
