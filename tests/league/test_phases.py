"""The round machine's table (league.phases) against the phases of rules.rounds (R-RND-1), and
against its description in docs/architecture.md."""

import inspect
import re
from pathlib import Path

from django.conf import settings

from league.phases import EVERY_MINUTE, TABLE
from rules.rounds import AUTOMATIC, PHASES, WAITING, next_phase


def test_r_rnd_1_the_table_lists_every_phase_in_order():
    assert tuple(TABLE) == PHASES


def test_r_rnd_2_only_automatic_phases_have_a_job():
    assert {phase for phase, entry in TABLE.items() if entry.job} == set(AUTOMATIC)


def test_r_rnd_1_every_waiting_phase_publishes_and_announces_its_deadline():
    for phase in WAITING:
        names = [step.__name__ for step in TABLE[phase].start]
        assert "calendar_deadline_open" in names, phase
        assert "notifications_phase_opened" in names, phase


def test_every_step_is_a_keyword_only_service():
    steps = [s for entry in TABLE.values() for s in (*entry.start, *entry.job, *entry.end)]
    for step in steps:
        params = inspect.signature(step).parameters
        assert params["round"].kind is inspect.Parameter.KEYWORD_ONLY, step.__name__
        assert params["now"].kind is inspect.Parameter.KEYWORD_ONLY, step.__name__
    for step in EVERY_MINUTE:
        assert inspect.signature(step).parameters["now"].kind is inspect.Parameter.KEYWORD_ONLY


def test_r_rnd_1_phases_follow_each_other_and_end_at_closed():
    assert [next_phase(p) for p in PHASES] == [*PHASES[1:], None]
    assert WAITING | AUTOMATIC | {"closed"} == set(PHASES)


def _round_machine_section() -> str:
    text = (Path(settings.BASE_DIR) / "docs" / "architecture.md").read_text(encoding="utf-8")
    return text.split("## The round machine", 1)[1].split("\n## ", 1)[0]


def _names(cell: str) -> list[str]:
    return re.findall(r"`(\w+)`", cell)


def test_the_documented_round_table_names_every_step_in_order():
    rows = {}
    for line in _round_machine_section().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] in TABLE:
            rows[cells[0]] = [_names(cell) for cell in cells[1:4]]
    assert list(rows) == list(TABLE)
    for code, phase in TABLE.items():
        wanted = [[step.__name__ for step in steps] for steps in (phase.start, phase.job,
                                                                   phase.end)]
        assert rows[code] == wanted, code


def test_the_documented_every_minute_list_names_every_step_in_order():
    section = _round_machine_section().split("Every minute, in this order", 1)[1]
    listed = [_names(line)[0] for line in section.splitlines() if line.startswith("- `")]
    assert listed == [step.__name__ for step in EVERY_MINUTE]
