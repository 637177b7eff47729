"""API: army lists of a battle (R-ARM-1..3; API.md "Battles (tabletop)").

POST ``.../army-list/`` takes JSON only: entries ``{"name", "entries": [{"name", "points"}]}``
or pasted text ``{"name", "text"}`` (hand-written or an app's export, ``battles.list_text``).
POST ``.../army-list/upload/`` takes multipart only: a roster ``file`` (BattleScribe / New
Recruit ``.ros`` / ``.rosz`` or New Recruit JSON, recognised by its content). One media type per
operation: a generated client sends each body as what it is (openapi-python-client
0.29 cannot import the code it generates for an operation with two body types). GET shows the
caller's own list, the opponent's only once revealed (R-ARM-3); a list's ``settings`` (battle
size, detachment, ...) are shown with it."""

from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.base import advance_if_ready, error_responses
from api.parsers import SafeMultiPartParser
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
    default_detail = gettext_lazy("The upload is larger than 2 MB.")
    default_code = "too_large"


def _rule_error(exc: RosterError, field: str) -> exceptions.ValidationError:
    """An unreadable list as a 400 naming ``field`` (code ``R-ARM-2`` for a roster without
    points, else ``invalid``)."""
    error = exceptions.ValidationError({field: [exc.message]})
    error.rule = exc.rule  # the code of the JSON error (api.errors)
    return error


def _parse_json(request):
    """The pasted text or the JSON entries as one parsed list (R-ARM-2)."""
    data = request.data
    field = "text" if isinstance(data, dict) and "text" in data else "entries"
    try:
        return _parse_text(data) if field == "text" else parse_entries(data)
    except RosterError as exc:
        raise _rule_error(exc, field) from None


def _parse_upload(request):
    """The multipart ``file`` as one parsed list (R-ARM-2), recognised by its content."""
    upload = request.FILES.get("file")
    if upload is None:
        raise exceptions.ValidationError({"file": [
            _("No roster file: send it as the multipart field `file` (entries or pasted text "
              "go as JSON to .../army-list/).")]})
    if upload.size > MAX_BYTES:
        raise PayloadTooLarge()
    try:
        return parse_roster_file(upload.name or "", upload.read(MAX_BYTES + 1))
    except RosterError as exc:
        raise _rule_error(exc, "file") from None


def _parse_text(data: dict):
    unknown = sorted(str(k) for k in data if k not in TEXT_KEYS)
    if unknown:
        raise RosterError(_('Unknown field "%(field)s" next to "text".') % {"field": unknown[0]})
    name = data.get("name", "")
    if not isinstance(name, str) or len(name.strip()) > MAX_NAME:
        raise RosterError(_("The list's name must be text of at most %(limit)s characters.")
                          % {"limit": MAX_NAME})
    return parse_text(data.get("text"), name=name)


class ListSubmit(BattleScoped):
    """Submitting a list, whichever way it comes (``parse``)."""

    def submit(self, request, parse):
        self.require_member()
        battle = self.get_battle()
        player = check_participant(battle, self.player)
        check_list_phase(battle, battle.round, timezone.now())
        if _content_length(request) > MAX_BODY:
            raise PayloadTooLarge()
        army_list = army_list_submit(battle=battle, player=player, parsed=parse(request))
        advance_if_ready(battle.round_id)  # early advance
        return Response(list_dict(army_list), status=status.HTTP_201_CREATED)


SUBMITTED = {201: ArmyListSerializer, **error_responses(400, 401, 403, 404, 409, 413, 415)}


class BattleArmyLists(ListSubmit):
    @extend_schema(responses={200: ArmyListsSerializer, **error_responses(401, 403, 404)})
    def get(self, request, campaign_id, battle_id):
        """The battle's army lists the caller may see: its own always, the opponent's once
        both are in or the lists deadline passed (R-ARM-3); the campaign admin sees all."""
        self.require_member()
        battle = self.get_battle()
        rows = visible_lists(battle, battle.round, request.user, timezone.now())
        return Response({"lists": [list_dict(row) for row in rows]})

    @extend_schema(
        request=JSON_INPUT, responses=SUBMITTED,
        examples=[OpenApiExample("entries", request_only=True, value={
            "name": "Spearhead", "entries": [{"name": "Captain", "points": 85}]}),
                  OpenApiExample("text", request_only=True, value={
                      "name": "Spearhead", "text": "Captain - 85\nIntercessors - 100"})])
    def post(self, request, campaign_id, battle_id):
        """Submit or replace the caller's list as JSON, entries or pasted text, until the
        lists are revealed (R-ARM-1..3); a roster file goes to ``.../army-list/upload/``.
        400 ``R-ARM-1`` naming the limit and the excess when it is over the limit."""
        return self.submit(request, _parse_json)


class BattleArmyListUpload(ListSubmit):
    parser_classes = [SafeMultiPartParser]  # an upload: multipart only

    @extend_schema(request={"multipart/form-data": FILE_INPUT}, responses=SUBMITTED)
    def post(self, request, campaign_id, battle_id):
        """Submit or replace the caller's list as a roster file until the lists are revealed
        (R-ARM-1..3); 400 ``R-ARM-1`` naming the limit and the excess when it is over the
        limit, 400 ``R-ARM-2`` naming the file's cost types when it has no points cost."""
        return self.submit(request, _parse_upload)


def _content_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/army-list/",
         BattleArmyLists.as_view(), name="battle-army-list"),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/army-list/upload/",
         BattleArmyListUpload.as_view(), name="battle-army-list-upload"),
]
