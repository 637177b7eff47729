"""Item 8: docker-compose.yml and the Dockerfile, checked without a Docker engine
(none runs in CI): the web health check passes under the README's ``ALLOWED_HOSTS=localhost``
(it asked as ``Host: 127.0.0.1:8000`` and got a 400), every service the README names exists and
is built or pulled, health checks and dependencies fit together, and the Dockerfile copies the
project, compiles modules that exist and starts what exists. ``docker compose config`` runs
too where the compose plugin is installed."""

import importlib
import os
import re
import shutil
import subprocess
import tomllib
import urllib.error
import urllib.request
from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml
from django.conf import settings as django_settings
from django.http.request import validate_host

from config import healthcheck

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())  # merges the x-app anchor
SERVICES = COMPOSE["services"]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _readme_docker_section() -> str:
    text = (ROOT / "README.md").read_text()
    return text.split("\n## Docker\n", 1)[1].split("\n## ", 1)[0]


def readme_env() -> dict[str, str]:
    """The variables of the README's ``... docker compose up`` command line."""
    command = next(line for line in re.findall(r"`([^`]*)`", _readme_docker_section())
                   if "docker compose up" in line)
    return dict(re.findall(r"(\w+)=(\S+)", command))


def compose_value(value: str, env: dict[str, str]) -> str:
    """``${NAME:-default}`` / ``${NAME:?error}`` as docker compose interpolates it."""
    def one(match: re.Match) -> str:
        name, op, arg = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if op == ":?":
            raise AssertionError(f"{name} is required: {arg}")
        return arg or ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    lines = [line for line in (ROOT / "Dockerfile").read_text().splitlines()
             if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    return [(parts[0].upper(), parts[1].strip() if len(parts) > 1 else "")
            for parts in (line.split(None, 1) for line in joined.splitlines() if line.strip())]


# --- the web health check ----------------------------------------------------------------------

def test_item_8_the_web_health_check_asks_as_an_allowed_host():
    """The host the health check sends is allowed by the README's and the compose file's
    ALLOWED_HOSTS (compose: ``${ALLOWED_HOSTS:-localhost}``)."""
    check = SERVICES["web"]["healthcheck"]["test"]
    assert check[0] == "CMD" and (ROOT / check[-1]).is_file(), check
    assert "127.0.0.1:8000/healthz" not in " ".join(check)  # the old check asked as that host
    readme = readme_env()
    assert readme["ALLOWED_HOSTS"] == "localhost"
    for env in (readme, {}):
        allowed = compose_value(SERVICES["web"]["environment"]["ALLOWED_HOSTS"], env)
        host = healthcheck.host_header(allowed)
        assert validate_host(host, allowed.split(",")), (host, allowed)
    for allowed in ("feldzug.example.org,localhost", ".example.org", "*"):
        assert validate_host(healthcheck.host_header(allowed), allowed.split(","))
    timeout = int(SERVICES["web"]["healthcheck"]["timeout"].rstrip("s"))
    assert timeout > healthcheck.TIMEOUT


def test_item_8_the_health_check_passes_against_the_app_under_readme_settings(
        live_server, transactional_db, settings, monkeypatch):
    """The script, run against the app with ALLOWED_HOSTS=localhost and config.production's
    HTTPS redirect, answers 0; the old check (Host: 127.0.0.1:<port>) got a 400."""
    allowed = readme_env()["ALLOWED_HOSTS"]
    settings.ALLOWED_HOSTS = allowed.split(",")
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    monkeypatch.setenv("ALLOWED_HOSTS", allowed)
    url = f"http://127.0.0.1:{live_server.thread.port}/healthz"
    assert healthcheck.main(url) == 0
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=5)  # what the compose file did
    assert refused.value.code == 400
    monkeypatch.setenv("ALLOWED_HOSTS", "elsewhere.example.org")
    assert healthcheck.main(url) == 1  # a host the app does not allow fails the check


# --- the compose file ---------------------------------------------------------------------------

def test_every_service_the_readme_names_exists_and_is_built_or_pulled():
    section = _readme_docker_section().lower()
    for name in ("web", "worker", "beat", "postgres", "redis"):
        assert name in section and name in SERVICES, name
    assert "pgdata" in section and "pgdata" in COMPOSE["volumes"]
    for name, service in SERVICES.items():
        assert "image" in service or "build" in service, name
        if "build" in service:
            context = service["build"] if isinstance(service["build"], str) else \
                service["build"].get("context", ".")
            assert (ROOT / context / "Dockerfile").is_file(), name


