"""Triton fixtures carry the marks their names promise: bad ones mark their rule, good ones nothing."""

import re

import pytest

from proofs.triton_run import FIXTURES, fixture_files

MARK = re.compile(r"#\s*expect:\s*(BC\d{3}(?:\s*,\s*BC\d{3})*)\s*$")


def _marks(text: str) -> list[tuple[int, str]]:
    return [(line, code.strip())
            for line, src in enumerate(text.splitlines(), 1)
            if (m := MARK.search(src))
            for code in m.group(1).split(",")]


@pytest.mark.parametrize("rel", [p.relative_to(FIXTURES).as_posix() for p in fixture_files()])
def test_marks_match_the_file_name(rel: str) -> None:
    rule = rel.split("-")[0]
    marks = _marks((FIXTURES / rel).read_text())
    if rel.split("/")[1].startswith("bad_"):
        assert rule in {code for _, code in marks}, f"{rel} has no `# expect: {rule}` mark: {marks}"
    else:
        assert marks == [], f"{rel} is a good fixture but marks {marks}"
