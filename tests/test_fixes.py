"""Safe fixes: edits land on code points, every other byte survives, and fixing twice is a no-op."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundcheck import fixes
from boundcheck.cli import app
from boundcheck.findings import Edit, Finding, Fix
from boundcheck.model import Language, Span
from boundcheck.settings import Settings

# --- The applier on text ------------------------------------------------------------------------

def _fix(line: int, col: int, end_col: int, text: str, end_line: int | None = None) -> Fix:
    return Fix("f", (Edit(Span(line, col, end_line or line, end_col), text),))


def test_columns_are_code_points_and_other_bytes_survive() -> None:
    text = "a = 'é€😀' if b\t<= n else c\r\nd <= m\r\n"
    fixed = fixes.apply_fixes(text, [_fix(1, 15, 17, "<"), _fix(2, 2, 4, "<")])
    assert fixed == "a = 'é€😀' if b\t< n else c\r\nd < m\r\n"


def test_insertion_at_end_of_line_and_across_lines() -> None:
    text = "x = f(a\r\n      )\nlast"
    assert fixes.apply_fixes(text, [_fix(1, 7, 7, ", b")]) == "x = f(a, b\r\n      )\nlast"
    assert fixes.apply_fixes(text, [_fix(1, 7, 7, ")", end_line=2)]) == "x = f(a)\nlast"
    assert fixes.apply_fixes(text, [_fix(3, 4, 4, "!")]) == "x = f(a\r\n      )\nlast!"


def test_overlapping_fix_waits_for_a_later_pass() -> None:
    text = "a <= b\n"
    assert fixes.apply_fixes(text, [_fix(1, 2, 4, "<"), _fix(1, 0, 6, "a < b")]) == "a <= b\n".replace(
        "a <= b", "a < b")
    assert fixes.apply_fixes(text, [_fix(1, 2, 4, "<"), _fix(1, 3, 4, "!")]) == "a < b\n"


def test_identical_fixes_apply_once() -> None:
    assert fixes.apply_fixes("a <= b\n", [_fix(1, 2, 4, "<"), _fix(1, 2, 4, "<")]) == "a < b\n"


def test_fix_outside_the_file_is_ignored() -> None:
    assert fixes.apply_fixes("a <= b\n", [_fix(1, 7, 8, "x"), _fix(3, 0, 0, "x"), _fix(1, 2, 4, "<")]) == "a < b\n"


# --- run() with a stand-in checker, so these need no frontend ------------------------------------

def _le_findings(path: str, source: str, whole_line: bool = False) -> list[Finding]:
    """A finding per ``<=``; with ``whole_line`` its fix rewrites the line up to the operator, so
    two on one line overlap and need two passes."""
    out = []
    for number, line in enumerate(source.split("\n"), start=1):
        for m in re.finditer("<=", line):
            start = 0 if whole_line else m.start()
            edit = Edit(Span(number, start, number, m.end()), line[start:m.start()] + "<")
            out.append(Finding("BC104", "off-by-one-bound", "admits the extent", path,
                               Span(number, m.start(), number, m.end()), fix=Fix("use <", (edit,))))
    return out


@pytest.fixture
def checker(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace the engine's per-file check with the stand-in; record the sources it saw."""
    seen: list[str] = []

    def check_source(path: str, language: Language, source: str, settings: Settings):
        seen.append(source)
        return _le_findings(path, source, whole_line="overlap" in path), True

    monkeypatch.setattr(fixes, "check_source", check_source)
    return seen


def _run(path: Path, write: bool = True) -> tuple[list[Finding], str]:
    source = path.read_text(encoding="utf-8")
    return fixes.run(_le_findings(str(path), source, "overlap" in path.name), Settings(), write=write)