def test_health_checks_and_dependencies_fit_together():
    """``depends_on: service_healthy`` needs a health check there; the README says which
    services have none."""
    for name, service in SERVICES.items():
        for target, condition in (service.get("depends_on") or {}).items():
            assert target in SERVICES, (name, target)
            if condition.get("condition") == "service_healthy":
                assert "healthcheck" in SERVICES[target], (name, target)
        if "healthcheck" in service:
            check = service["healthcheck"]
            assert check["test"][0] in {"CMD", "CMD-SHELL"}, name
            assert all(re.fullmatch(r"\d+s", check[key]) for key in ("interval", "timeout"))
    assert {n for n, s in SERVICES.items() if "healthcheck" not in s} == {"beat"}
    assert "all but beat have a health check" in _readme_docker_section()


def test_the_app_services_start_what_exists():
    env = SERVICES["web"]["environment"]
    settings_module = env["DJANGO_SETTINGS_MODULE"]
    assert (ROOT / (settings_module.replace(".", "/") + ".py")).is_file()
    for required in re.findall(r"\$\{(\w+):\?", (ROOT / "docker-compose.yml").read_text()):
        assert required in readme_env(), required  # the README's command sets it
    commands = " ".join(SERVICES[name]["command"] for name in ("web", "worker", "beat"))
    for module, attribute in re.findall(r"gunicorn ([\w.]+):(\w+)", commands):
        assert hasattr(importlib.import_module(module), attribute)
    for app in re.findall(r"celery -A ([\w.]+)", commands):
        assert importlib.import_module(app).celery_app.main == "feldzug"


def consumed_queues(command: str) -> set[str]:
    """The queues a ``celery ... worker`` command consumes (``-Q a,b``; none given: "celery")."""
    found = re.search(r"(?:-Q|--queues)[ =]([\w,-]+)", command)
    return set(found[1].split(",")) if found else {"celery"}


def test_the_worker_consumes_every_queue_tasks_are_routed_to():
    """Mail and webhook deliveries run on the queue "outbox" (``CELERY_TASK_ROUTES``), apart
    from the round jobs: the compose file's worker, ``make worker`` and the README's command
    consume both, or mail would never leave."""
    routed = {route["queue"] for route in django_settings.CELERY_TASK_ROUTES.values()}
    assert routed == {"outbox"}
    makefile = (ROOT / "Makefile").read_text()
    make_worker = re.search(r"^worker:.*\n((?:\t.*\n)+)", makefile, re.M)[1]
    readme = (ROOT / "README.md").read_text()
    readme_worker = next(line for line in readme.splitlines() if "config worker" in line)
    for command in (SERVICES["worker"]["command"], make_worker, readme_worker):
        assert {"celery", "outbox"} <= consumed_queues(command), command


# --- the Dockerfile -----------------------------------------------------------------------------

def test_the_dockerfile_copies_the_project_and_starts_gunicorn():
    steps = dockerfile_instructions()
    kinds = [kind for kind, _ in steps]
    assert kinds[0] == "FROM" and kinds.count("CMD") == 1
    python = re.match(r"python:(\d+)\.(\d+)", dict(steps)["FROM"])
    requires = re.match(r">=(\d+)\.(\d+)", PYPROJECT["project"]["requires-python"])
    assert python and requires
    assert tuple(map(int, python.groups())) >= tuple(map(int, requires.groups()))
    assert ("WORKDIR", "/app") in steps and ("COPY", ". .") in steps
    cmd = yaml.safe_load(dict(steps)["CMD"])  # the exec form is a JSON list
    assert cmd[0] == "gunicorn" and "gunicorn" in " ".join(PYPROJECT["project"]["dependencies"])
    module, attribute = cmd[1].split(":")
    assert hasattr(importlib.import_module(module), attribute)
    ignored = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines() if p.strip()]
    for needed in ("manage.py", "pyproject.toml", "config/healthcheck.py", "rules/naval/battle.py"):
        assert not any(fnmatch(needed, pattern) or needed.startswith(pattern + "/")
                       for pattern in ignored), needed


def test_the_dockerfile_compiles_existing_modules_listed_for_mypy():
    """The compile step checks modules that ``[tool.mypy] files`` lists, and those exist."""
    files = PYPROJECT["tool"]["mypy"]["files"]
    assert files and all((ROOT / path).is_file() for path in files)
    run = " ".join(args for kind, args in dockerfile_instructions() if kind == "RUN")
    assert "mypyc" in run and "collectstatic" in run
    checked = re.findall(r"import ([\w.]+) as \w+|, ([\w.]+) as \w+", run)
    modules = [a or b for a, b in checked]
    assert modules, run
    for module in modules:
        assert module.replace(".", "/") + ".py" in files, module


def _compose_plugin() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    done = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=30)
    return done.returncode == 0


def test_docker_compose_config_accepts_the_file_where_the_plugin_exists():
    if not _compose_plugin():
        pytest.skip("no `docker compose` plugin here: the checks above stand in for it")
    env = {**os.environ, **readme_env(), "SECRET_KEY": "check-only"}
    done = subprocess.run(["docker", "compose", "-f", str(ROOT / "docker-compose.yml"),
                           "config", "--quiet"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
