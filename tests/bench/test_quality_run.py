"""The benchmark's bookkeeping: where a finding counts as near the seeded bug, and which
findings a mutant adds."""

from __future__ import annotations

from bench.quality.mutant import Mutant
from bench.quality.run import LineMap, classify, new_findings
from boundcheck.engine import check_source
from boundcheck.findings import Finding
from boundcheck.model import Language, Span
from boundcheck.settings import Settings

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


ROWS_GUARDED = """\
__global__ void copy2d(const float* a, float* b, int M, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    GUARD
    b[row * N + col] = a[row * N + col];
}
"""


def test_a_mutant_on_a_statement_already_reported_with_its_code_is_counted_apart() -> None:
    """The unmodified store is already BC102; a change that leaves it unguarded cannot be told
    from that finding, so the mutant is neither caught nor missed."""
    original = ROWS_GUARDED.replace("GUARD", "")
    mutated = ROWS_GUARDED.replace("GUARD", "int unused = 0;")
    base, _ = check_source("k.cu", Language.CUDA, original, Settings())
    assert ("BC102", 5) in [(f.code, f.span.line) for f in base]
    m = Mutant("drop-guard", "BC102", "k.cu", 4, "test", mutated, ((4, 5),))
    assert classify(m, original, base, Language.CUDA)["outcome"] == "already-reported"


def test_a_mutant_whose_finding_the_line_suppresses_is_counted_apart() -> None:
    original = ("__global__ void copy(const float* a, float* b, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i < n) b[i] = a[i];  // NOLINT\n"
                "}\n")
    mutated = original.replace("if (i < n) ", "")
    base, _ = check_source("k.cu", Language.CUDA, original, Settings())
    m = Mutant("drop-guard", "BC102", "k.cu", 3, "test", mutated, ((3, 3),))
    assert classify(m, original, [f for f in base if f.suppressed_by is None], Language.CUDA)["outcome"] == \
        "suppressed"
