"""Every Triton fixture has current GPU evidence in fixtures/evidence/triton.json.

Fails until the GPU proof has been run for the fixture's present content: see fixtures/README.md.
"""

import hashlib
import json

import pytest

from proofs.triton_run import FIXTURES, fixture_files

pytestmark = pytest.mark.proof_evidence

EVIDENCE = FIXTURES / "evidence" / "triton.json"
REGENERATE = ("regenerate on the GPU machine with `bash proofs/triton_gpu.sh` ($OUT set to an output "
              "folder) and copy $OUT/triton.json to fixtures/evidence/triton.json")


def test_every_triton_fixture_has_current_gpu_evidence() -> None:
    assert EVIDENCE.exists(), f"{EVIDENCE.relative_to(FIXTURES.parent)} is missing; {REGENERATE}"
    report = json.loads(EVIDENCE.read_text())
    assert report["environment"]["device"] == "cuda", f"{EVIDENCE} was not produced on a GPU; {REGENERATE}"
    entries = {r["path"]: r for r in report["fixtures"]}
    missing, stale, failing = [], [], []
    for path in fixture_files():
        rel = path.relative_to(FIXTURES.parent).as_posix()
        entry = entries.get(rel)
        if entry is None:
            missing.append(rel)
        elif entry["sha256"] != hashlib.sha256(path.read_bytes()).hexdigest():
            stale.append(rel)
        elif not entry["passed"]:
            failing.append(rel)
    assert not (missing or stale or failing), (
        f"GPU evidence is not current. missing: {missing}; stale (file changed since the run): {stale}; "
        f"ran but did not behave as named: {failing}; {REGENERATE}")