def test_run_writes_the_fix_and_keeps_crlf_tabs_and_non_ascii(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_bytes("# ünïcode ✓\r\nif\ti <= n:\r\n\tpass\r\n".encode())
    remaining, diff = _run(path)
    assert path.read_bytes() == "# ünïcode ✓\r\nif\ti < n:\r\n\tpass\r\n".encode()
    assert remaining == []
    assert checker == ["# ünïcode ✓\nif\ti < n:\n\tpass\n"]  # re-checked as the engine reads files
    assert diff.startswith(f"--- {path}\n+++ {path}\n@@")
    assert "-if\ti <= n:\r\n+if\ti < n:\r\n" in diff


def test_fixing_twice_changes_nothing_the_second_time(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_text("a <= b\nc <= d\n")
    _run(path)
    once = path.read_bytes()
    remaining, diff = _run(path)
    assert path.read_bytes() == once == b"a < b\nc < d\n"
    assert (remaining, diff) == ([], "")


def test_diff_writes_nothing_and_reports_what_would_remain(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_text("a <= b\n")
    remaining, diff = _run(path, write=False)
    assert path.read_text() == "a <= b\n"
    assert remaining == []
    assert diff == f"--- {path}\n+++ {path}\n@@ -1 +1 @@\n-a <= b\n+a < b\n"


def test_overlapping_fixes_take_more_passes(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "overlap.py"
    path.write_text("a <= b <= c\n")
    remaining, _ = _run(path)
    assert path.read_text() == "a < b < c\n"
    assert remaining == [] and len(checker) == 2


def test_mode_kept_and_no_temporary_file_left(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_text("a <= b\n")
    os.chmod(path, 0o640)
    _run(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.py"]


def test_symlink_is_followed_not_replaced(tmp_path: Path, checker: list[str]) -> None:
    target = tmp_path / "real.py"
    target.write_text("a <= b\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    fixes.run(_le_findings(str(link), "a <= b\n"), Settings(), write=True)
    assert link.is_symlink() and target.read_text() == "a < b\n"


def test_missing_trailing_newline_is_marked_in_the_diff(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_text("a <= b")
    _, diff = _run(path, write=False)
    assert diff.endswith("-a <= b\n\\ No newline at end of file\n+a < b\n\\ No newline at end of file\n")


def test_suppressed_and_unfixable_findings_are_left(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_text("a <= b\n")
    (suppressed,) = _le_findings(str(path), "a <= b\n")
    suppressed.suppressed_by = "noqa"
    plain = Finding("BC101", "unguarded-load", "m", str(path), Span(1, 0, 1, 1))
    remaining, diff = fixes.run([suppressed, plain], Settings(), write=True)
    assert (remaining, diff, checker) == ([plain, suppressed], "", [])
    assert path.read_text() == "a <= b\n"


def test_file_that_is_not_utf8_is_not_rewritten(tmp_path: Path, checker: list[str]) -> None:
    path = tmp_path / "k.py"
    path.write_bytes(b"# \xff\na <= b\n")
    findings = _le_findings(str(path), "# \ufffd\na <= b\n")
    remaining, diff = fixes.run(findings, Settings(), write=True)
    assert (remaining, diff) == (findings, "")
    assert path.read_bytes() == b"# \xff\na <= b\n"


def test_other_files_findings_pass_through(tmp_path: Path, checker: list[str]) -> None:
    fixed, other = tmp_path / "a.py", tmp_path / "b.py"
    fixed.write_text("a <= b\n")
    other.write_text("x = 1\n")
    untouched = Finding("BC101", "unguarded-load", "m", str(other), Span(1, 0, 1, 1))
    remaining, _ = fixes.run([*_le_findings(str(fixed), "a <= b\n"), untouched], Settings(), write=True)
    assert remaining == [untouched]


# --- End to end through the CLI (needs the Triton frontend) --------------------------------------

ROW_MAX = '''\
import triton
import triton.language as tl


@triton.jit
def block_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs <= n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + pid, tl.max(x, axis=0))
'''

ROW_MAX_FIXED = ROW_MAX.replace("offs <= n", "offs < n").replace(
    "mask=mask)", 'mask=mask, other=float("-inf"))')


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_cli_reports_both_fixable_findings(tmp_path: Path) -> None:
    path = tmp_path / "block_max.py"
    path.write_text(ROW_MAX)
    code, output = _cli("--output-format", "json", str(path))
    assert code == 1
    assert re.findall(r'"code": "(BC\d+)"', output) == ["BC104", "BC201"]


def test_cli_fix_then_fix_again(tmp_path: Path) -> None:
    path = tmp_path / "block_max.py"
    path.write_text(ROW_MAX)
    code, _ = _cli("--fix", "--unsafe-fixes", str(path))
    assert path.read_text() == ROW_MAX_FIXED
    assert code == 0
    code, _ = _cli("--fix", "--unsafe-fixes", str(path))
    assert path.read_text() == ROW_MAX_FIXED and code == 0


def test_cli_fix_applies_only_safe_fixes_unless_asked(tmp_path: Path) -> None:
    """BC104's `<=` -> `<` is right only where the finding is: over a list of n + 1 entries (a
    prefix sum) the inclusive bound is intended, so plain --fix leaves it and says so."""
    path = tmp_path / "block_max.py"
    path.write_text(ROW_MAX)
    code, output = _cli(str(path))
    assert "1 fixable with `--fix`. (1 hidden fix can be enabled with the `--unsafe-fixes` option.)" in output
    assert "= unsafe fix: use `<`" in output
    code, _ = _cli("--fix", str(path))
    assert path.read_text() == ROW_MAX.replace("mask=mask)", 'mask=mask, other=float("-inf"))')
    assert code == 1  # the BC104 finding remains


def test_json_names_each_fix_s_applicability(tmp_path: Path) -> None:
    path = tmp_path / "block_max.py"
    path.write_text(ROW_MAX)
    _, output = _cli("--output-format", "json", str(path))
    assert re.findall(r'"applicability": "(\w+)"', output) == ["unsafe", "safe"]


def test_cli_fix_keeps_crlf(tmp_path: Path) -> None:
    path = tmp_path / "block_max.py"
    path.write_bytes(ROW_MAX.replace("\n", "\r\n").encode())
    _cli("--fix", "--unsafe-fixes", str(path))
    assert path.read_bytes() == ROW_MAX_FIXED.replace("\n", "\r\n").encode()


def test_cli_diff_prints_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "block_max.py"
    path.write_text(ROW_MAX)
    code, output = _cli("--diff", "--unsafe-fixes", str(path))
    assert path.read_text() == ROW_MAX
    assert code == 1
    assert output.startswith(f"--- {path}\n+++ {path}\n@@")
    assert "\n-    mask = offs <= n\n" in output and "\n+    mask = offs < n\n" in output
    assert '\n+    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))\n' in output
    fixed = tmp_path / "fixed.py"
    fixed.write_text(ROW_MAX_FIXED)
    assert _cli("--diff", str(fixed)) == (0, "")
