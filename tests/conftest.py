import os
from urllib.parse import urlsplit, urlunsplit

import pytest

from config.celery import app as celery_app
from tests import shared_worlds
from tests.module_world import module_world


def _worker_redis(location: str) -> str:
    """Each pytest-xdist worker gets a Redis database of its own, below the broker's, so one
    worker's ``cache.clear()`` (a FLUSHDB) never resets another worker's throttle counters nor
    drops the broker's queues."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    number = int(worker.removeprefix("gw") or 0) + 1
    parts = urlsplit(location)
    base = int(parts.path.strip("/") or 0)
    db = base - number if base >= number else base + number
    return urlunsplit(parts._replace(path=f"/{db}"))


# --- the suite's wall time on two cores --------------------------------------------
# The slowest tests start first, in this order (slowest first; xdist deals the first tests out
# in turn), so none of them finishes the run alone at the end: the compiled engines' test (its
# build starts with the session), then the long single tests and the fuzzing modules.
SLOW_FIRST = (
    "tests/rules/test_compiled_engines.py",
    "tests/api/test_schema_responses.py::test_every_get_route_answers_as_its_schema_says",
    "tests/league/test_archive.py::test_import_of_a_damaged_archive_is_refused_never",
    "tests/campaigns/test_map_build.py::test_no_builder_input_makes_a_500",
    "tests/api/test_fuzz_inputs.py",
    "tests/league/test_worker_killed.py",
    "tests/fleets/test_fleets_api.py::test_no_input_makes_a_500",
    "tests/league/test_map_import.py::test_no_document_makes_a_500",
    "tests/api/test_fuzz_schema.py",
)


def pytest_configure(config):
    """In the controller (or a run without xdist): start the mypyc build in the background when
    the compiled engines' test is selected (``tests/compiled_build.py``)."""
    from tests import compiled_build

    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    if compiled_build.is_selected(config.args, config.getoption("ignore")):
        config._compiled_build = compiled_build.start_in_background()


def pytest_unconfigure(config):
    from tests import compiled_build

    compiled_build.stop(getattr(config, "_compiled_build", None))


def _slow_rank(nodeid: str) -> int:
    return next((i for i, prefix in enumerate(SLOW_FIRST) if nodeid.startswith(prefix)),
                len(SLOW_FIRST))


def pytest_collection_modifyitems(items):
    """The slowest tests first, in their order (a stable sort: every xdist worker collects the
    same order); within a module, the readers of a shared world first (``shared_worlds``)."""
    items.sort(key=lambda item: _slow_rank(item.nodeid))
    shared_worlds.order(items)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    shared_worlds.close_unread(item)


# Settings that the static files' listing of WhiteNoise's middleware reads (with WHITENOISE_*).
STATIC_SETTINGS = ("DEBUG", "STATIC_URL", "STATIC_ROOT", "STATICFILES_DIRS", "STATICFILES_FINDERS",
                   "FORCE_SCRIPT_NAME", "INSTALLED_APPS")


def _list_static_files_once() -> None:
    """Every new test client loads the middleware, and WhiteNoise's lists the static files
    through the finders on each load (about 10 ms of the 11 ms of a new client's first request;
    thousands of clients in the suite). The listing is kept per state of the settings
    it reads, so each process lists them once; the files do not change during a run."""
    from django.conf import settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    if getattr(WhiteNoiseMiddleware, "listed_once", False):
        return
    list_files, listings = WhiteNoiseMiddleware.add_files_from_finders, {}

    def add_files_from_finders(self):
        names = [*STATIC_SETTINGS, *sorted(n for n in dir(settings) if n.startswith("WHITENOISE"))]
        key = repr([(name, getattr(settings, name, None)) for name in names])
        if key not in listings:
            before = dict(self.files)
            list_files(self)
            listings[key] = {url: static for url, static in self.files.items()
                             if before.get(url) is not static}
        self.files.update(listings[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders
    WhiteNoiseMiddleware.listed_once = True


@pytest.fixture(scope="session", autouse=True)
def _fast_and_own_settings():
    """For the whole session (the worlds built once per module included), set once: fast
    password hashing (Django's default hasher takes about 0.3 s per user) and this worker's
    own Redis database for the cache (``_worker_redis``). Set per test, they cost 1.6 ms each
    (a new cache connection every test)."""
    from django.conf import settings

    if not settings.configured:
        yield  # the pure rules tests without pytest-django
        return
    from django.test import override_settings

    caches = settings.CACHES
    if caches["default"]["BACKEND"].endswith("RedisCache"):
        caches = {**caches, "default": {
            **caches["default"], "LOCATION": _worker_redis(caches["default"]["LOCATION"])}}
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS, CACHES=caches):
        _list_static_files_once()
        yield


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Tables a transactional test leaves as they are: what the migrations wrote, never a test.
KEPT_TABLES = frozenset({"django_migrations", "django_content_type", "auth_permission"})


def _delete_every_row(self) -> None:
    """A transactional test's cleanup on PostgreSQL: one ``DELETE`` per table, in one round
    trip and one transaction, where Django's flush truncates every table (0.42 s for about 80
    tables, each test; a test's few rows delete in milliseconds). Django's foreign
    keys there are deferrable, so the order of the tables does not matter. The content types
    and permissions stay, so Django's flush signal has nothing to recreate."""
    from django.db import connections, transaction

    for alias in self._databases_names(include_mirrors=False):
        connection = connections[alias]
        tables = sorted(set(connection.introspection.django_table_names(
            only_existing=True, include_views=False)) - KEPT_TABLES)
        quote = connection.ops.quote_name
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED; "
                           + "; ".join(f"DELETE FROM {quote(table)}" for table in tables))


