"""Content-Security-Policy for every response (Django 5.2 has none built in).

The policy is ``settings.CONTENT_SECURITY_POLICY`` (directive -> sources). Paths listed in
``settings.CONTENT_SECURITY_POLICY_RELAXED`` take their own directives over it:

- the Swagger UI at /api/docs/ (served from drf-spectacular-sidecar, no outside host) starts
  itself with an inline script and an inline style block that drf-spectacular's view renders,
  so that page alone allows inline code; it shows no user content;
- DRF's browsable API (HTML under /api/v1/) sets a few inline styles; its scripts are files.

A response that already carries the header keeps its own policy."""

from django.conf import settings

HEADER = "Content-Security-Policy"


def render(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {sources}".strip() for name, sources in directives.items())


def policy_for(path: str) -> str:
    directives = dict(settings.CONTENT_SECURITY_POLICY)
    for prefix, relaxed in settings.CONTENT_SECURITY_POLICY_RELAXED.items():
        if path.startswith(prefix):
            directives.update(relaxed)
    return render(directives)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = policy_for(request.path)
        return response
