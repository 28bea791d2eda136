"""GitHub workflow-command annotations: exact lines, the toolkit's escaping, suppressed findings
left out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sarif_tools import expected_marks, run_cli

from boundcheck.findings import Finding
from boundcheck.model import Span
from boundcheck.reporters import github


def test_line_format(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    f = Finding("BC101", "unguarded-load", "read of `x` is not bounded", str(tmp_path / "src" / "k.py"),
                Span(9, 12, 9, 29))
    assert github.render([f]) == ("::error file=src/k.py,line=9,col=13,endLine=9,endColumn=30,"
                                  "title=BC101 unguarded-load::read of `x` is not bounded")


def test_escaping_follows_the_actions_toolkit() -> None:
    # @actions/core escapeData: % \r \n; escapeProperty: also : and ,
    assert github.escape_data("50%: a,b\r\nc") == "50%25: a,b%0D%0Ac"
    assert github.escape_property("50%: a,b\r\nc") == "50%25%3A a%2Cb%0D%0Ac"
    f = Finding("BC002", "unused-suppression", "1%\nmore", "a,b:c.py", Span(3, 0, 3, 5))
    assert github.render([f]) == ("::warning file=a%2Cb%3Ac.py,line=3,col=1,endLine=3,endColumn=6,"
                                  "title=BC002 unused-suppression::1%25%0Amore")


def test_suppressed_findings_are_omitted() -> None:
    kept = Finding("BC102", "unguarded-store", "m", "k.py", Span(2, 0, 2, 1))
    gone = Finding("BC101", "unguarded-load", "m", "k.py", Span(1, 0, 1, 1), suppressed_by="noqa")
    assert github.render([gone, kept]).splitlines() == [
        "::error file=k.py,line=2,col=1,endLine=2,endColumn=2,title=BC102 unguarded-store::m"]
    assert github.render([gone]) == ""


def test_cli_github_output(tmp_path: Path) -> None:
    source = (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs)  # expect: BC101\n"
        "    tl.store(y_ptr + offs, x)  # noqa: BC102\n"
    )
    (tmp_path / "k.py").write_text(source, encoding="utf-8")
    proc = run_cli(["--output-format", "github", "k.py"], cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (line,) = proc.stdout.splitlines()  # the suppressed store is not annotated
    m = re.fullmatch(r"::error file=k\.py,line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+,"
                     r"title=(BC\d+) unguarded-load::(.+)", line)
    assert m, line
    assert {(int(m[1]), m[3])} == expected_marks(source)
    assert int(m[2]) == source.splitlines()[int(m[1]) - 1].index("tl.load(") + 1
