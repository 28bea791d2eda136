"""SARIF output as GitHub code scanning reads it: unit checks on built findings, then the real CLI on
small Triton and CUDA inputs, each log validated by Microsoft's SARIF Multitool and the JSON schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sarif_tools import JUSTIFIED_NOTES, expected_marks, run_cli, schema, validate

from boundcheck.engine import check_source
from boundcheck.findings import Edit, Finding, Fix
from boundcheck.model import Language, Span
from boundcheck.pages import Page
from boundcheck.registry import all_rules
from boundcheck.reporters import sarif
from boundcheck.reporters.fingerprint import line_hashes
from boundcheck.settings import Settings


def _run(log: str) -> dict:
    runs = json.loads(log)["runs"]
    assert len(runs) == 1
    return runs[0]


def _finding(path: str, line: int = 2, col: int = 4, end_col: int = 10, code: str = "BC101",
             suppressed_by: str | None = None) -> Finding:
    return Finding(code, all_rules()[code].name, "read of `x` is not bounded", path,
                   Span(line, col, line, end_col), kernel="k", suppressed_by=suppressed_by)


# --- unit: built findings -------------------------------------------------------------------------

def test_driver_lists_every_rule_with_full_metadata() -> None:
    run = _run(sarif.render([]))
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["informationUri"]) == ("boundcheck", sarif.INFORMATION_URI)
    assert driver["version"]
    assert [r["id"] for r in driver["rules"]] == list(all_rules())
    for rule in driver["rules"]:
        assert rule["name"] == all_rules()[rule["id"]].name
        for key in ("shortDescription", "fullDescription"):
            assert rule[key]["text"].strip()
        assert rule["help"]["text"].strip() and rule["help"]["markdown"].strip()
        assert rule["helpUri"].startswith(sarif.RULES_URI) and rule["helpUri"].endswith(".md")
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        props = rule["properties"]
        assert props["tags"] and props["precision"] in ("very-high", "high", "medium", "low")
        assert props["problem.severity"] in ("error", "warning", "recommendation")
    assert run["results"] == [] and run["columnKind"] == "unicodeCodePoints"
    assert run["automationDetails"]["id"].startswith("boundcheck/")


def test_rule_metadata_comes_from_the_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    body = "Reads past the last partial tile.\n\n## Example\n\n```python\nx = tl.load(p + offs)\n```"
    page = Page("BC101", "unguarded-load", "An unmasked read over a partial tile",
                {"code": "BC101", "severity": "warning", "precision": "very-high",
                 "tags": ["memory-safety", "triton"]}, body, tmp_path / "BC101-unguarded-load.md")
    monkeypatch.setattr(sarif, "page_for", lambda code: page if code == "BC101" else None)
    rule = next(r for r in _run(sarif.render([]))["tool"]["driver"]["rules"] if r["id"] == "BC101")
    assert rule["shortDescription"]["text"] == "An unmasked read over a partial tile."
    assert rule["fullDescription"]["text"] == "Reads past the last partial tile."
    assert rule["help"] == {"text": body, "markdown": body}
    assert rule["helpUri"] == sarif.RULES_URI + "BC101-unguarded-load.md"
    assert rule["defaultConfiguration"]["level"] == "warning"
    assert rule["properties"] == {"tags": ["correctness", "memory-safety", "triton"],
                                  "precision": "very-high", "problem.severity": "warning"}


def test_locations_are_relative_to_the_source_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    root = tmp_path / "checkout ü"
    (root / "src").mkdir(parents=True)
    kernel = root / "src" / "my kernel ü.py"
    kernel.write_text("import triton\n    größe = tl.load(p + offs)\n", encoding="utf-8")
    monkeypatch.chdir(root)
    run = _run(sarif.render([_finding("src/my kernel ü.py", col=12, end_col=29),
                             _finding(str(kernel), code="BC102", col=12, end_col=29)]))
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": root.as_uri() + "/"}}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file:///")
    for result in run["results"]:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": "src/my%20kernel%20%C3%BC.py", "uriBaseId": "%SRCROOT%"}
        # columns are 1-based code points, the end one past the last character
        assert physical["region"] == {"startLine": 2, "startColumn": 13, "endLine": 2, "endColumn": 30}
        assert result["partialFingerprints"] == {
            "primaryLocationLineHash": line_hashes(kernel.read_text(encoding="utf-8"))[1]}
        assert result["locations"][0]["logicalLocations"] == [{"name": "k", "kind": "function"}]


def test_rule_index_level_message_and_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    f = _finding("k.py")
    f.fix = Fix("mask it", (Edit(Span(2, 9, 2, 9), ", mask=m"),))
    run = _run(sarif.render([f]))
    (result,) = run["results"]
    rules = run["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "BC101"
    assert result["level"] == rules[result["ruleIndex"]]["defaultConfiguration"]["level"]
    assert result["message"]["text"] == "read of `x` is not bounded."
    (change,) = result["fixes"][0]["artifactChanges"]
    assert change["replacements"] == [{"deletedRegion": {"startLine": 2, "startColumn": 10,
                                                         "endLine": 2, "endColumn": 10},
                                       "insertedContent": {"text": ", mask=m"}}]
    assert "partialFingerprints" not in result  # the file does not exist: nothing to hash
    assert "suppressions" not in result


def test_suppressed_findings_stay_as_suppressed_results(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    run = _run(sarif.render([_finding("k.py", suppressed_by="noqa"), _finding("k.py", line=3)]))
    suppressed, open_ = run["results"]
    assert suppressed["suppressions"] == [{"kind": "inSource", "properties": {"comment": "noqa"}}]
    assert "suppressions" not in open_


def test_results_truncated_at_the_limit_with_a_notification(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    findings = [_finding("k.py", line=n + 1, suppressed_by="noqa" if n == 0 else None)
                for n in range(sarif.MAX_RESULTS + 1)]
    run = _run(sarif.render(findings))
    assert len(run["results"]) == sarif.MAX_RESULTS
    assert all("suppressions" not in r for r in run["results"])  # the suppressed one went first
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["level"] == "warning" and str(sarif.MAX_RESULTS) in note["message"]["text"]


def test_no_notification_under_the_limit() -> None:
    assert _run(sarif.render([]))["invocations"] == [{"executionSuccessful": True}]


# --- end to end: the CLI on real inputs, validated --------------------------------------------------

TRITON = '''"""Scale a vector by two; the tail program reads and writes past n."""
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    größe = tl.load(x_ptr + offs)  # expect: BC101{s101}
    tl.store(y_ptr + offs, größe * 2)  # expect: BC102{s102}
'''

CUDA = '''// Scale a vector by two; the tail block reads and writes past n.
__global__ void scale_kernel(const float* x, float* y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    /* größe */ y[i] = 2.0f * x[i];  // expect: BC101, BC102{s}
}}
'''

EMPTY_TRITON = '''"""Scale a vector by two, masked: nothing to report."""
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2, mask=mask)
'''

# Where each code's access starts on its line (the column the model must report).
TRITON_TOKENS = {"BC101": "tl.load(", "BC102": "tl.store("}
CUDA_TOKENS = {"BC101": "x[i]", "BC102": "y[i]"}

CASES = {
    "triton": ("kernels/scale ü.py", TRITON.format(s101="", s102=""), TRITON_TOKENS, False),
    "triton-suppressed": ("kernels/scale ü.py",
                          TRITON.format(s101="  # noqa: BC101", s102="  # boundcheck: ignore[BC102]"),
                          TRITON_TOKENS, True),
    "cuda": ("kernels/scale.cu", CUDA.format(s=""), CUDA_TOKENS, False),
    "cuda-suppressed": ("kernels/scale.cu", CUDA.format(s="  // NOLINT(BC101, BC102)"), CUDA_TOKENS, True),
    "empty": ("kernels/scale.py", EMPTY_TRITON, {}, False),
}


@pytest.fixture(scope="module")
def cli_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int, str]]:
    """Each case run once through ``boundcheck --output-format sarif``: (root, exit code, log)."""
    logs = {}
    for case, (rel, source, _, _) in CASES.items():
        root = tmp_path_factory.mktemp(case) / "repo"
        (root / rel).parent.mkdir(parents=True)
        (root / rel).write_text(source, encoding="utf-8")
        proc = run_cli(["--output-format", "sarif", "--output-file", "out.sarif", rel], cwd=root)
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        logs[case] = (root, proc.returncode, (root / "out.sarif").read_text(encoding="utf-8"))
    return logs


@pytest.mark.parametrize("case", list(CASES))
def test_cli_sarif_passes_multitool_and_schema(case: str, cli_logs: dict, tmp_path: Path) -> None:
    import jsonschema  # the test extra's; imported here so its absence fails only this test

    root, _, log = cli_logs[case]
    jsonschema.validate(json.loads(log), schema())
    verdict = validate(root / "out.sarif", tmp_path)
    assert verdict["error"] == [] and verdict["warning"] == []
    assert {n.split(":")[0] for n in verdict["note"]} <= JUSTIFIED_NOTES, verdict["note"]


@pytest.mark.parametrize("case", list(CASES))
def test_cli_sarif_reports_the_marked_findings(case: str, cli_logs: dict,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rel, source, tokens, suppressed = CASES[case]
    root, code, log = cli_logs[case]
    marks = expected_marks(source)
    assert code == (1 if marks and not suppressed else 0)
    run = _run(log)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.as_uri() + "/"
    lines = source.splitlines()
    got = set()
    for result in run["results"]:
        assert result["ruleId"] in tokens, result["message"]["text"]
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": rel.replace(" ", "%20").replace("ü", "%C3%BC"),
                                                "uriBaseId": "%SRCROOT%"}
        region = physical["region"]
        line = lines[region["startLine"] - 1]
        assert region["startColumn"] == line.index(tokens[result["ruleId"]]) + 1  # code points, 1-based
        assert result["partialFingerprints"]["primaryLocationLineHash"] == \
            line_hashes(source)[region["startLine"] - 1]
        assert ("suppressions" in result) == suppressed
        got.add((region["startLine"], result["ruleId"]))
    assert got == marks

    # The CLI's log is the reporter's rendering of the engine's findings for the file.
    language = Language.CUDA if rel.endswith(".cu") else Language.TRITON
    findings, _ = check_source(rel, language, source, Settings())
    monkeypatch.chdir(root)
    assert _run(sarif.render(findings))["results"] == run["results"]
