"""Suppression comments, and BC002 for those that suppress nothing.

Python: ``# noqa: BC101`` and bare ``# noqa`` on the finding's line (as ruff reads them), and
``# boundcheck: ignore[BC101]`` on the line or alone on the line before. CUDA: ``// NOLINT(BC101)``,
``// NOLINTNEXTLINE(BC101)``, ``// NOLINTBEGIN(BC101)`` … ``// NOLINTEND(BC101)`` (clang-tidy's
grammar, globs allowed) and ``// boundcheck: ignore[BC101]``. A ``noqa`` or ``NOLINT`` naming only
other tools' codes is not ours; a bare one may be meant for another tool, so it suppresses
everything but is never reported unused. Suppressed findings are kept, marked, for SARIF.
``# boundcheck: assume …`` is a contract the frontends read, not a suppression.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from fnmatch import fnmatch, fnmatchcase

from boundcheck.findings import Finding
from boundcheck.model import Language, Module, Span
from boundcheck.settings import Settings, code_matches

_CODE = r"[A-Za-z]+[0-9]+"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?(?![\w-])", re.IGNORECASE)
_PY_IGNORE = re.compile(r"#\s*boundcheck:\s*ignore(?:\[(?P<codes>[^\]]*)\])?(?![\w-])")
_NOLINT = re.compile(r"//\s*(?P<kind>NOLINT(?:NEXTLINE|BEGIN|END)?)\b(?:\((?P<codes>[^)]*)\))?")
_CU_IGNORE = re.compile(r"//\s*boundcheck:\s*ignore(?:\[(?P<codes>[^\]]*)\])?(?![\w-])")


@dataclass
class Comment:
    """One suppression comment and the finding lines it covers."""

    line: int  # the comment's own line
    col: int
    end_col: int
    codes: list[str] | None  # None: every code (bare noqa / NOLINT / boundcheck: ignore)
    lines: range  # the finding lines it covers
    kind: str
    ours: bool = True  # named for boundcheck: reported by BC002 when unused
    used: set[str] = field(default_factory=set)  # the codes it suppressed

    def covers(self, finding: Finding) -> bool:
        return finding.span.line in self.lines and (
            self.codes is None or any(fnmatchcase(finding.code, c) for c in self.codes))

    def unused_codes(self) -> list[str]:
        """Codes that matched nothing; BC002 itself is left out (it may silence its own report)."""
        if self.codes is None:
            return [] if self.used else ["all codes"]
        return [c for c in self.codes
                if c != "BC002" and not any(fnmatchcase(u, c) for u in self.used)]


def _codes(text: str | None) -> list[str] | None:
    """Our codes among those listed; None when none are listed."""
    if text is None:
        return None
    return [c.upper() for c in re.split(r"[\s,]+", text) if c.upper().startswith("BC")]


def _python_comments(source: str) -> list[tuple[int, int, str, bool]]:
    """(line, col, text, alone on its line) of each comment; tokenize keeps ``#`` in strings out."""
    try:
        found = []
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                found.append((tok.start[0], tok.start[1], tok.string, tok.line[: tok.start[1]].strip() == ""))
        return found
    except (tokenize.TokenError, SyntaxError):  # unparsable: fall back to reading lines
        found = []
        for number, text in enumerate(source.splitlines(), start=1):
            col = text.find("#")
            if col >= 0:
                found.append((number, col, text[col:], text[:col].strip() == ""))
        return found


def _cuda_comments(source: str) -> list[tuple[int, int, str, bool]]:
    found = []
    for number, text in enumerate(source.splitlines(), start=1):
        col = text.find("//")
        if col >= 0:
            found.append((number, col, text[col:], text[:col].strip() == ""))
    return found


_ANY_MARK = re.compile(r"noqa|boundcheck|nolint", re.IGNORECASE)


def comments(module: Module) -> list[Comment]:
    source = module.source
    if not _ANY_MARK.search(source):
        return []  # the common case costs one scan, not a tokenize
    if module.language is Language.TRITON:
        return _python(source)
    return _cuda(source)


