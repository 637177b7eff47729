"""Edits made in the Django admin land in the campaign's audit log (R-SEC-2: the organiser
fixes mistakes in the app; a staff edit behind its back must still be seen). One mixin for the
admin classes of campaign data: every add, change and delete (inline rows included) records an
``AdminAction`` with the staff user, the object and the changed fields' values before and
after. Entries are admin-only unless the class says its fields are public facts
(``audit_public``): fleet contents, orders, hazards, requisition, declarations before reveal
and seeds are hidden information (R-FLT-7, R-SEA-2, R-ARM-3, R-DICE-2)."""

from datetime import date, datetime
from decimal import Decimal

from django.db import models

from campaigns.models import Campaign
from campaigns.services.admin_log import record

KINDS = {"add": "staff.add", "change": "staff.change", "delete": "staff.delete"}


def campaign_of(obj) -> Campaign | None:
    """The campaign an admin-edited object belongs to, by its usual path; None if none."""
    if isinstance(obj, Campaign):
        return obj
    for path in ("campaign", "round", "fleet", "battle", "area", "player", "tile"):
        parent = getattr(obj, path, None)
        if isinstance(parent, Campaign):
            return parent
        if parent is not None and path != "campaign":
            return campaign_of(parent)
    return None


def as_json(value):
    """A form or field value as JSON: objects by primary key, dates as ISO text."""
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, (list, tuple, set, models.QuerySet)):
        return [as_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _changes(form) -> tuple[dict, dict]:
    """The changed fields of a bound model form: (before, after)."""
    fields = [name for name in form.changed_data if name in form.fields]
    before = {name: as_json(form.initial.get(name)) for name in fields}
    after = {name: as_json(form.cleaned_data.get(name)) for name in fields}
    return before, after


class AuditedAdmin:
    """Mix into a ``ModelAdmin`` (before it) of campaign data."""

    audit_public = False  # True only where every field is a public fact (the map)

    def _audit(self, request, obj, action: str, before=None, after=None) -> None:
        campaign = campaign_of(obj)
        if campaign is None or campaign.pk is None:
            return
        target = f"{obj._meta.verbose_name} {obj.pk}: {obj}"
        record(campaign=campaign, actor=request.user, kind=KINDS[action], target=target,
               before=before or None, after=after or None, public=self.audit_public)

    def save_model(self, request, obj, form, change):
        before, after = _changes(form)
        super().save_model(request, obj, form, change)
        if not change or after:
            self._audit(request, obj, "change" if change else "add", before, after)

    def delete_model(self, request, obj):
        self._audit(request, obj, "delete")
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self._audit(request, obj, "delete")
        super().delete_queryset(request, queryset)

    def save_formset(self, request, form, formset, change):
        """Inline rows: each added, changed or deleted row is an entry of its own."""
        changes = {row.instance.pk: _changes(row) for row in formset.forms
                   if row.instance.pk and row.has_changed()}
        deleted = [row.instance for row in getattr(formset, "deleted_forms", [])
                   if row.instance.pk]
        for obj in deleted:
            self._audit(request, obj, "delete")
        super().save_formset(request, form, formset, change)
        for obj in getattr(formset, "new_objects", []):
            self._audit(request, obj, "add")
        for obj, _fields in getattr(formset, "changed_objects", []):
            before, after = changes.get(obj.pk, ({}, {}))
            self._audit(request, obj, "change", before, after)
