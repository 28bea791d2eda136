"""The CUDA fixture set has the shape the proof relies on: each rule directory holds at least two
bad kernels and one good one, bad kernels mark their bug with the directory's code, good kernels
carry no mark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from proofs.cuda_build import FIXTURES, ROOT, cuda_fixtures

RULE_DIRS = (
    "BC101-unguarded-load", "BC102-unguarded-store", "BC103-partial-guard", "BC104-off-by-one-bound",
    "BC105-thread-index-guard", "BC106-vector-tail", "BC201-undefined-padding",
    "BC202-padding-not-identity", "BC301-floor-trip-count", "BC302-floor-grid",
    "BC303-exit-before-barrier",
)
MARK = re.compile(r"//\s*expect:\s*(BC\d{3}(?:\s*,\s*BC\d{3})*)\s*$")


def _codes(path: Path) -> list[str]:
    codes = []
    for line in path.read_text().splitlines():
        m = MARK.search(line)
        if m:
            codes += [c.strip() for c in m.group(1).split(",")]
    return codes


@pytest.mark.parametrize("rule_dir", RULE_DIRS)
def test_rule_dir_has_two_bad_and_one_good_cuda_kernel(rule_dir: str) -> None:
    names = [p.name for p in (FIXTURES / rule_dir).glob("*.cu")]
    assert sum(n.startswith("bad_") for n in names) >= 2, names
    assert sum(n.startswith("good_") for n in names) >= 1, names


@pytest.mark.parametrize("path", cuda_fixtures(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_marks_match_the_fixture_name(path: Path) -> None:
    codes = _codes(path)
    if path.name.startswith("good_"):
        assert codes == [], f"good fixture with expect marks: {codes}"
    else:
        own = path.parent.name.split("-")[0]
        assert own in codes, f"bad fixture without a '// expect: {own}' mark (has {codes})"
