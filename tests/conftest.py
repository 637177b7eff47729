import pytest

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def _fast_and_eager(request):
    """Fast password hashing; Celery tasks run in-process except in tests that start a worker.
    Pure rules tests also run without pytest-django (``-p no:django``)."""
    try:
        settings = request.getfixturevalue("settings")
    except pytest.FixtureLookupError:
        yield
        return
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import cache

    cache.clear()  # throttle counters start at zero in every test
    eager = request.node.get_closest_marker("celery_worker") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    yield
    celery_app.conf.task_always_eager = previous