@pytest.fixture(scope="session", autouse=True)
def _quick_cleanup_after_transactional_tests():
    """``_delete_every_row`` instead of Django's flush, on PostgreSQL."""
    from django.conf import settings

    if not settings.configured or "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        yield
        return
    from django.test import TransactionTestCase

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", _delete_every_row)
        yield


@pytest.fixture(autouse=True)
def _fresh_and_eager(request):
    """Each test starts with an empty cache; Celery tasks run in-process except in tests that
    start a worker. Pure rules tests also run without pytest-django (``-p no:django``)."""
    from django.conf import settings

    if not settings.configured:
        yield
        return
    from django.core.cache import cache

    from campaigns.cache import clear

    cache.clear()  # throttle counters start at zero in every test
    clear()  # ids and revisions repeat after each test's rollback
    eager = request.node.get_closest_marker("celery_worker") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    yield
    celery_app.conf.task_always_eager = previous
    from django.utils import translation

    translation.deactivate()  # a German request leaves German active in this thread


# --- worlds (tests/worlds.py) ------------------------------------------------------------------
# Imported inside the fixtures: the pure rules tests run without Django (``-p no:django``).


@pytest.fixture
def league(db):
    """The base league: a private campaign, its admin (orga) and four players (anna, ben, carl,
    dora) with 10 requisition each; no planet, no round yet."""
    from tests.worlds import make_league

    return make_league()


@pytest.fixture
def lg(league):
    """The same league under the short name the battle tests use."""
    return league


@pytest.fixture
def outsider(db):
    """A user who belongs to no campaign."""
    from tests.factories import UserFactory

    return UserFactory(username="outsider")


def _page_world(visibility: str):
    from tests.worlds import build_page_world

    return build_page_world(visibility)


# The page worlds, built once for the tests of a module that read them (``tests/shared_worlds.py``).
_page_world_once = shared_worlds.shared_world("page_world", lambda: _page_world("private"))
_public_page_world_once = shared_worlds.shared_world("public_page_world",
                                                     lambda: _page_world("public"))


@pytest.fixture
def page_world(_page_world_once, db):
    """The page tests' world (``build_page_world``): private, round 1 in declare."""
    return shared_worlds.own_copy(_page_world_once) or _page_world("private")


@pytest.fixture
def public_page_world(_public_page_world_once, db):
    """The page world in a public campaign."""
    return shared_worlds.own_copy(_public_page_world_once) or _page_world("public")


def _fleet_world():
    from tests.worlds import build_fleet_world

    return build_fleet_world()


_fleet_world_once = shared_worlds.shared_world("fleet_world", _fleet_world)


@pytest.fixture
def fleet_world(_fleet_world_once, db):
    """The fleet API world (``build_fleet_world``), round 1 in declare."""
    return shared_worlds.own_copy(_fleet_world_once) or _fleet_world()


@pytest.fixture
def scripted_fleet_dice(monkeypatch):
    """The fleet phase rolls the scenario's scripted faces (``FLEET_PHASE_FACES``)."""
    from fleets.services import phase
    from tests.worlds import scripted_dice

    monkeypatch.setattr(phase, "dice_factory", scripted_dice())


@pytest.fixture
def fleet_phase(db):
    """The fleet phase scenario (``build_fleet_phase``) in declare, orders given."""
    from tests.worlds import build_fleet_phase

    return build_fleet_phase()


@pytest.fixture
def resolved_fleet_phase(scripted_fleet_dice, fleet_phase):
    """The fleet phase scenario after its phase ran on the scripted dice (round in lists)."""
    from league.services.rounds import round_advance, round_run_phase_job

    round_advance(round_id=fleet_phase.rnd.pk, expected_phase="declare")
    round_run_phase_job(round_id=fleet_phase.rnd.pk, phase="fleets")
    return fleet_phase


def _security_world():
    from tests.worlds import build_security_world

    return build_security_world()


# The seeded world of the permission matrix and the fuzzing gate (``build_security_world``).
security_world = module_world(_security_world)


@pytest.fixture
def receiver(settings):
    """A local HTTP receiver for webhook deliveries (``tests/webhook_receiver.py``);
    private addresses allowed for it."""
    from tests.webhook_receiver import start_receiver

    settings.WEBHOOKS_ALLOW_PRIVATE = True
    rec = start_receiver()
    yield rec
    rec.server.shutdown()
    rec.server.server_close()
