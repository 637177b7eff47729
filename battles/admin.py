"""Django admin for battles, for looking things up. Every change goes through the services
(results, lists, dates, conquest), so these views are read-only; a calendar token's secret is
never shown."""

from django.contrib import admin

from battles.models import (
    ArmyList,
    Battle,
    CalendarDeadline,
    CalendarToken,
    ConquestChoice,
    ConquestRoll,
    Notification,
    NotificationPreference,
    ResultChange,
    ScheduleProposal,
)


class ReadOnly(admin.ModelAdmin):
    """Written by the battles services only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ResultChangeInline(admin.TabularInline):
    model = ResultChange
    extra = 0
    can_delete = False
    fields = ("at", "by", "old", "new")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Battle)
class BattleAdmin(ReadOnly):
    list_display = ("id", "round", "tile", "attacker", "defender", "chain_position", "status",
                    "outcome", "result_status")
    list_filter = ("status", "result_status", "round__campaign")
    list_select_related = ("round", "tile", "attacker", "defender")
    inlines = (ResultChangeInline,)


@admin.register(ArmyList)
class ArmyListAdmin(ReadOnly):
    list_display = ("battle", "player", "name", "total", "source", "submitted_at")
    list_filter = ("source", "battle__round__campaign")


@admin.register(ScheduleProposal)
class ScheduleProposalAdmin(ReadOnly):
    list_display = ("battle", "proposed_by", "proposed_at", "place", "status")
    list_filter = ("status",)


@admin.register(ConquestChoice)
class ConquestChoiceAdmin(ReadOnly):
    list_display = ("round", "player")


@admin.register(ConquestRoll)
class ConquestRollAdmin(ReadOnly):
    list_display = ("round", "tile", "player", "attack", "battle")
    list_filter = ("round__campaign",)


@admin.register(CalendarDeadline)
class CalendarDeadlineAdmin(ReadOnly):
    list_display = ("round", "phase", "at", "sequence", "changed_at")


@admin.register(CalendarToken)
class CalendarTokenAdmin(ReadOnly):
    list_display = ("user", "created_at")
    fields = ("user", "created_at")  # never the token itself


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(ReadOnly):
    list_display = ("player", "kind", "enabled")
    list_filter = ("kind",)


@admin.register(Notification)
class NotificationAdmin(ReadOnly):
    list_display = ("recipient", "campaign", "kind", "subject", "created_at", "sent_at")
    list_filter = ("kind", "campaign")