def _python(source: str) -> list[Comment]:
    out = []
    for line, col, text, alone in _python_comments(source):
        for m in _NOQA.finditer(text):
            codes = _codes(m.group("codes"))
            if codes == []:
                continue  # a noqa for another tool's codes
            out.append(Comment(line, col + m.start(), col + m.end(), codes, range(line, line + 1),
                               "noqa", ours=codes is not None))
        for m in _PY_IGNORE.finditer(text):
            out.append(_ignore(line, col, m, alone))
    return out


def _ignore(line: int, col: int, m: re.Match[str], alone: bool) -> Comment:
    """``boundcheck: ignore[...]`` covers its line, and the next when it stands alone."""
    listed = m.group("codes")
    codes = [c.upper() for c in re.split(r"[\s,]+", listed) if c] if listed is not None else None
    return Comment(line, col + m.start(), col + m.end(), codes,
                   range(line, line + (2 if alone else 1)), "boundcheck-ignore")


def _cuda(source: str) -> list[Comment]:
    out = []
    begins: list[Comment] = []
    for line, col, text, alone in _cuda_comments(source):
        for m in _CU_IGNORE.finditer(text):
            out.append(_ignore(line, col, m, alone))
        for m in _NOLINT.finditer(text):
            kind = m.group("kind").upper()
            codes = _codes(m.group("codes"))
            if codes == []:
                continue  # NOLINT(clang-tidy-check)
            start, end = col + m.start(), col + m.end()
            if kind == "NOLINTEND":
                _close(begins, codes, line)
                continue
            covered = {"NOLINT": range(line, line + 1), "NOLINTNEXTLINE": range(line + 1, line + 2),
                       "NOLINTBEGIN": range(line, 1 << 31)}[kind]
            comment = Comment(line, start, end, codes, covered, kind, ours=codes is not None)
            out.append(comment)
            if kind == "NOLINTBEGIN":
                begins.append(comment)
    return out


def _close(begins: list[Comment], codes: list[str] | None, line: int) -> None:
    """End the innermost open NOLINTBEGIN with the same codes (clang-tidy pairs them so)."""
    for comment in reversed(begins):
        if comment.codes == codes:
            comment.lines = range(comment.line, line + 1)
            begins.remove(comment)
            return


def apply(module: Module, findings: list[Finding], settings: Settings) -> list[Finding]:
    """Drop per-file-ignored findings, mark suppressed ones, add BC002 for unused comments."""
    findings = [f for f in findings if not _file_ignored(module.path, f.code, settings)]
    wants_bc002 = _wants_bc002(settings) and not _file_ignored(module.path, "BC002", settings)
    marks = comments(module) if findings or wants_bc002 else []
    for f in findings:
        _mark(f, marks)
    if wants_bc002 and not module.errors:  # a file not fully analysed cannot show a comment unused
        unused = []
        for c in marks:
            codes = c.unused_codes()
            if c.ours and codes:
                unused.append(Finding(
                    "BC002", "unused-suppression",
                    f"`{c.kind}` suppression of {', '.join(codes)} suppresses nothing here; remove it",
                    module.path, Span(c.line, c.col, c.line, c.end_col)))
        for f in unused:
            _mark(f, marks)
        findings.extend(unused)
    return findings


def _mark(finding: Finding, marks: list[Comment]) -> None:
    for c in marks:
        if c.covers(finding):
            finding.suppressed_by = finding.suppressed_by or c.kind
            c.used.add(finding.code)


def _wants_bc002(settings: Settings) -> bool:
    from boundcheck.engine import selected_rules

    return any(r.code == "BC002" for r in selected_rules(settings))


def _file_ignored(path: str, code: str, settings: Settings) -> bool:
    return any(
        (fnmatch(path, glob) or fnmatch(path, f"*/{glob}")) and any(code_matches(code, c) for c in codes)
        for glob, codes in settings.per_file_ignores.items()
    )
