"""Every Triton fixture, run under TRITON_INTERPRET=1: bad ones go wrong, good ones stay right."""

import json
import subprocess
import sys

import pytest

from proofs.triton_cases import CASES
from proofs.triton_run import FIXTURES, ROOT, fixture_files

pytestmark = pytest.mark.proof_triton

FILES = [p.relative_to(FIXTURES).as_posix() for p in fixture_files()]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    """One interpreter run over all fixtures, in a subprocess: a kernel that scribbles over the
    process heap must not take pytest down with it."""
    out = tmp_path_factory.mktemp("proof") / "triton.json"
    proc = subprocess.run(
        [sys.executable, "-m", "proofs.triton_run", "--device", "cpu", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    if not out.exists():
        pytest.fail(f"proofs.triton_run wrote no results (exit {proc.returncode}):\n"
                    f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    report = json.loads(out.read_text())
    return {r["path"].removeprefix("fixtures/"): r for r in report["fixtures"]}


def _table(result: dict) -> str:
    return "\n".join(
        f"  {r['label']:<11} {json.dumps(r['shape'])}: {r['verdict']} ({r['oracle']} = {r['observed']}; all {r.get('all')})"
        for r in result["shapes"])


@pytest.mark.parametrize("rel", FILES)
def test_fixture_behaves_as_named(results: dict[str, dict], rel: str) -> None:
    result = results[rel]
    verdicts = {r["verdict"] for r in result["shapes"]}
    if rel.split("/")[-1].startswith("bad_"):
        assert "wrong" in verdicts, f"{rel} is right at every shape, so it proves no bug:\n{_table(result)}"
    else:
        assert verdicts == {"right"}, f"{rel} goes wrong at some shape:\n{_table(result)}"


def test_every_fixture_has_a_case_and_every_case_a_fixture() -> None:
    assert sorted(FILES) == sorted(CASES), (
        f"fixtures without a case: {sorted(set(FILES) - set(CASES))}; "
        f"cases without a fixture: {sorted(set(CASES) - set(FILES))}")


@pytest.mark.parametrize("rule", sorted({f.split("/")[0] for f in CASES}))
def test_every_rule_has_two_bad_styles_and_a_good_one(rule: str) -> None:
    names = [f.split("/")[1] for f in FILES if f.startswith(rule + "/")]
    bad = [n for n in names if n.startswith("bad_")]
    good = [n for n in names if n.startswith("good_")]
    assert len(bad) >= 2 and len(good) >= 1, f"{rule}: bad {bad}, good {good}"
