"""Findings: what a rule reports, and the edits that fix it."""

from __future__ import annotations

from dataclasses import dataclass, field

from boundcheck.model import Span


@dataclass(frozen=True)
class Edit:
    """Replace ``span`` of the file with ``text`` (a safe fix)."""

    span: Span
    text: str


@dataclass(frozen=True)
class Fix:
    """A finding's edits. ``safe``: they keep every correct program correct; an unsafe fix is right
    only where the finding is (an inclusive bound over a list of n + 1 entries is intended), so it is
    applied with ``--unsafe-fixes`` only."""

    message: str
    edits: tuple[Edit, ...]
    safe: bool = True


@dataclass
class Finding:
    code: str
    name: str
    message: str
    path: str
    span: Span
    kernel: str | None = None
    fix: Fix | None = None
    suppressed_by: str | None = None  # the suppression comment's kind, when suppressed
    extra: dict[str, str] = field(default_factory=dict)
    related: tuple[tuple[Span, str], ...] = ()  # other places the finding involves, each with a note

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.span.line, self.span.col, self.code)
