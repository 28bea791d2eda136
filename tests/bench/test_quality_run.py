"""The benchmark's bookkeeping: where a finding counts as near the seeded bug, and which
findings a mutant adds."""

from __future__ import annotations

from bench.quality.run import LineMap, new_findings
from boundcheck.findings import Finding
from boundcheck.model import Span

ORIGINAL = "a\nb\nc(x,\n  y)\nd\ne\n"


def finding(code: str, line: int) -> Finding:
    return Finding(code, "name", "msg", "f.py", Span(line, 0, line, 1))


def test_line_map_around_a_statement_that_shrank() -> None:
    lines = LineMap.between(ORIGINAL, "a\nb\nc(x)\nd\ne\n")  # lines 3-4 became line 3
    assert (lines.lo, lines.hi_orig, lines.hi_mut, lines.delta) == (3, 4, 3, -1)
    assert lines.target(1, 1) == (1, 1)
    assert lines.target(3, 4) == (3, 3)
    assert lines.target(6, 6) == (5, 5)


def test_line_map_for_an_inserted_line() -> None:
    lines = LineMap.between(ORIGINAL, "a\nb\nr\nc(x,\n  y)\nd\ne\n")
    assert lines.delta == 1 and lines.target(3, 3) == (4, 4) and lines.target(5, 5) == (6, 6)


def test_new_findings_ignore_what_the_original_already_had_after_a_shift() -> None:
    lines = LineMap.between(ORIGINAL, "a\nb\nc(x)\nd\ne\n")
    base = [finding("BC101", 5), finding("BC104", 1)]
    mutant = [finding("BC101", 4), finding("BC104", 1), finding("BC102", 3), finding("BC101", 3)]
    assert [(f.code, f.span.line) for f in new_findings(base, mutant, lines)] == [("BC102", 3), ("BC101", 3)]


def test_a_finding_moved_by_the_change_is_not_new() -> None:
    lines = LineMap.between(ORIGINAL, "a\nb\nc(x)\nd\ne\n")
    assert new_findings([finding("BC201", 4)], [finding("BC201", 3)], lines) == []
