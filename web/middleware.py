"""The pages' one check of posted text (issue 14 item 6): a POST whose field name, value or
uploaded file name holds NUL, another control character (tab and line breaks are fine) or a
lone surrogate is refused with a 400 page naming the field, before any view or form sees it
(PostgreSQL refuses NUL in text). The API checks its bodies in its parsers (api/parsers.py);
uploaded files' contents are checked by whoever reads them (rosters, map documents)."""

from django.shortcuts import render
from django.utils.translation import gettext as _

from rules.text import forbidden_character


def first_forbidden(request) -> tuple[str, object] | None:
    """(field, Forbidden) of the first posted field or file name holding a forbidden
    character, or None."""
    for data in (request.POST, request.FILES):
        for key, values in data.lists():
            for value in [key, *(getattr(v, "name", v) for v in values)]:
                found = forbidden_character(value) if isinstance(value, str) else None
                if found:
                    return (key if forbidden_character(key) is None else "?"), found
    return None


class RefuseForbiddenCharacters:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method != "POST" or request.path_info.startswith("/api/"):
            return None
        refused = first_forbidden(request)
        if refused is None:
            return None
        field, found = refused
        message = _("The field “%(field)s” contains U+%(code)s at position %(position)s: NUL, "
                    "control characters and lone surrogates are not allowed.") % {
            "field": field, "code": found.code, "position": found.position}
        return render(request, "web/refused_input.html", {"message": message}, status=400)
