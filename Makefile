# Feldzug: `make run` serves the demo on embedded defaults, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint worker beat bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev: pyproject.toml $(VENV)/.runtime
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.runtime
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_admin
	$(BIN)/python manage.py demo
	# serve: runserver plus the clock that advances deadlines every minute (league/clock.py)
	DEBUG=true $(BIN)/python manage.py serve 127.0.0.1:8000

test: $(VENV)/.dev
	# --no-migrations: each worker's test database is made from the models (4 s less CPU per
	# worker than running the migrations); .ci/run applies the migrations to PostgreSQL
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist worksteal --no-migrations

lint: $(VENV)/.dev
	# every static check .ci/run runs (it runs this target)
	$(BIN)/ruff check .
	$(BIN)/mypy  # the compiled combat engines' modules ([tool.mypy] files in pyproject.toml)
	$(BIN)/lint-imports  # the layers of ARCHITECTURE.md; rules/ imports no Django
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run

worker: $(VENV)/.runtime
	# both queues: round jobs ("celery") and mail and webhook deliveries ("outbox")
	$(BIN)/celery -A config worker -Q celery,outbox --loglevel=INFO

beat: $(VENV)/.runtime
	$(BIN)/celery -A config beat --loglevel=INFO

bench: $(VENV)/.dev
	$(BIN)/python bench/compile.py build/compiled
	@echo "== bench/engines.py, the sources (development, tests)"
	$(BIN)/python bench/engines.py
	@echo "== bench/engines.py, the compiled engines (production image)"
	PYTHONPATH=build/compiled $(BIN)/python bench/engines.py
	@echo "== bench/fleet_phase.py"
	$(BIN)/python bench/fleet_phase.py
	@echo "== bench/map_page.py"
	$(BIN)/python bench/map_page.py
	@echo "== bench/league.py (two league sizes, gunicorn, PostgreSQL; BENCH_ARGS=--quick)"
	$(BIN)/python bench/league.py $(BENCH_ARGS)
