"""HTTP-level protections: security headers and the Content-Security-Policy on every answer,
pages that satisfy the policy (crawled as four roles over the seeded world), Swagger UI
served without an outside host, production's HSTS and secure cookies, and the odds preview's
own throttle scope."""

import importlib
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from api.views.odds import NavalOdds
from config.security import policy_for
from tests.worlds import ADMIN, ANON, PLAYER, ROOT, SecurityWorld

pytestmark = pytest.mark.django_db
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'")
PAGE_BUDGET = 120  # pages crawled per role


def client_for(world: SecurityWorld, role: str) -> Client:
    client = Client()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    return client


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/v1/campaigns/",
                                  "/api/v1/no-such-thing/", "/healthz"])
def test_every_answer_carries_the_policy_and_the_headers(path):
    response = Client().get(path)
    assert response["Content-Security-Policy"] == policy_for(path)
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_only_the_swagger_ui_allows_inline_script():
    docs, api = policy_for("/api/docs/"), policy_for("/api/v1/campaigns/")
    assert "script-src 'self' 'unsafe-inline'" in docs
    assert "object-src 'none'" in docs and "frame-ancestors 'none'" in docs
    assert "script-src 'self';" in api and "style-src 'self' 'unsafe-inline'" in api
    assert policy_for("/") == policy_for("/campaigns/1/map/") == POLICY


def test_swagger_ui_comes_from_this_server():
    page = Client().get("/api/docs/")
    assert page.status_code == 200
    assert page["Content-Security-Policy"] == policy_for("/api/docs/")
    assert page["X-Content-Type-Options"] == "nosniff" and page["X-Frame-Options"] == "DENY"
    assets = Collector.of(page.content.decode())
    assert assets.sources and all(not urlsplit(src).netloc for src in assets.sources)
    for src in assets.sources:
        if src.startswith("/static/"):
            assert Client().get(src).status_code == 200, src


class Collector(HTMLParser):
    """What a page would run or style inline, its links, and the scripts and styles it
    loads."""

    def __init__(self):
        super().__init__()
        self.inline, self.links, self.sources = [], [], []
        self._script_open = False

    @classmethod
    def of(cls, html: str) -> "Collector":
        collector = cls()
        collector.feed(html)
        return collector

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.inline.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action") and (value or "").startswith("javascript:"):
                self.inline.append(f"<{tag} {name}=javascript:...>")
        if tag == "style":
            self.inline.append("<style> element")
        if tag == "script":
            self._script_open = "src" not in values and \
                values.get("type", "text/javascript") != "application/json"
            if "src" in values:
                self.sources.append(values["src"])
        if tag == "link" and values.get("rel") == "stylesheet":
            self.sources.append(values.get("href", ""))
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])

    def handle_data(self, data):
        if self._script_open and data.strip():
            self.inline.append(f"<script> {data.strip()[:60]}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script_open = False


SKIP = ("/static/", "/api/", "/admin/", "/accounts/logout", "/i18n/")


def crawl(client: Client, starts: list[str]) -> dict[str, Collector]:
    """Every page reachable by GET links from ``starts`` on this site, up to the budget; one
    visit per path (query strings dropped)."""
    seen: dict[str, Collector] = {}
    queue = list(starts)
    while queue and len(seen) < PAGE_BUDGET:
        url = urlsplit(queue.pop(0)).path
        if url in seen or url.startswith(SKIP) or url.endswith(".ics"):
            continue
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        assert response["Content-Security-Policy"] == POLICY, url
        seen[url] = Collector.of(response.content.decode())
        queue += [link for link in seen[url].links if link.startswith("/")
                  and not link.startswith("//")]
    return seen


@pytest.mark.parametrize("role", [ANON, PLAYER, ADMIN, ROOT])
def test_pages_satisfy_the_policy(security_world, role):
    """No inline script, event handler, style element or attribute, javascript: URL, or
    script or stylesheet from another host on any page the role reaches (the private campaign
    in the lists phase with battles, fleets and a naval battle; the demo campaign)."""
    world = security_world
    starts = ["/", f"/campaigns/{world.private.campaign}/",
              f"/campaigns/{world.public.campaign}/"]
    pages = crawl(client_for(world, role), starts)
    assert len(pages) >= (4 if role == ANON else 10), sorted(pages)
    offences = [f"{url}: {item}" for url, page in pages.items() for item in page.inline]
    offences += [f"{url}: loads {src}" for url, page in pages.items()
                 for src in page.sources if urlsplit(src).netloc]
    assert not offences, "\n".join(offences)


def test_the_collector_finds_what_the_policy_forbids():
    page = Collector.of('<div style="color:red" onclick="x()"><style>p{}</style>'
                        '<script>alert(1)</script><script src="https://cdn.example/x.js">'
                        '</script><script type="application/json">{}</script>'
                        '<a href="javascript:void(0)">x</a></div>')
    assert len(page.inline) == 5
    assert page.sources == ["https://cdn.example/x.js"]


# --- production -------------------------------------------------------------------------------

@pytest.fixture
def production(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 50)
    monkeypatch.setenv("ALLOWED_HOSTS", "feldzug.example.org")
    return importlib.reload(importlib.import_module("config.production"))


def test_production_sets_hsts_and_secure_cookies(production):
    assert production.SECURE_HSTS_SECONDS >= 31536000
    assert production.SECURE_HSTS_INCLUDE_SUBDOMAINS and production.SECURE_HSTS_PRELOAD
    assert production.SECURE_SSL_REDIRECT
    assert production.SESSION_COOKIE_SECURE and production.CSRF_COOKIE_SECURE
    assert production.SESSION_COOKIE_HTTPONLY
    assert production.CONTENT_SECURITY_POLICY["script-src"] == "'self'"
    assert "config.security.ContentSecurityPolicyMiddleware" in production.MIDDLEWARE


def test_production_answers_carry_hsts_over_https(production, settings):
    for name in ("SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
                 "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
        setattr(settings, name, getattr(production, name))
    response = Client().get("/accounts/login/", secure=True)
    assert response["Strict-Transport-Security"] == \
        f"max-age={production.SECURE_HSTS_SECONDS}; includeSubDomains; preload"
    assert response.cookies["csrftoken"]["secure"]
    assert response["Content-Security-Policy"] == POLICY


# --- the odds preview's throttle --------------------------------------------------------------

def test_odds_preview_has_its_own_throttle_scope(monkeypatch, security_world):
    assert NavalOdds.throttle_scope == "odds"
    assert ScopedRateThrottle in NavalOdds.throttle_classes
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES",
                        {**SimpleRateThrottle.THROTTLE_RATES, "odds": "2/min"})
    client = APIClient()
    client.force_authenticate(security_world.users[PLAYER])
    answers = [client.post("/api/v1/odds/naval/", {}, format="json") for _ in range(3)]
    assert [a.status_code for a in answers] == [400, 400, 429]
    assert int(answers[2]["Retry-After"]) > 0
    assert client.get("/api/v1/me/").status_code == 200  # the other scopes are not spent
