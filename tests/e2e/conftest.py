"""End-to-end tests in headless Chromium (Debian's package, never a downloaded browser) driven
by Playwright against pytest-django's live server.

Without /usr/bin/chromium the tests are skipped, except under CI (``CI`` set): there they fail,
since CI must run them (.ci/run installs the package). Each test leaves a full-page screenshot
of its last page in test-output/e2e/<test>.png; ``shot`` saves more along the way. The browser
reports Content-Security-Policy violations on the console; any of them fails the test."""

import os
import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.budget import one_of

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUTPUT = Path(settings.BASE_DIR) / "test-output" / "e2e"
PASSWORD = "correct horse 42"  # tests.factories.UserFactory
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TIMEOUT_MS = 10_000


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the package, with its own fresh profile. Playwright's sync API runs an
    event loop in this thread while the browser is up, which Django's ORM takes for async
    code: DJANGO_ALLOW_ASYNC_UNSAFE is set for exactly that time."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: CI must run the browser tests "
                        "(apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:  # launch() gives the browser a fresh temporary profile and removes it at close
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class Browsing:
    """Opens pages (one browser context per user) and saves screenshots named for the test."""

    def __init__(self, browser, live_server, name: str):
        self.browser, self.base, self.name = browser, live_server.url, name
        self.contexts, self.pages, self.violations = [], [], []
        OUTPUT.mkdir(parents=True, exist_ok=True)

    def page(self, *, viewport=DESKTOP, locale: str = "en-GB"):
        context = self.browser.new_context(viewport=viewport, locale=locale,
                                           base_url=self.base)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.on("console", self._console)
        self.contexts.append(context)
        self.pages.append(page)
        return page

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(message.text)

    def login(self, username: str, **page_options):
        page = self.page(**page_options)
        page.goto("/accounts/login/?next=/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/$"))
        return page

    def signed_in(self, username: str, *, start: str = "/", **page_options):
        """A page of a browser that is signed in already (a returning player's): its session
        cookie is set directly, so only the flows about logging in pay for the login form
        (about 0.5 s a login). Opens ``start``."""
        from tests.worlds import session_of

        page = self.page(**page_options)
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": self.base,
                                   "value": session_of(username)}])
        page.goto(start)
        return page

    def shot(self, page, step: str = "") -> Path:
        path = OUTPUT / (f"{self.name}-{step}.png" if step else f"{self.name}.png")
        page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        if self.pages:
            self.shot(self.pages[-1])
        for context in self.contexts:
            context.close()


@pytest.fixture
def browsing(request, browser, live_server):
    session = Browsing(browser, live_server, re.sub(r"\W+", "-", request.node.name))
    yield session
    session.close()
    assert not session.violations, session.violations


WIDTHS = {"desktop": DESKTOP, "phone": PHONE}


def pytest_generate_tests(metafunc):
    """A main flow (a test taking ``viewport``) runs at desktop width and on
    a phone (390 x 844). CI runs it at both; a developer's run at one of them, picked by the
    test's name (tests/budget.py), so both widths stay driven. A test that parametrizes
    ``viewport`` itself runs as it says."""
    if "viewport" not in metafunc.fixturenames or any(
            "viewport" in marker.args[0] for marker in metafunc.definition.iter_markers(
                "parametrize")):
        return
    names = one_of(metafunc.function.__name__, list(WIDTHS))
    metafunc.parametrize("viewport", [WIDTHS[name] for name in names], ids=names)
