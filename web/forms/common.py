"""Helpers shared by the pages' forms."""

from django import forms

from campaigns.errors import DomainError
from web.templatetags.feldzug import explained


def add_service_error(form: forms.Form, exc: DomainError, fields: dict | None = None) -> None:
    """Show a service's refusal next to the field it names (``fields`` maps service field names
    to form field names); anything else, or a hidden field, goes above the form."""
    name = (fields or {}).get(exc.field, exc.field)
    shown = name in form.fields and not form.fields[name].widget.is_hidden
    form.add_error(name if shown else None, explained(exc))
