"""Why a miss happened, told from the operator and the site; and the reports grouped by it."""

from __future__ import annotations

from pathlib import Path

from bench.quality import report
from bench.quality.reasons import reason


def mutant(language: str, operator: str, rule: str, line: int, description: str, path: str = "k",
           outcome: str = "missed", new: list[dict] | None = None) -> dict:
    return {"language": language, "operator": operator, "rule": rule, "line": line, "path": path,
            "description": description, "outcome": outcome, "new_findings": new or []}


def test_neg_inf_padding_miss_names_its_consumer() -> None:
    m = mutant("triton", "padding-zero-to-neginf", "BC202", 1,
               'other=0.0 became float("-inf"): the dot (line 9) sees -inf instead of its identity 0')
    assert reason(m, ["x = tl.load(p, mask=m, other=0.0)"]) == \
        "analyzer gap: -inf padding reaching a tl.dot along the padded axis"


def test_floor_trip_over_a_constexpr_extent() -> None:
    src = ["@triton.jit", "def k(x, V: tl.constexpr, BV: tl.constexpr):", "    for i in range(tl.cdiv(V, BV)):"]
    m = mutant("triton", "floor-trip", "BC301", 3, "`tl.cdiv(V, BV)` became `V // BV` in a loop trip count")
    assert reason(m, src).startswith("analyzer gap: the extent is a tl.constexpr parameter")


def test_guard_whose_limit_a_tree_loop_steps_is_not_a_bug_of_the_rule() -> None:
    src = ["__global__ void scan(float* s, int n) {", "    for (int d = n >> 1; d > 0; d >>= 1) {",
           "        if (tid < d) {", "            s[tid] += s[tid + d];", "        }", "    }", "}"]
    m = mutant("cuda", "drop-guard", "BC102", 3, "dropped the if-guard `tid < d`")
    assert reason(m, src).startswith("not a bug of this rule")


def test_caught_by_another_rule_says_which() -> None:
    m = mutant("cuda", "off-by-one", "BC104", 1, "`(idx + 7) < N` now admits the extent", outcome="caught-other",
               new=[{"code": "BC106", "line": 2, "message": ""}])
    assert reason(m, ["if ((idx + 7) < N) {"]) == "analyzer gap: reported as BC106 instead of BC104"


def test_unknown_shape_is_unclassified_not_guessed() -> None:
    m = mutant("cuda", "vector-tail", "BC106", 1, "`i + 3 < n` now guards only the first lane")
    assert reason(m, ["if (i < n) {"]) == "unclassified: vector-tail"


def test_misses_report_groups_by_reason(tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    path.write_text("x = tl.load(p, mask=m, other=0.0)\n")
    caught = mutant("triton", "drop-mask", "BC101", 1, "dropped mask=", str(path), outcome="caught-intended")
    dot = mutant("triton", "padding-zero-to-neginf", "BC202", 1, "the dot (line 3) sees -inf", str(path))
    records = [{"language": "triton", "mutants": [caught, dot, dict(dot)], "skipped": []}]
    text = report.misses_md(report.misses_of(records))
    assert "## triton BC202: analyzer gap: -inf padding reaching a tl.dot along the padded axis (2)" in text
    assert "drop-mask" not in text


def test_readme_table_is_rewritten_between_its_markers(tmp_path: Path) -> None:
    summary = {"rules": [{"language": "triton", "rule": "BC101", "made": 10, "caught-intended": 8,
                          "caught-other": 1, "missed": 0, "already-reported": 1, "suppressed": 0, "skipped": 3}],
               "unmodified": {"triton": {"findings_per_kloc": 0.5}}}
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{report.START}\nold\n{report.END}\noutro\n")
    report.update_readme(readme, summary, "abc1234")
    text = readme.read_text()
    assert text.startswith("intro\n") and text.endswith("\noutro\n") and "old" not in text
    assert "| BC101 unguarded-load | 9, 88.8% (+11% other) | — |" in text
    assert "At commit abc1234" in text and "0.5 findings per 1,000 Triton lines" in text
