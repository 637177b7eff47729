"""Faults that are not the caller's input, answered in the shape the caller reads
(API.md General: the API answers in its JSON error shape, never an HTML page):

- a body over the size limits (``DATA_UPLOAD_MAX_MEMORY_SIZE``, too many fields or files)
  under ``/api/``: a JSON 413, refused before it is read when its declared length is over
  the limit, and whichever endpoint reads it otherwise (pages keep Django's 400 page);
- a lost database connection (``OperationalError``, ``InterfaceError``): a JSON 503 under
  ``/api/``, a plain 503 page elsewhere (rendered without the database), both with
  ``Retry-After``. The error is logged; the request did not commit;
- a deadlock or serialization failure that outlasted the services' retries
  (``campaigns.locking``): the database is up, another request changed the same rows at the
  same moment: 409 ``try_again``, in the same two shapes. The request did not commit."""

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from api.errors import is_api, json_error
from campaigns.locking import is_transient

logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 30
TOO_LARGE = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)
DATABASE_DOWN = (OperationalError, InterfaceError)


def _body_limit() -> float:
    """The largest body the API reads (``DATA_UPLOAD_MAX_MEMORY_SIZE``; the one upload, a
    roster of at most 2 MB, stays below it)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return float("inf") if limit is None else limit


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _fault(request, status: int, code: str, title: str, detail: str,
           retry_after: int) -> HttpResponse:
    if is_api(request):
        response = json_error(status, detail, code)
    else:
        response = HttpResponse(
            f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"</head><body><h1>{escape(title)}</h1><p>{escape(detail)}</p></body></html>",
            status=status, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(retry_after)
    return response


def database_unavailable(request) -> HttpResponse:
    return _fault(request, 503, "service_unavailable", _("Service unavailable"),
                  _("The database is unavailable; try again in a moment."),
                  RETRY_AFTER_SECONDS)


def try_again(request) -> HttpResponse:
    return _fault(request, 409, "try_again", _("Please try again"),
                  _("Someone else changed the same thing at the same moment. Nothing of "
                    "yours was saved; try again."), 1)


class FaultResponses:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_api(request) and _declared_length(request) > _body_limit():
            return json_error(413, _("The request body is too large."), "too_large")
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_transient(exception):
            logger.warning("lock conflict after retries during %s %s", request.method,
                           request.path_info, exc_info=exception)
            return try_again(request)
        if isinstance(exception, DATABASE_DOWN):
            logger.error("database unavailable during %s %s", request.method,
                         request.path_info, exc_info=exception)
            return database_unavailable(request)
        if isinstance(exception, TOO_LARGE) and is_api(request):
            return json_error(413, _("The request body is too large."), "too_large")
        return None
