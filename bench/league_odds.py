"""The odds preview row of ``bench/league.py``: seconds of one 10,000-battle
preview (``rules.odds.naval_odds``) per engine, CPU time of one core, best of N, printed as
JSON. Run in a subprocess, once on the sources and once with ``build/compiled`` first on
PYTHONPATH; reuses ``bench/engines.py``.

    .venv/bin/python bench/league_odds.py [REPEAT]"""

import json
import random
import sys

import engines  # bench/engines.py: it puts the checkout after PYTHONPATH on sys.path


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    rng = random.Random(2026)
    attacker, defender = engines.fleet(rng, "auto"), engines.fleet(rng, "approach")
    seconds = {
        engine: engines.best_of(repeat, lambda engine=engine: engines.naval_odds(
            engine, attacker, defender, simulations=engines.PREVIEW, seed=7))
        for engine in ("dark_force", "d6_space")}
    print(json.dumps({"build": engines.build(), "seconds": seconds}))


if __name__ == "__main__":
    main()
