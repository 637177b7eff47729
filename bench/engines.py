"""Speed of the combat engines as odds previews use them (R-ODDS-1): SimulationDice, no event
log, six ships a side with typical values. Prints battles per second per engine and the seconds
one 10,000-battle preview (``rules.odds.naval_odds``) takes; the target is under 1 s on
one core in the production build (the compiled engines). Figures only, no assertions.

    .venv/bin/python bench/engines.py [--repeat N]              # the sources (pure Python)
    PYTHONPATH=build/compiled .venv/bin/python bench/engines.py  # the compiled build
    make bench                                                   # builds it, runs both

Times are CPU seconds of this process (``time.process_time``), the best of N runs, so other
work on the machine disturbs them less. The first line says which build ran: production
images compile the engines with mypyc (``bench/compile.py``, ``Dockerfile``); development and
the tests run the sources.

Figures on the slower kind of 2-core machine (Python 3.11, idle), 10,000-battle preview:
pure Python dark_force 2.4 s, d6_space 4.0 s; compiled dark_force 0.63 s, d6_space 0.82 s
(before, compiled 1.18 s and 1.15 s on the same machine). Odds previews read the
faces of ``SimulationDice`` straight from its streams (``rules.dice.simulation_faces``), and
the compiled modules' constants are ``Final`` (read as values, not looked up by name): that
is what makes the compiled build fast; the sources gain little from either.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

# appended, not prepended: a compiled build on PYTHONPATH comes first
sys.path.append(str(Path(__file__).resolve().parents[1]))

from rules.dice import SimulationDice  # noqa: E402
from rules.naval import naval_side, resolve_naval_battle  # noqa: E402
from rules.odds import naval_odds  # noqa: E402
from rules.space import resolve_space_battle, space_side  # noqa: E402

SHIPS = 6
PREVIEW = 10_000
TARGET_SECONDS = 1.0  # for the compiled build


def fleet(rng: random.Random, stance: str) -> dict:
    """Six ships in the API's fleet shape: Dark Force attack 3-5, defence 4-7, agility 2-4,
    crews of one to three characters (boarding happens); D6 maneuver 2D, speed 3, targeting 3D,
    gun damage 3D-4D, shields 2D, hull 3D."""
    ships = []
    for i in range(SHIPS):
        crew = [{"name": f"c{k}", "cp": rng.choice((6, 8, 12, 14))}
                for k in range(rng.randint(1, 3))]
        sheet = {"maneuver": "2D", "speed": 3, "targeting": "3D",
                 "gun_damage": rng.choice(("3D", "3D+2", "4D")), "shields": "2D", "hull": "3D"}
        ships.append({"name": f"ship {i + 1}", "class": "Fregatte", "attack": rng.randint(3, 5),
                      "defence": rng.randint(4, 7), "agility": rng.randint(2, 4),
                      "capacity": 1, "cargo": [], "crew": crew, "datasheet": sheet})
    return {"ships": ships, "stance": stance}


def build() -> str:
    """Which build of the engines this process runs: where the battle functions come from
    (``rules.naval.battle``, ``rules.space.battle``)."""
    compiled = all(not str(sys.modules[fight.__module__].__file__).endswith(".py")
                   for fight in (resolve_space_battle, resolve_naval_battle))
    return "compiled engines (mypyc)" if compiled else \
        "pure Python engines (production compiles them: README, make bench)"


def best_of(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def battles_per_second(engine: str, attacker: dict, defender: dict, repeat: int) -> float:
    """The bare engine loop, without the preview's conversion and counting."""
    if engine == "dark_force":
        a = naval_side("attacker", attacker)
        d = naval_side("defender", defender, first_id=SHIPS + 1)
        resolve, extra = resolve_naval_battle, {}
    else:
        a = space_side("attacker", attacker)
        d = space_side("defender", defender, first_id=SHIPS + 1)
        resolve, extra = resolve_space_battle, {"start_distance_cm": 30}
    dice, n = SimulationDice(1), 2_000

    def work():
        for _ in range(n):
            resolve(dice, a, d, max_rounds=12, record_events=False, **extra)
    return n / best_of(repeat, work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best kept)")
    repeat = parser.parse_args().repeat
    rng = random.Random(2026)
    attacker, defender = fleet(rng, "auto"), fleet(rng, "approach")
    print(f"Python {platform.python_version()} on {platform.machine()}, {build()}, "
          f"{SHIPS} ships a side, best of {repeat}")
    for engine in ("dark_force", "d6_space"):
        rate = battles_per_second(engine, attacker, defender, repeat)
        result = None

        def preview(engine=engine):
            nonlocal result
            result = naval_odds(engine, attacker, defender, simulations=PREVIEW, seed=7)
        seconds = best_of(repeat, preview)
        verdict = "ok" if seconds < TARGET_SECONDS else f"over the {TARGET_SECONDS:.0f} s target"
        if not build().startswith("compiled"):
            verdict = f"the {TARGET_SECONDS:.0f} s target is the compiled build's"
        print(f"{engine:>10}: {rate:7.0f} battles/s; {PREVIEW:,}-battle preview "
              f"{seconds:5.2f} s ({verdict}); attacker {result.attacker_wins:.3f}, "
              f"defender {result.defender_wins:.3f}, undecided {result.undecided:.3f}")


if __name__ == "__main__":
    main()
