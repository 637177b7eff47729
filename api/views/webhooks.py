"""API: a campaign's webhooks, campaign admins only: list, add, read, change,
delete a hook; its delivery log; send a test event. The pages call the same services."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import CampaignScoped, error_responses, validated
from api.parsers import SafeJSONParser
from api.serializers.webhooks import (
    WebhookDeliverySerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
)
from campaigns.models import Webhook, WebhookDelivery
from campaigns.services import webhooks as services

LOG = 100
TAGS = ["webhooks"]


class WebhookList(CampaignScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="The campaign's webhooks (campaign admin)",
                   responses={200: WebhookSerializer(many=True),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_admin()
        hooks = Webhook.objects.filter(campaign=self.campaign).order_by("id")
        return Response(WebhookSerializer(hooks, many=True).data)

    @extend_schema(tags=TAGS, summary="Add a webhook (campaign admin)",
                   request=WebhookSerializer,
                   responses={201: WebhookSerializer, **error_responses(400, 401, 403, 404)})
    def post(self, request, campaign_id):
        self.require_admin()
        data = validated(WebhookSerializer, request.data)
        hook = services.webhook_create(campaign=self.campaign, by=request.user, values=data,
                                       now=timezone.now())
        return Response(WebhookSerializer(hook).data, status=status.HTTP_201_CREATED)


class HookScoped(CampaignScoped):
    def hook(self) -> Webhook:
        self.require_admin()
        return get_object_or_404(Webhook, pk=self.kwargs["hook_id"], campaign=self.campaign)


class WebhookDetail(HookScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="A webhook (campaign admin)",
                   responses={200: WebhookSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, hook_id):
        return Response(WebhookSerializer(self.hook()).data)

    @extend_schema(tags=TAGS, summary="Change a webhook (campaign admin)",
                   request=WebhookUpdateSerializer,
                   responses={200: WebhookSerializer, **error_responses(400, 401, 403, 404)})
    def patch(self, request, campaign_id, hook_id):
        hook = self.hook()
        data = validated(WebhookUpdateSerializer, request.data)
        hook = services.webhook_update(hook=hook, by=request.user, values=data,
                                       now=timezone.now())
        return Response(WebhookSerializer(hook).data)

    @extend_schema(tags=TAGS, summary="Delete a webhook (campaign admin)", request=None,
                   responses={204: None, **error_responses(401, 403, 404)})
    def delete(self, request, campaign_id, hook_id):
        services.webhook_delete(hook=self.hook(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveries(HookScoped):
    @extend_schema(tags=TAGS, summary="A webhook's delivery log, newest first (campaign admin)",
                   responses={200: WebhookDeliverySerializer(many=True),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, hook_id):
        rows = WebhookDelivery.objects.filter(hook=self.hook()).order_by("-created_at",
                                                                         "-id")[:LOG]
        return Response(WebhookDeliverySerializer(rows, many=True).data)


class WebhookTest(HookScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="Send a test event to a webhook (campaign admin)",
                   request=None,
                   responses={202: WebhookDeliverySerializer, **error_responses(401, 403, 404)})
    def post(self, request, campaign_id, hook_id):
        delivery = services.webhook_test_send(hook=self.hook(), by=request.user,
                                              now=timezone.now())
        delivery.refresh_from_db()
        return Response(WebhookDeliverySerializer(delivery).data,
                        status=status.HTTP_202_ACCEPTED)


HOOK = "campaigns/<int:campaign_id>/webhooks/<int:hook_id>/"
urlpatterns = [
    path("campaigns/<int:campaign_id>/webhooks/", WebhookList.as_view(), name="webhook-list"),
    path(HOOK, WebhookDetail.as_view(), name="webhook-detail"),
    path(HOOK + "deliveries/", WebhookDeliveries.as_view(), name="webhook-deliveries"),
    path(HOOK + "test/", WebhookTest.as_view(), name="webhook-test"),
]
