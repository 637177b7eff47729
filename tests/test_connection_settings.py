"""Persistent database connections by default in production and compose (a new
PostgreSQL connection per request cost more than most pages' queries), health-checked before
reuse; the development default (runserver, tests) keeps one connection per request."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PROBE = ("import django; django.setup(); import json; from django.conf import settings; "
         "d = settings.DATABASES['default']; "
         "print(json.dumps([d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS']]))")


def connection_settings(module: str, **extra: str) -> list:
    env = {key: value for key, value in os.environ.items()
           if key not in ("CONN_MAX_AGE", "DEBUG")}
    env.update(DJANGO_SETTINGS_MODULE=module, SECRET_KEY="x" * 50, ALLOWED_HOSTS="example.org",
               DATABASE_URL="postgres://feldzug@127.0.0.1:5432/feldzug")
    env.update(extra)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_production_keeps_connections_with_health_checks():
    assert connection_settings("config.production") == [60, True]
    assert connection_settings("config.production", CONN_MAX_AGE="0") == [0, True]
    url = "postgres://feldzug@127.0.0.1:5432/feldzug?conn_max_age=5"
    assert connection_settings("config.production", DATABASE_URL=url) == [5, True]


def test_development_opens_one_connection_per_request():
    assert connection_settings("config.settings") == [0, False]


def test_compose_runs_production_with_persistent_connections():
    app = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]
    assert app["environment"]["DJANGO_SETTINGS_MODULE"] == "config.production"
    assert app["environment"]["CONN_MAX_AGE"] == "${CONN_MAX_AGE:-60}"


def test_postgresql_plans_long_joins_in_groups_of_four(db):
    """A battle read joins 12 tables; the planner searches join orders in groups of 4, not 8
    (config/settings.py). A DATABASE_URL's own options come after ours, so they win."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL setting")
    with connection.cursor() as cursor:
        cursor.execute("SHOW join_collapse_limit")
        assert cursor.fetchone()[0] == "4"
    probe = ("import django; django.setup(); from django.conf import settings; "
             "print(settings.DATABASES['default']['OPTIONS']['options'])")
    url = "postgres://feldzug@127.0.0.1:5432/feldzug?options=-c%20work_mem%3D8MB"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split("\n")[0] == "-c join_collapse_limit=4 -c work_mem=8MB", done.stderr
