"""Serializer helpers shared by several resources: the paginated list shape and the fields that
take ids of the URL's campaign's objects.

Ids in requests are resolved within the campaign of the URL: an id of another campaign's
object is rejected as unknown (400), never revealed."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_field, inline_serializer
from rest_framework import serializers

from campaigns.services.corrections import MAX_REASON
from campaigns.values import ID_MAX


def page_of(serializer_class, name: str):
    """The schema of a paginated list (API.md General): count, next, previous, results."""
    return inline_serializer(name, {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": serializer_class(many=True),
    })


_DATETIME = serializers.DateTimeField()


def datetime_text(value) -> str | None:
    """As a DateTimeField writes it (the current time zone, ISO 8601, ``Z`` for UTC), for the
    answers built without DRF's field machinery."""
    return None if value is None else _DATETIME.to_representation(value)


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= ID_MAX


@extend_schema_field(OpenApiTypes.INT)
class CampaignObjectField(serializers.Field):
    """An integer id of a ``model`` object of the campaign in the serializer's context."""

    default_error_messages = {"invalid": "An id is a positive integer.",
                              "unknown": "No such object in this campaign: {value}."}

    def __init__(self, model, **kwargs):
        self.model = model
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not _is_id(data):
            self.fail("invalid")
        found = self.model.objects.filter(campaign=self.context["campaign"], pk=data).first()
        if found is None:
            self.fail("unknown", value=data)
        return found

    def to_representation(self, value):
        return value.pk


@extend_schema_field({"type": "array", "items": {"type": "integer"}})
class CampaignObjectsField(serializers.Field):
    """A list of distinct ids of ``model`` objects of the campaign, resolved in one query."""

    default_error_messages = {"invalid": "A list of positive integer ids.",
                              "too_long": "At most {limit} ids.",
                              "unknown": "No such objects in this campaign: {values}."}

    def __init__(self, model, limit: int, **kwargs):
        self.model, self.limit = model, limit
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, list) or not all(_is_id(value) for value in data):
            self.fail("invalid")
        if len(data) > self.limit:
            self.fail("too_long", limit=self.limit)
        ids = list(dict.fromkeys(data))
        found = self.model.objects.filter(campaign=self.context["campaign"], pk__in=ids)
        by_id = {obj.pk: obj for obj in found}
        missing = [value for value in ids if value not in by_id]
        if missing:
            self.fail("unknown", values=", ".join(map(str, missing[:10])))
        return [by_id[value] for value in ids]

    def to_representation(self, value):
        return [obj.pk for obj in value.all()]


REASON_HELP = ("why the campaign admin makes this change, shown in the audit log (R-SEC-2); "
               "optional: only a running campaign's changes are corrections")


def optional_reason_field():
    """The map editor's optional ``reason`` (request bodies only): a running campaign's change
    is a correction, logged with it. More than ``MAX_REASON`` characters: 400 naming it."""
    return serializers.CharField(max_length=MAX_REASON, required=False, allow_blank=True,
                                 write_only=True, help_text=REASON_HELP)


def reason_parameter():
    """The same reason for a DELETE, which has no body: ``?reason=``."""
    return OpenApiParameter("reason", {"type": "string", "maxLength": MAX_REASON},
                            required=False, description=REASON_HELP)


def query_reason(request) -> str:
    """A DELETE's ``?reason=``; the correction service checks it (400 naming ``reason``)."""
    return request.query_params.get("reason", "")
