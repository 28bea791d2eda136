"""Every CUDA fixture has current GPU evidence in fixtures/evidence/cuda.json: an entry whose
sha256 matches the file, a bad fixture wrong at one shape or more, a good fixture right at every
shape under every oracle (memcheck included).

Fails until the GPU proof has been run for the fixtures' present content: see the CUDA section of
fixtures/README.md.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from proofs.cuda_build import FIXTURES, ROOT, cuda_fixtures
from proofs.cuda_report import ORACLES

pytestmark = pytest.mark.proof_evidence

EVIDENCE = FIXTURES / "evidence" / "cuda.json"
REGENERATE = ("regenerate on the GPU machine with `OUT=<folder> bash proofs/cuda_gpu.sh` from the repository "
              "root and copy $OUT/cuda.json to fixtures/evidence/cuda.json")


def _report() -> dict:
    assert EVIDENCE.exists(), f"{EVIDENCE.relative_to(ROOT)} is missing; {REGENERATE}"
    return json.loads(EVIDENCE.read_text())


def _entries() -> dict[str, dict]:
    return {e["path"]: e for e in _report()["fixtures"]}


def _shown_as_named(entry: dict) -> bool:
    """Recomputed from the shape records rather than trusting the entry's own `passed`."""
    shapes = entry.get("shapes") or []
    if entry["path"].rsplit("/", 1)[-1].startswith("bad_"):
        return any(s["verdict"] == "wrong" for s in shapes)
    return len(shapes) == 6 and all(
        s["verdict"] == "right" and all(s["all"].get(o) is not None for o in ORACLES) for s in shapes)


def test_every_cuda_fixture_has_current_gpu_evidence() -> None:
    entries = _entries()
    missing, stale = [], []
    for path in cuda_fixtures():
        rel = path.relative_to(ROOT).as_posix()
        entry = entries.get(rel)
        if entry is None:
            missing.append(rel)
        elif entry["sha256"] != hashlib.sha256(path.read_bytes()).hexdigest():
            stale.append(rel)
    assert not (missing or stale), (
        f"CUDA GPU evidence is not current. missing: {missing}; stale (file changed since the run): {stale}; "
        f"{REGENERATE}")


def test_gpu_evidence_shows_each_cuda_fixture_as_named() -> None:
    entries = _entries()
    failing = []
    for path in cuda_fixtures():
        entry = entries.get(path.relative_to(ROOT).as_posix())
        if entry is not None and not _shown_as_named(entry):
            failing.append(entry["path"])
    assert not failing, (
        f"these CUDA fixtures did not behave as their names say on the GPU (bad: wrong at >= 1 shape; good: "
        f"right at all 6 shapes under every oracle): {failing}")


def test_gpu_evidence_comes_from_a_gpu() -> None:
    env = _report()["environment"]
    assert env.get("device_name") and env.get("cuda_driver"), f"no device recorded in {EVIDENCE}; {REGENERATE}"
