"""GitHub Actions workflow commands (``::error file=…::message``): annotations on the pull request
without an upload step. Suppressed findings are left out, as in the text output."""

from __future__ import annotations

import os
from pathlib import Path

from boundcheck.findings import Finding
from boundcheck.reporters.sarif import level

_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    """The message part, escaped as the Actions toolkit does (``escapeData``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A ``key=value`` property, escaped as the Actions toolkit does (``escapeProperty``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _path(path: str) -> str:
    """Relative to the working directory (the checkout), where GitHub resolves annotation paths."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()


def render(findings: list[Finding]) -> str:
    lines = []
    for f in sorted(findings, key=Finding.sort_key):
        if f.suppressed_by is not None:
            continue
        span = f.span
        props = {
            "file": _path(f.path),
            "line": str(max(span.line, 1)),
            "col": str(span.col + 1),
            "endLine": str(max(span.end_line, span.line, 1)),
            "endColumn": str(span.end_col + 1),  # one past the end, as ruff writes it
            "title": f"{f.code} {f.name}",
        }
        joined = ",".join(f"{k}={escape_property(v)}" for k, v in props.items())
        lines.append(f"::{_COMMAND.get(level(f.code), 'warning')} {joined}::{escape_data(f.message)}")
    return "\n".join(lines)
