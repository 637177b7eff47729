"""Responses go out gzip-compressed, pages and API alike (the league map
page about 12x smaller, its API map about 10x), when the client accepts gzip and the body is
worth it (Django's ``GZipMiddleware``: 200 bytes or more, not already encoded).

A strong ETag becomes weak on the compressed copy; conditional GETs keep working since
If-None-Match compares weakly (the calendar feeds, tests/api/test_compression.py). Django
masks the CSRF token per request, which keeps compressed pages safe from BREACH. Responses
that carry another secret (the API token, a webhook's signing secret, the account pages with
the calendar and API tokens) go out uncompressed for the same reason."""

from django.middleware.gzip import GZipMiddleware

SECRET_PATHS = ("/api/v1/auth/", "/accounts/")
SECRET_PARTS = ("/webhooks/", "/battles/calendar/")


def holds_secret(path: str) -> bool:
    return path.startswith(SECRET_PATHS) or any(part in path for part in SECRET_PARTS)


class ResponseGZipMiddleware(GZipMiddleware):
    """Every response (the API too: the schema fuzz test's
    client now asks for an uncompressed body, tests/api/test_fuzz_schema.py), except those
    holding a secret (BREACH)."""

    def process_response(self, request, response):
        if holds_secret(request.path):
            return response
        return super().process_response(request, response)
