"""Safe fixes: apply the edits findings carry, then check the fixed files again.

Edits address code points on 1-based lines, so a file is read without newline translation and
every byte outside the edits (CRLF endings, tabs, non-ASCII) is written back as it was. Fixes that
overlap an earlier one wait for the next pass, as ruff does; passes stop when nothing changes.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
import stat
import tempfile
from collections import defaultdict
from pathlib import Path

from boundcheck.discovery import language_of
from boundcheck.engine import check_source
from boundcheck.findings import Edit, Finding, Fix
from boundcheck.settings import Settings

MAX_PASSES = 10
_NEWLINE = re.compile(r"\r\n|\r|\n")


def run(findings: list[Finding], settings: Settings, write: bool, unsafe: bool = False) -> tuple[list[Finding], str]:
    """Fix what can be fixed (with ``unsafe``, unsafe fixes too); return the findings that remain
    and a unified diff of the changes.

    With ``write`` false nothing is written: the remaining findings are those of the fixed text.
    """
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_path[f.path].append(f)
    remaining: list[Finding] = []
    diffs: list[str] = []
    for path, found in by_path.items():
        outcome = _fix_file(path, found, settings, unsafe)
        if outcome is None:
            remaining.extend(found)
            continue
        original, fixed, after = outcome
        remaining.extend(after)
        diffs.append(_diff(path, original, fixed))
        if write:
            _write_atomically(path, fixed)
    return sorted(remaining, key=Finding.sort_key), "".join(diffs)


def _fixable(findings: list[Finding], unsafe: bool) -> list[Fix]:
    return [f.fix for f in findings if f.fix is not None and f.suppressed_by is None and f.fix.edits
            and (f.fix.safe or unsafe)]


def _fix_file(path: str, findings: list[Finding], settings: Settings,
              unsafe: bool) -> tuple[str, str, list[Finding]] | None:
    """(original text, fixed text, findings of the fixed text), or None when nothing changes."""
    language = language_of(Path(path))
    if language is None or not _fixable(findings, unsafe):
        return None
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            original = handle.read()
    except (OSError, UnicodeDecodeError):
        return None  # unreadable or not UTF-8: rewriting it would not preserve its bytes
    text = original
    for _ in range(MAX_PASSES):
        changed = apply_fixes(text, _fixable(findings, unsafe))
        if changed == text:
            break
        after, _ = check_source(path, language, _NEWLINE.sub("\n", changed), settings)
        if _broke_parse(findings, after):
            break  # a fix that makes the file unparsable is not safe: keep the last good text
        text, findings = changed, after
    if text == original:
        return None
    return original, text, findings


def _broke_parse(before: list[Finding], after: list[Finding]) -> bool:
    return sum(f.code == "BC001" for f in after) > sum(f.code == "BC001" for f in before)


def apply_fixes(text: str, fixes: list[Fix]) -> str:
    """Apply the fixes that do not overlap an earlier one (by position); the others wait.

    A fix is all or nothing. A fix identical to one already applied counts as applied.
    """
    starts = _line_starts(text)
    located: list[tuple[int, int, list[tuple[int, int, str]]]] = []
    for fix in fixes:
        edits = [_offsets(starts, text, e) for e in fix.edits]
        if any(e is None for e in edits):
            continue  # an edit outside the file: the finding is stale, leave it
        ordered = sorted(e for e in edits if e is not None)
        located.append((ordered[0][0], ordered[-1][1], ordered))
    located.sort(key=lambda item: (item[0], item[1]))
    accepted: list[tuple[int, int, str]] = []
    seen: set[tuple[tuple[int, int, str], ...]] = set()
    last_end = -1
    for start, end, edits in located:
        key = tuple(edits)
        if key in seen or start <= last_end or _self_overlapping(edits):
            continue
        seen.add(key)
        accepted.extend(edits)
        last_end = end
    out = []
    position = 0
    for start, end, replacement in accepted:
        out.append(text[position:start])
        out.append(replacement)
        position = end
    out.append(text[position:])
    return "".join(out)


def _self_overlapping(edits: list[tuple[int, int, str]]) -> bool:
    return any(b[0] < a[1] for a, b in itertools.pairwise(edits))


def _line_starts(text: str) -> list[int]:
    """Offsets where each line begins, split as Python and libcst split lines."""
    return [0, *(m.end() for m in _NEWLINE.finditer(text))]


def _offsets(starts: list[int], text: str, edit: Edit) -> tuple[int, int, str] | None:
    span = edit.span
    start = _offset(starts, text, span.line, span.col)
    end = _offset(starts, text, span.end_line, span.end_col)
    if start is None or end is None or end < start:
        return None
    return start, end, edit.text


def _offset(starts: list[int], text: str, line: int, col: int) -> int | None:
    """The offset of a code-point column, or None past the end of its line's content."""
    if not 1 <= line <= len(starts) or col < 0:
        return None
    line_end = starts[line] if line < len(starts) else len(text)
    content = text[starts[line - 1]:line_end].rstrip("\r\n")
    return starts[line - 1] + col if col <= len(content) else None


def _lines(text: str) -> list[str]:
    """Lines with their own endings, split as :func:`_line_starts` splits them."""
    starts = _line_starts(text)
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)]) if a < b]


def _diff(path: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(_lines(before), _lines(after), fromfile=path, tofile=path)
    out = []
    for line in lines:
        if line.endswith(("\n", "\r")):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _write_atomically(path: str, text: str) -> None:
    """Replace the file in one step: a crash leaves the old file or the new one, never half."""
    target = os.path.realpath(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    handle, temp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".boundcheck-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        os.unlink(temp)
        raise
