"""Suppression comments: ``# noqa: BC101`` / ``# boundcheck: ignore[BC101]`` (Python) and
``// NOLINT(BC101)`` / ``// NOLINTNEXTLINE(BC101)`` / ``// boundcheck: ignore[BC101]`` (CUDA), on the
finding's line or the line before. Suppressed findings are kept (SARIF reports them as
suppressed); a comment that suppresses nothing is BC002."""

from __future__ import annotations

import re
from dataclasses import dataclass

from boundcheck.findings import Finding
from boundcheck.model import Language, Module, Span
from boundcheck.settings import Settings, code_matches

_PY = re.compile(r"#\s*(?:noqa(?::\s*(?P<noqa>[A-Z0-9, ]+))?|boundcheck:\s*ignore\[(?P<ign>[A-Z0-9, ]+)\])",
                 re.IGNORECASE)
_CU = re.compile(r"//\s*(?:(?P<kind>NOLINT(?:NEXTLINE)?)(?:\((?P<nolint>[A-Za-z0-9, _-]+)\))?"
                 r"|boundcheck:\s*ignore\[(?P<ign>[A-Z0-9, ]+)\])")


@dataclass
class Comment:
    line: int  # the comment's own line
    col: int
    end_col: int
    codes: list[str] | None  # None: every code
    lines: tuple[int, ...]  # the finding lines it covers
    kind: str
    used: bool = False


def _codes(text: str | None) -> list[str] | None:
    if text is None:
        return None
    codes = [c.strip().upper() for c in text.split(",") if c.strip()]
    return [c for c in codes if c.startswith("BC")] or None


def comments(module: Module) -> list[Comment]:
    out = []
    for number, text in enumerate(module.lines(), start=1):
        if module.language is Language.TRITON:
            if "#" not in text:
                continue
            for m in _PY.finditer(text):
                if m.group("ign") is not None:
                    codes, kind = _codes(m.group("ign")), "boundcheck-ignore"
                else:
                    if m.group("noqa") is not None and not _codes(m.group("noqa")):
                        continue  # a noqa for another tool's codes
                    codes, kind = _codes(m.group("noqa")), "noqa"
                own = text[: m.start()].strip() == ""
                out.append(Comment(number, m.start(), m.end(), codes,
                                   (number, number + 1) if own else (number,), kind))
        else:
            if "//" not in text:
                continue
            for m in _CU.finditer(text):
                if m.group("ign") is not None:
                    codes, kind = _codes(m.group("ign")), "boundcheck-ignore"
                    own = text[: m.start()].strip() == ""
                    lines = (number, number + 1) if own else (number,)
                else:
                    if m.group("nolint") is not None and not _codes(m.group("nolint")):
                        continue  # NOLINT(clang-tidy-check)
                    codes, kind = _codes(m.group("nolint")), m.group("kind").upper()
                    lines = (number + 1,) if kind == "NOLINTNEXTLINE" else (number,)
                out.append(Comment(number, m.start(), m.end(), codes, lines, kind))
    return out


def apply(module: Module, findings: list[Finding], settings: Settings) -> list[Finding]:
    """Mark suppressed findings, apply per-file ignores, and add BC002 for unused comments."""
    if any(_file_ignored(module.path, f.code, settings) for f in findings):
        findings = [f for f in findings if not _file_ignored(module.path, f.code, settings)]
    marks = comments(module) if findings or _wants_bc002(settings) else []
    for f in findings:
        for c in marks:
            if f.span.line in c.lines and (c.codes is None or f.code in c.codes):
                f.suppressed_by = c.kind
                c.used = True
    if _wants_bc002(settings) and not _file_ignored(module.path, "BC002", settings):
        for c in marks:
            if not c.used and c.codes is not None:
                findings.append(Finding(
                    "BC002", "unused-suppression",
                    f"suppression of {', '.join(c.codes)} suppresses nothing here; remove it",
                    module.path, Span(c.line, c.col, c.line, c.end_col)))
    return findings


def _wants_bc002(settings: Settings) -> bool:
    from boundcheck.engine import selected_rules

    return any(r.code == "BC002" for r in selected_rules(settings))


def _file_ignored(path: str, code: str, settings: Settings) -> bool:
    from fnmatch import fnmatch

    return any(
        (fnmatch(path, glob) or fnmatch(path, f"*/{glob}")) and any(code_matches(code, c) for c in codes)
        for glob, codes in settings.per_file_ignores.items()
    )
