"""Issue 21: persistent database connections by default in production and compose (a new
PostgreSQL connection per request cost more than most pages' queries), health-checked before
reuse; the development default (runserver, tests) keeps one connection per request."""

import json
import os
import subprocess
import sys
from pathlib import Path

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


def test_issue_21_production_keeps_connections_with_health_checks():
    assert connection_settings("config.production") == [60, True]
    assert connection_settings("config.production", CONN_MAX_AGE="0") == [0, True]
    url = "postgres://feldzug@127.0.0.1:5432/feldzug?conn_max_age=5"
    assert connection_settings("config.production", DATABASE_URL=url) == [5, True]


def test_issue_21_development_opens_one_connection_per_request():
    assert connection_settings("config.settings") == [0, False]


def test_issue_21_compose_runs_production_with_persistent_connections():
    app = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]
    assert app["environment"]["DJANGO_SETTINGS_MODULE"] == "config.production"
    assert app["environment"]["CONN_MAX_AGE"] == "${CONN_MAX_AGE:-60}"
