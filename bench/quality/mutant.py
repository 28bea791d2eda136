"""What a mutation operator produces: one seeded bug, tied to the rule that should catch it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Mutant:
    """One change to one file.

    ``targets`` are the (first, last) line ranges where the intended finding belongs: the
    statement of the access, comparison, loop header or grid that the change affects. A finding
    with ``rule`` whose line falls in one of them counts as caught by the intended rule.
    """

    operator: str
    rule: str
    path: str
    line: int  # first line of the change
    description: str
    source: str  # the whole mutated file
    targets: tuple[tuple[int, int], ...]

    def near(self, line: int) -> bool:
        return any(lo <= line <= hi for lo, hi in self.targets)


@dataclass
class Mutations:
    """The mutants of one file, and the candidate sites an operator could not change cleanly."""

    mutants: list[Mutant] = field(default_factory=list)
    skipped: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # (operator, rule, reason)

    def skip(self, operator: str, rule: str, reason: str) -> None:
        self.skipped[(operator, rule, reason)] += 1


def splice(source: str, start: tuple[int, int], end: tuple[int, int], text: str) -> str:
    """Replace the text between two (1-based line, 0-based column) positions."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln))
    a = offsets[start[0] - 1] + start[1]
    b = offsets[end[0] - 1] + end[1]
    return source[:a] + text + source[b:]
