"""One error shape for the whole API (API.md General):
``{"detail": "...", "code": "...", "errors": {field: [msg]}}``."""

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns.errors import DomainError

API_PREFIX = "/api/"


def is_api(request) -> bool:
    """Does the request go to the REST API (which answers only in its JSON error shape)?"""
    return request.path_info.startswith(API_PREFIX)


def json_error(status_code: int, detail: str, code: str) -> JsonResponse:
    """The error shape for answers made outside DRF's views (middleware)."""
    return JsonResponse({"detail": detail, "code": code, "errors": {}}, status=status_code)


def _flatten(errors) -> dict:
    if isinstance(errors, dict):
        return {key: [str(m) for m in (v if isinstance(v, list) else [v])]
                for key, v in errors.items()}
    return {"non_field_errors": [str(m) for m in errors]}


def _first_message(errors: dict) -> str:
    for key, messages in errors.items():
        if messages:
            return messages[0] if key == "non_field_errors" else f"{key}: {messages[0]}"
    return _("Invalid input.")


def _domain_response(exc: DomainError) -> Response:
    errors = {exc.field: [exc.message]} if exc.field else {}
    return Response({"detail": exc.message, "code": exc.code, "errors": errors},
                    status=exc.status)


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        return _domain_response(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        code = getattr(exc, "rule", None) or "invalid"
        response.data = {"detail": _first_message(errors), "code": code, "errors": errors}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
    code = detail.code if hasattr(detail, "code") else "error"
    response.data = {"detail": str(detail), "code": code, "errors": {}}
    return response


class NotFoundAsJSON:
    """An address under /api/ that no route matches (a malformed id, a typo) answers the
    API's 404 shape instead of Django's HTML page; schema clients read one error shape."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        unrouted = getattr(request, "resolver_match", None) is None
        if response.status_code == 404 and unrouted and is_api(request):
            return json_error(404, _("Not found."), "not_found")
        return response
