"""The analyzer against the fixtures' ``expect:`` marks: every mark found, nothing unmarked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boundcheck.discovery import language_of
from boundcheck.engine import check_source
from boundcheck.settings import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MARK = re.compile(r"(?:#|//)\s*expect:\s*(BC\d{3}(?:\s*,\s*BC\d{3})*)")
FILES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in {".py", ".cu", ".cuh"} and p.name.startswith(("bad_", "good_")))


def expected(path: Path) -> set[tuple[int, str]]:
    marks = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        for m in MARK.finditer(line):
            marks.update((number, code.strip()) for code in m.group(1).split(","))
    return marks


def test_there_are_fixtures() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_marks_match_findings(path: Path) -> None:
    language = language_of(path)
    assert language is not None
    findings, parsed = check_source(str(path), language, path.read_text(), Settings())
    got = {(f.span.line, f.code) for f in findings if f.suppressed_by is None}
    want = expected(path)
    missed, extra = sorted(want - got), sorted(got - want)
    details = "\n".join(f"  {f.code} line {f.span.line}: {f.message}" for f in findings)
    assert not missed and not extra, f"{path.name}: missed {missed}, extra {extra}\nfindings:\n{details}"
    if path.name.startswith("bad_"):
        assert want, f"{path.name} is a bad fixture without an expect: mark"
    else:
        assert not want, f"{path.name} is a good fixture with expect: marks"
