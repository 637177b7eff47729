"""The compiled build of the combat engines (mypyc; production images and benchmarks, for the
2-second odds preview of R-ODDS-1) runs the same rules as the sources: the rules and fleets
suites pass against it, and it fights the same battles, dice for dice, as the pure Python
engines.

The build (``bench/compile.py``) takes about 15 s of CPU; it starts in the
background when the session starts and is reused while the sources stay the same."""

import importlib
import importlib.util
import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rules.dice import RoundStream
from rules.naval import resolve_naval_battle
from rules.odds import naval_odds
from rules.space import resolve_space_battle
from tests.budget import FULL
from tests.compiled_build import ensure_built
from tests.rules.test_engine_fastpath import naval_sides, space_sides

ROOT = Path(__file__).resolve().parents[2]
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
MODULES = [path.removesuffix(".py").replace("/", ".") for path in COMPILED]
SEED = bytes(range(32))

# Run in the compiled build: random battles of both engines with recorded events on the round
# stream, and both odds previews; printed as JSON for the comparison with the sources.
SCRIPT = """
import json
from tests.rules.test_compiled_engines import battles, previews, sources_of
print(json.dumps({"files": sources_of(), "battles": battles(), "previews": previews(),
                  "other_seed": previews(seed=12)}))
"""


def sources_of() -> dict[str, str]:
    """Where each compiled-build module was imported from."""
    return {name: str(importlib.import_module(name).__file__) for name in MODULES}


def battles() -> list[str]:
    """Forty battles per engine with events, on the round stream: their outcomes as text."""
    rng, out = random.Random(5), []
    for i in range(40):
        for make, fight in ((naval_sides, _naval), (space_sides, _space)):
            dice = RoundStream(SEED, 9, i)
            outcome = fight(dice, make(rng), ("attacker", "defender", None)[i % 3])
            out.append(repr(outcome) + repr([record.as_dict() for record in dice.log]))
    return out


def _naval(dice, sides, advantage):
    return resolve_naval_battle(dice, *sides, max_rounds=12, advantage=advantage)


def _space(dice, sides, advantage):
    return resolve_space_battle(dice, *sides, max_rounds=12, start_distance_cm=30,
                                advantage=advantage)


def bench_script(name: str):
    """A script of ``bench/`` as a module."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_fleets() -> tuple[dict, dict]:
    """The benchmark's six-ship fleets."""
    bench, rng = bench_script("engines"), random.Random(2026)
    return bench.fleet(rng, "auto"), bench.fleet(rng, "approach")


# A developer's run (tests/budget.py) stops the previews on a work budget, after about 2,000
# battles: a deterministic stop, taken at the same battle by both builds.
PREVIEW_BUDGET = None if FULL else 3_000_000


def previews(seed: int = 11) -> dict[str, dict]:
    """Both engines' 10,000-battle previews of the benchmark's fleets."""
    attacker, defender = bench_fleets()
    return {engine: naval_odds(engine, attacker, defender, seed=seed,
                               budget=PREVIEW_BUDGET).as_dict()
            for engine in ("dark_force", "d6_space")}


@pytest.fixture(scope="module")
def compiled() -> Path:
    """The build of the current sources (``tests/compiled_build.py``: cached per state of the
    sources in ``build/test-compiled/``, started in the background at session start)."""
    try:
        return ensure_built()
    except subprocess.CalledProcessError as error:
        pytest.fail(f"mypyc failed:\n{error.stdout}\n{error.stderr}")


def run_in(build: Path, *args: str) -> subprocess.CompletedProcess:
    """A Python process importing ``rules`` from ``build`` (the tests and the rest from the
    checkout), run inside ``build`` so that the checkout's sources come second. It gets a
    database of its own: PostgreSQL's name with ``_compiled`` appended, or SQLite in ``build``."""
    url = os.environ.get("DATABASE_URL", "")
    database = f"{url}_compiled" if url.startswith("postgres") else f"sqlite:///{build}/db"
    env = {**os.environ, "PYTHONPATH": f"{build}{os.pathsep}{ROOT}", "DATABASE_URL": database}
    return subprocess.run([sys.executable, *args], cwd=build, env=env, capture_output=True,
                          text=True, timeout=900)


# Rules test modules that import none of the compiled modules: against the compiled build they
# would test the sources again, so the rerun leaves them out (the suite's time;
# ``test_the_rerun_leaves_out_only_modules_without_compiled_code`` keeps the list true).
WITHOUT_ENGINES = ("test_bonus", "test_campaign_attacks", "test_campaign_map",
                   "test_campaign_properties", "test_conquest", "test_deadlines", "test_dice",
                   "test_golden", "test_results", "test_ruleset", "test_text",
                   "test_wild_die_stats")


def imported_compiled_modules(test_modules) -> list[str]:
    """The compiled modules a fresh interpreter has loaded after importing ``test_modules``
    (of ``tests/rules``)."""
    script = ("import importlib, json, sys\n"
              f"for name in {list(test_modules)!r}:\n"
              "    importlib.import_module(f'tests.rules.{name}')\n"
              f"print(json.dumps(sorted(set({MODULES!r}) & set(sys.modules))))")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=True)
    return json.loads(result.stdout)


def test_the_rerun_leaves_out_only_modules_without_compiled_code():
    assert imported_compiled_modules(WITHOUT_ENGINES) == []
    assert imported_compiled_modules(["test_simulation_stream"]) == sorted(MODULES)


def test_the_tests_run_the_sources():
    """A compiled module beside its source would shadow every edit: the suite must see .py."""
    for name, path in sources_of().items():
        assert path.endswith(".py"), f"{name} is loaded from {path}; delete it"


def test_the_rules_and_fleet_suites_pass_against_the_compiled_engines(compiled):
    """The rules suite (its modules that import compiled code), the campaign's fleets phase
    (engines fed from the database, R-INT-6) and the odds preview API (R-ODDS-1), all on the
    compiled engines. A developer's run
    (tests/budget.py) reruns the rules suite alone, without Django: it drives every compiled
    module; the fleets suite and the API drive the same modules through the database."""
    tests = ROOT / "tests"
    suites = [tests / "rules", *([tests / "fleets", tests / "api" / "test_odds_api.py"]
                                 if FULL else [])]
    # Its test database from the models (the suite's own databases run the migrations): the
    # migrations are not what this test is about (the suite's time).
    django = ["--nomigrations"] if FULL else ["-p", "no:django"]
    skipped = [f"--ignore={tests / 'rules' / name}.py" for name in WITHOUT_ENGINES]
    result = run_in(compiled, "-m", "pytest", *map(str, suites), "-x",
                    "-p", "no:cacheprovider", "--import-mode=importlib",
                    "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
                    *django, "--ignore", __file__, *skipped)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


def test_compiled_engines_fight_the_same_battles_and_previews(compiled):
    result = run_in(compiled, "-c", SCRIPT)
    assert result.returncode == 0, result.stderr[-4000:]
    theirs = json.loads(result.stdout)
    assert all(not path.endswith(".py") for path in theirs["files"].values()), theirs["files"]
    assert theirs["battles"] == battles()
    ours = previews()
    assert theirs["previews"] == ours
    # the figures depend on the dice, so equal means same dice (the other seed's preview runs
    # in the compiled build: half the CPU of the sources)
    assert theirs["other_seed"] != ours
