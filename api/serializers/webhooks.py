"""A campaign's webhooks and their delivery log; ``secret`` signs the generic
format's bodies (``docs/webhooks.md``) and is shown to the campaign's admins only."""

from rest_framework import serializers

from campaigns import webhooks
from campaigns.models import Audience, Webhook, WebhookDelivery


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    url = serializers.CharField(max_length=500, help_text="http(s) address to POST to")
    kind = serializers.ChoiceField(choices=Webhook.Kind.choices, default="discord",
                                   help_text="discord: Discord's webhook format; json: the "
                                             "signed, versioned generic payload")
    events = serializers.ListField(child=serializers.ChoiceField(choices=list(webhooks.KINDS)),
                                   default=list, help_text="the event codes to send")
    language = serializers.ChoiceField(choices=Webhook.Language.values, default="en")
    audience = serializers.ChoiceField(
        choices=Audience.values, default="members",
        help_text="who reads the target: events for a narrower audience are not sent")
    include_owing = serializers.BooleanField(
        default=False, help_text="deadline_soon names who still owes input")
    colour = serializers.RegexField(r"^#[0-9a-fA-F]{6}$", default="#8b1e3f")
    enabled = serializers.BooleanField(default=True)
    secret = serializers.CharField(read_only=True, help_text="HMAC-SHA256 key (json hooks)")
    failure_count = serializers.IntegerField(read_only=True)
    disabled_at = serializers.DateTimeField(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)


class WebhookUpdateSerializer(WebhookSerializer):
    """PATCH: any of the writable fields."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, partial=True, **kwargs)
        for field in self.fields.values():
            field.default = serializers.empty


class WebhookDeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    event_key = serializers.CharField(read_only=True)
    kind = serializers.CharField(read_only=True)
    status = serializers.ChoiceField(choices=WebhookDelivery.Status.values, read_only=True)
    attempts = serializers.IntegerField(read_only=True)
    next_attempt_at = serializers.DateTimeField(read_only=True, allow_null=True)
    last_status_code = serializers.IntegerField(read_only=True, allow_null=True)
    last_error = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    sent_at = serializers.DateTimeField(read_only=True, allow_null=True)
