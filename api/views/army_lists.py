"""API: army lists of a battle (R-ARM-1..3; API.md "Battles (tabletop)").

POST takes JSON entries ``{"name", "entries": [{"name", "points"}]}``, pasted text
``{"name", "text"}`` (hand-written or an app's export, ``battles.list_text``) or a multipart
``file`` (BattleScribe / New Recruit ``.ros`` / ``.rosz`` or New Recruit JSON, recognised by its
content). GET shows the caller's own list, the opponent's only once revealed (R-ARM-3); a list's
``settings`` (battle size, detachment, ...) are shown with it."""

from django.http import QueryDict
from django.urls import path
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.base import error_responses
from api.parsers import SafeJSONParser, SafeMultiPartParser
from api.serializers.army_lists import (
    FILE_INPUT,
    JSON_INPUT,
    ArmyListSerializer,
    ArmyListsSerializer,
)
from api.views.battles import BattleScoped
from battles.list_text import parse_text
from battles.rosters import (
    MAX_BYTES,
    MAX_NAME,
    RosterError,
    parse_entries,
    parse_roster_file,
)
from battles.selectors.lists import list_dict, visible_lists
from battles.services.lists import army_list_submit, check_list_phase, check_participant

MAX_BODY = MAX_BYTES + 64 * 1024  # a roster at the limit plus the multipart envelope
TEXT_KEYS = frozenset({"name", "text"})


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The upload is larger than 2 MB."
    default_code = "too_large"


def _parse(request):
    """The upload, the pasted text or the JSON entries as one parsed list (R-ARM-2); an
    unreadable one is a 400 naming what is wrong (code ``R-ARM-2`` for a roster without
    points, else ``invalid``)."""
    upload = request.FILES.get("file")
    data = request.data
    try:
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise PayloadTooLarge()
            return parse_roster_file(upload.name or "", upload.read(MAX_BYTES + 1))
        if isinstance(data, QueryDict):
            data = data.dict()
        if isinstance(data, dict) and "text" in data:
            return _parse_text(data)
        return parse_entries(data)
    except RosterError as exc:
        field = "file" if upload is not None else ("text" if isinstance(data, dict)
                                                   and "text" in data else "entries")
        error = exceptions.ValidationError({field: [exc.message]})
        error.rule = exc.rule  # the code of the JSON error (api.errors)
        raise error from None


def _parse_text(data: dict):
    unknown = sorted(str(k) for k in data if k not in TEXT_KEYS)
    if unknown:
        raise RosterError(f'Unknown field "{unknown[0]}" next to "text".')
    name = data.get("name", "")
    if not isinstance(name, str) or len(name.strip()) > MAX_NAME:
        raise RosterError(f"The list's name must be text of at most {MAX_NAME} characters.")
    return parse_text(data.get("text"), name=name)


class BattleArmyLists(BattleScoped):
    parser_classes = [SafeJSONParser, SafeMultiPartParser]

    @extend_schema(responses={200: ArmyListsSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, battle_id):
        """The battle's army lists the caller may see: its own always, the opponent's once
        both are in or the lists deadline passed (R-ARM-3); the campaign admin sees all."""
        self.require_member()
        battle = self.get_battle()
        rows = visible_lists(battle, battle.round, request.user, timezone.now())
        return Response({"lists": [list_dict(row) for row in rows]})

    @extend_schema(
        request={"application/json": JSON_INPUT, "multipart/form-data": FILE_INPUT},
        responses={201: ArmyListSerializer,
                   **error_responses(400, 401, 403, 404, 409, 413, 415)},
        examples=[OpenApiExample("entries", request_only=True, value={
            "name": "Spearhead", "entries": [{"name": "Captain", "points": 85}]}),
                  OpenApiExample("text", request_only=True, value={
                      "name": "Spearhead", "text": "Captain - 85\nIntercessors - 100"})])
    def post(self, request, campaign_id, battle_id):
        """Submit or replace the caller's list until the lists are revealed (R-ARM-1..3);
        400 ``R-ARM-1`` naming the limit and the excess when it is over the limit, 400
        ``R-ARM-2`` naming the file's cost types when a roster has no points cost."""
        self.require_member()
        battle = self.get_battle()
        player = check_participant(battle, self.player)
        check_list_phase(battle, battle.round, timezone.now())
        if _content_length(request) > MAX_BODY:
            raise PayloadTooLarge()
        army_list = army_list_submit(battle=battle, player=player, parsed=_parse(request))
        return Response(list_dict(army_list), status=status.HTTP_201_CREATED)


def _content_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/army-list/",
         BattleArmyLists.as_view(), name="battle-army-list"),
]
