"""The league benchmark (bench/league.py) without timing anything: the floor views live only
in the benchmark's URLconf, and its report prints every row with a verdict."""

import pytest
from django.urls import Resolver404, resolve

from bench.league_report import report


def test_floor_views_are_not_in_the_product_urls():
    with pytest.raises(Resolver404):
        resolve("/floor/1/tiles/")
    assert resolve("/floor/1/tiles/", urlconf="bench.league_urls").func.__name__ == "tiles"
    assert resolve("/api/v1/campaigns/1/map/", urlconf="bench.league_urls")


def _run(scale: float) -> dict:
    http = {name: {"rps": 10.0, "ms": 50.0, "floor_rps": 20.0, "floor_ms": 20.0}
            for name in ("map page", "API map")}
    http["map wire"] = (30_000, "gzip")
    return {"http": http, "conquest_ms": 10 * scale, "declare_ms": 3.0, "insert_ms": 1.0,
            "declare_queries": 8, "chain_ms": 5.0, "openings": {"lists": 3},
            "after_commit": {"lists": 2}, "transitions": {"fleets job + lists opening": 1.0},
            "copy_s": 0.5, "bulk_create_s": 0.8, "round_s": 2.0, "job_rows": 9,
            "job_tables": "x 9", "build_s": 1.0, "results_entered": 3}


def test_report_prints_every_row_with_a_verdict(capsys):
    endpoints = (("map page", "", "tiles/", 0.35), ("API map", "", "tiles/", 0.7))
    report({16: _run(1), 64: _run(4)}, {"compiled": {"dark_force": 0.5}}, endpoints)
    out = capsys.readouterr().out
    assert "map page throughput" in out and "0.50" in out
    assert "a conquest choice" in out and "NOT met" in out  # 4x growth is not constant
    assert "an attack declaration" in out and "within 3x the insert" in out
    assert "10,000-battle odds, dark_force, compiled" in out
