"""Serializers of the battles API (API.md "Battles (tabletop)")."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import datetime_text as _datetime
from api.serializers.conquest import ConquestRollSerializer
from battles.models import Battle, ResultChange, ScheduleProposal
from battles.selectors.battles import immediate_roll_of, limit_breakdown, result_snapshot
from battles.selectors.conquest import roll_dict
from battles.selectors.lists import lists_revealed, participants
from battles.services.results import MAX_REASON, MAX_VP
from campaigns.labels import tile_label
from campaigns.values import ID_MAX, ROUND_NUMBER_MAX


class ResultSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Battle.Outcome.choices)
    attacker_vp = serializers.IntegerField()
    defender_vp = serializers.IntegerField()
    status = serializers.ChoiceField(choices=[s for s in Battle.ResultStatus.values if s])


class HistoryResultSerializer(ResultSerializer):
    reason = serializers.CharField(required=False,
                                   help_text="why the system set it (e.g. R-ATK-4, R-RND-3)")


class ResultChangeSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username", allow_null=True, default=None,
                               help_text="username; null when the rules set it")
    old = HistoryResultSerializer(allow_null=True)
    new = HistoryResultSerializer()

    class Meta:
        model = ResultChange
        fields = ["by", "at", "old", "new"]


class BonusSerializer(serializers.Serializer):
    base = serializers.IntegerField(help_text="base_army_points (R-BON-1)")
    tiles = serializers.IntegerField(help_text="tile bonus (R-BON-2)")
    markers = serializers.IntegerField(help_text="marker bonus (R-MRK-2)")
    total = serializers.IntegerField(help_text="the limit: base + tiles + markers (R-BON-1)")


class ProposalSerializer(serializers.ModelSerializer):
    proposed_by = serializers.IntegerField(source="proposed_by_id", help_text="player id")

    class Meta:
        model = ScheduleProposal
        fields = ["id", "proposed_by", "proposed_at", "place", "status", "created_at"]


class BattleSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", help_text="round number")
    tile = serializers.IntegerField(source="tile_id")
    tile_name = serializers.SerializerMethodField(
        help_text="what the pages call the tile: its name and planet when it has a name "
                  "(\"Grauer Pass (Nordmark Prime)\"), else its planet and coordinates")
    attacker = serializers.IntegerField(source="attacker_id")
    defender = serializers.IntegerField(source="defender_id", allow_null=True,
                                        help_text="null until settled, or a neutral garrison")
    point_limits = serializers.DictField(child=serializers.IntegerField(),
                                         help_text="player id (string) -> army limit (R-BON-1)")
    bonus = serializers.SerializerMethodField(
        help_text="player id (string) -> limit breakdown (R-BON-1)")
    schedule_proposal = serializers.SerializerMethodField(
        help_text="the open date proposal (R-BAT-2), null when none")
    lists_submitted = serializers.SerializerMethodField(
        help_text="player id (string) -> whether that side's army list is in (never its "
                  "content, R-ARM-3)")
    lists_revealed = serializers.SerializerMethodField(
        help_text="whether the participants see each other's lists (R-ARM-3)")
    result = serializers.SerializerMethodField()
    history = ResultChangeSerializer(many=True)
    chain_decision = serializers.SerializerMethodField(
        help_text="a chain link's roll decision (R-CON-6): roll, waive, or null until made")
    chain_roll = serializers.SerializerMethodField(
        help_text="the immediate roll after this chain link as it was made (R-CON-6), null "
                  "if none; its odds before the decision: GET .../conquest/")

    class Meta:
        model = Battle
        fields = ["id", "round", "tile", "tile_name", "attacker", "defender", "neutral",
                  "chain_position", "chain_length", "status", "point_limits", "bonus",
                  "scheduled_at", "place", "schedule_proposal", "lists_submitted",
                  "lists_revealed", "result", "history", "chain_decision", "chain_roll"]

    def to_representation(self, battle) -> dict:
        """A Battle (``campaign_battles``) or a list row (``battle_rows``): the fields above,
        built directly (DRF's field machinery was most of a
        league's battles list); the declared fields stay the schema, and
        tests/api/test_schema_responses.py checks the answers against it; each computed field
        is its ``get_*`` method, which also gives the schema its type."""
        return {
            "id": battle.pk, "round": battle.round.number, "tile": battle.tile_id,
            "tile_name": self.get_tile_name(battle),
            "attacker": battle.attacker_id, "defender": battle.defender_id,
            "neutral": battle.neutral, "chain_position": battle.chain_position,
            "chain_length": battle.chain_length, "status": battle.status,
            "point_limits": battle.point_limits, "bonus": self.get_bonus(battle),
            "scheduled_at": _datetime(battle.scheduled_at), "place": battle.place,
            "schedule_proposal": self.get_schedule_proposal(battle),
            "lists_submitted": self.get_lists_submitted(battle),
            "lists_revealed": self.get_lists_revealed(battle),
            "result": self.get_result(battle),
            "history": [_change(change) for change in _history(battle)],
            "chain_decision": self.get_chain_decision(battle),
            "chain_roll": self.get_chain_roll(battle),
        }

    @extend_schema_field(serializers.CharField())
    def get_tile_name(self, battle: Battle) -> str:
        # a list row carries it (battle_rows); a Battle has its tile and planet selected
        return getattr(battle, "tile_name", None) or tile_label(battle.tile)

    @extend_schema_field(serializers.DictField(child=BonusSerializer()))
    def get_bonus(self, battle: Battle) -> dict:
        return limit_breakdown(battle)

    @extend_schema_field(ProposalSerializer(allow_null=True))
    def get_schedule_proposal(self, battle: Battle) -> dict | None:
        proposals = battle.open_proposals  # battles.selectors.battles.campaign_battles
        if not proposals:
            return None
        proposal = proposals[0]
        return {"id": proposal.pk, "proposed_by": proposal.proposed_by_id,
                "proposed_at": _datetime(proposal.proposed_at), "place": proposal.place,
                "status": proposal.status, "created_at": _datetime(proposal.created_at)}

    @extend_schema_field(serializers.DictField(child=serializers.BooleanField()))
    def get_lists_submitted(self, battle: Battle) -> dict:
        handed_in = {row.player_id for row in battle.handed_in}
        return {str(p): p in handed_in for p in participants(battle)}

    @extend_schema_field(serializers.BooleanField())
    def get_lists_revealed(self, battle: Battle) -> bool:
        now = self.context.get("now") or timezone.now()
        return lists_revealed(battle, battle.round, now)

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_result(self, battle: Battle) -> dict | None:
        return result_snapshot(battle)

    @extend_schema_field(serializers.ChoiceField(choices=["roll", "waive"], allow_null=True))
    def get_chain_decision(self, battle: Battle) -> str | None:
        return battle.chain_decision or None

    @extend_schema_field(ConquestRollSerializer(allow_null=True))
    def get_chain_roll(self, battle: Battle) -> dict | None:
        if hasattr(battle, "chain_roll_row"):  # a list row (battles.selectors.battle_rows)
            made = battle.chain_roll_row
        else:
            made = immediate_roll_of(battle)  # read with the battle (campaign_battles)
        return roll_dict(made) if made else None


RESULT_KEYS = ("outcome", "attacker_vp", "defender_vp", "status", "reason")


def _result(stored: dict | None) -> dict | None:
    """A stored result as HistoryResultSerializer writes it: its fields, ``reason`` only
    when there is one."""
    if stored is None:
        return None
    return {key: stored[key] for key in RESULT_KEYS if key in stored}


def _history(battle) -> list[ResultChange]:
    """The result history a list row carries, or a Battle's prefetched one."""
    rows = getattr(battle, "history_rows", None)
    return battle.history.all() if rows is None else rows


def _change(change: ResultChange) -> dict:
    """ResultChangeSerializer's answer, built directly (the battles list's hot path)."""
    return {"by": change.by.username if change.by_id else None, "at": _datetime(change.at),
            "old": _result(change.old), "new": _result(change.new)}


class ResultInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Battle.Outcome.choices,
                                      help_text="from the attacker's side (R-BAT-3)")
    attacker_vp = serializers.IntegerField(min_value=0, max_value=MAX_VP)
    defender_vp = serializers.IntegerField(min_value=0, max_value=MAX_VP)


class DisputeInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=MAX_REASON,
                                   help_text="why, for the campaign admin")


class BattleFilter(serializers.Serializer):
    round = serializers.IntegerField(required=False, min_value=1, max_value=ROUND_NUMBER_MAX,
                                     help_text="round number")
    player = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX,
                                      help_text="attacker or defender (player id)")
    status = serializers.ChoiceField(required=False, choices=Battle.Status.choices)
