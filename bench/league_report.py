"""The table of ``bench/league.py``: every row of the league speed table at each league size, its
reference measured in the same run, the ratio, the target and whether it is met (judged at the
largest size; "constant" rows compare the largest size with the smallest)."""

import json

CONSTANT = 1.5  # "constant in league size": at most this factor from the smallest size


def _fmt(value, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "KB":
        return f"{value / 1024:.1f} KB"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "req/s":
        return f"{value:.1f} req/s"
    if unit == "q":
        return f"{value} q"
    return f"{value:.1f} ms"


class Table:
    def __init__(self, sizes: list[int]):
        self.sizes, self.rows = sizes, []

    def add(self, what, values, unit, reference="", ratio=None, target="", met=None):
        verdict = "-" if met is None else ("met" if met else "NOT met")
        self.rows.append([what, *(_fmt(v, unit) for v in values), reference,
                          "-" if ratio is None else f"{ratio:.2f}", target, verdict])

    def print(self) -> None:
        head = ["what", *(f"{n} players" for n in self.sizes), "reference (largest)", "ratio",
                "target", "verdict"]
        widths = [max(len(str(r[i])) for r in [head, *self.rows]) for i in range(len(head))]
        for row in [head, ["-" * w for w in widths], *self.rows]:
            print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))


def _constant(values) -> tuple[float | None, bool | None]:
    if len(values) < 2 or None in (values[0], values[-1]) or not values[0]:
        return None, None
    growth = values[-1] / values[0]
    return growth, growth <= CONSTANT


def report(sizes: dict, engines: dict, endpoints) -> None:
    order = sorted(sizes)
    runs = [sizes[n] for n in order]
    last = runs[-1]
    table = Table(order)
    print()
    _http_rows(table, runs, endpoints)
    _service_rows(table, runs, last)
    _odds_rows(table, engines, len(order))
    table.add("`make test` (2 cores)", [None] * len(order), "s", "not run by the benchmark",
              target="under 240 s (time `make test`)")
    table.print()
    _details(order, runs)


def _http_rows(table, runs, endpoints) -> None:
    for name, _, floor, target in endpoints:
        got = [r["http"][name] for r in runs]
        ratio = got[-1]["rps"] / got[-1]["floor_rps"]
        table.add(f"{name} throughput", [g["rps"] for g in got], "req/s",
                  f"floor {floor or 'campaigns/'} {got[-1]['floor_rps']:.1f} req/s", ratio,
                  f">= {target} of the floor", ratio >= target)
        if name == "map page":
            ms = got[-1]["ms"]
            table.add("map page at 1 connection", [g["ms"] for g in got], "ms",
                      f"floor {got[-1]['floor_ms']:.1f} ms", ms / got[-1]["floor_ms"],
                      "under 60 ms", ms < 60)
            wire = [r["http"]["map wire"] for r in runs]
            table.add(f"map page on the wire ({wire[-1][1]})", [w[0] for w in wire], "KB",
                      target="under 40 KB", met=wire[-1][0] < 40 * 1024)


def _service_rows(table, runs, last) -> None:
    values = [r["conquest_ms"] for r in runs]
    growth, met = _constant(values)
    table.add("a conquest choice", values, "ms", "itself at the smallest size", growth,
              f"constant (<= {CONSTANT}x)", met)
    values = [r["declare_ms"] for r in runs]
    growth, constant = _constant(values)
    ratio = last["declare_ms"] / last["insert_ms"]
    table.add("an attack declaration", values, "ms",
              f"one-row insert {last['insert_ms']:.1f} ms", ratio,
              "within 3x the insert, constant",
              ratio <= 3 and constant is not False)
    table.add("  its growth with league size", values, "ms", "itself at the smallest size",
              growth, f"constant (<= {CONSTANT}x)", constant)
    table.add("  its queries", [r["declare_queries"] for r in runs], "q")
    values = [r["chain_ms"] for r in runs]
    growth, met = _constant(values)
    table.add("a chain decision", values, "ms", "itself at the smallest size", growth,
              f"constant (<= {CONSTANT}x)", met)
    for phase in ("declare", "lists", "battles", "conquest", "closed"):
        values = [r["openings"].get(phase, 0) + r["after_commit"].get(phase, 0) for r in runs]
        table.add(f"{phase} phase opening, queries", values, "q", "at the smallest size",
                  values[-1] / values[0] if values[0] else None, "constant (equal)",
                  len(set(values)) == 1 if len(values) > 1 else None)
    job = [r["transitions"]["fleets job + lists opening"] for r in runs]
    reference = last.get("copy_s")
    table.add("fleets job + lists opening", job, "s",
              f"COPY {reference:.2f} s" if reference else "COPY n/a",
              job[-1] / reference if reference else None, "within 3x COPY",
              job[-1] <= 3 * reference if reference else None)
    table.add("  (vs bulk_create of the same rows)", job, "s",
              f"bulk_create {last['bulk_create_s']:.2f} s", job[-1] / last["bulk_create_s"])
    values = [r["round_s"] for r in runs]
    table.add("automatic work of a whole round", values, "s", target="under 3 s",
              met=values[-1] < 3)


def _odds_rows(table, engines, columns) -> None:
    for build, seconds in engines.items():
        for engine, value in seconds.items():
            production = build == "compiled"
            table.add(f"10,000-battle odds, {engine}, {build}", [None] * (columns - 1) + [value],
                      "s", "one core, CPU time",
                      target="under 1 s" + ("" if production else " (production build)"),
                      met=value < 1 if production else None)
    if "compiled" not in engines:
        table.add("odds preview, compiled build", [None] * columns, "s",
                  "build/compiled missing (make bench builds it)")


def _details(order, runs) -> None:
    print()
    for players, run in zip(order, runs, strict=True):
        print(f"details at {players} players (world built in {run['build_s']:.1f} s; "
              f"{run['results_entered']} results entered):")
        for label, seconds in run["transitions"].items():
            print(f"  {label:<44} {seconds:6.2f} s")
        print("  opening queries: its start steps " + json.dumps(run["openings"])
              + "; after the commit (mail, tasks) " + json.dumps(run["after_commit"]))
        print(f"  fleets job wrote {run['job_rows']} rows: {run['job_tables']}")
        for name, got in run["http"].items():
            if name != "map wire":
                print(f"  {name:<28} {got['rps']:7.1f} req/s {got['ms']:7.1f} ms   floor "
                      f"{got['floor_rps']:7.1f} req/s {got['floor_ms']:6.1f} ms")
