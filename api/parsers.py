"""The API's parsers: JSON everywhere (settings ``DEFAULT_PARSER_CLASSES``, the token endpoint
too), multipart only where a view takes an upload (army list rosters); any other body is a
415. Every body is checked in this one place, before any view sees it (API.md
General: never 500 on any input): JSON nested too deeply is a 400, and a
string, key or form value holding NUL, another control character or a lone surrogate is a
400 naming the field (PostgreSQL refuses NUL in text; a lone surrogate cannot be stored as
UTF-8)."""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser, MultiPartParser

from rules.text import walk_text


class ForbiddenCharacter(ValidationError):
    """A 400 whose ``code`` says why (api.errors reads ``rule``)."""

    rule = "forbidden_character"


def forbidden_text_error(found) -> str:
    return _("contains U+%(code)s at position %(position)s: NUL, control characters and lone "
             "surrogates are not allowed") % {"code": found.code, "position": found.position}


def check_text(data) -> None:
    """Raise a 400 naming every field of ``data`` that holds a forbidden character."""
    errors: dict[str, list[str]] = {}
    for path, found in walk_text(data):
        errors.setdefault(path or "non_field_errors", []).append(forbidden_text_error(found))
    if errors:
        raise ForbiddenCharacter(errors)


def _form_items(data) -> dict:
    """A QueryDict (or MultiValueDict of files) as plain lists, file names for files."""
    return {key: [getattr(v, "name", v) for v in data.getlist(key)] for key in data}


class SafeJSONParser(JSONParser):
    """JSON that nests too deeply for Python's parser is a 400, not a 500; so is text with a
    forbidden character."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - nested too deeply.")) from None
        check_text(data)
        return data


class SafeMultiPartParser(MultiPartParser):
    """Form fields and uploaded files' names are checked; a file's content is read by the
    endpoint that takes it (rosters, map documents), which refuses bad text itself."""

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        check_text({**_form_items(parsed.data), **_form_items(parsed.files)})
        return parsed
