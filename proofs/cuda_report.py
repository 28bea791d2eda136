"""Turn the CUDA proof driver's output into per-shape verdicts.

Kept apart from the process handling in proofs/cuda_run.py so it can be tested on canned output
where no GPU exists. The driver prints one fact per line (see proofs/cuda/driver.cu);
compute-sanitizer interleaves its own lines, all starting with ``=========``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# Inputs are small integers, so every family's float32 result is exact: anything above this is a
# bug, not rounding.
VALUES_TOLERANCE = 1e-3
ORACLES = ("values", "canary", "unwritten", "sanitizer", "fault")

_SUMMARY = re.compile(r"^========= ERROR SUMMARY: (\d+) errors?")
# The first line of each memcheck report; continuation lines are indented after the prefix.
_ERROR_HEAD = re.compile(
    r"^========= (Invalid |Program hit |Misaligned |Out-of-range |Barrier error|Malloc/Free error"
    r"|Cuda API error|Error: )")


@dataclass
class ShapeLog:
    """What one process said about one shape."""

    index: int
    label: str
    dims: str
    observed: dict[str, float] = field(default_factory=dict)
    launch_errors: list[str] = field(default_factory=list)
    fault: str | None = None  # the CUDA error that stopped the driver in this shape
    died: str | None = None  # the process timed out or died in this shape without saying why
    ended: bool = False
    sanitizer_errors: int = 0


@dataclass
class RunLog:
    """One driver process: the shapes it began, in order, and how it ended."""

    shapes: list[ShapeLog] = field(default_factory=list)
    summary_errors: int | None = None
    done: bool = False
    fault: str | None = None  # a fault outside any shape (setup)


def parse_run(text: str) -> RunLog:
    """Parse one process's merged stdout/stderr. Sanitizer reports go to the shape begun last;
    if the ERROR SUMMARY counts more than the reports recognised, the rest goes there too (an
    exact run stops after its first shape with a CUDA error, so that is where they belong)."""
    log = RunLog()
    current: ShapeLog | None = None
    for line in text.splitlines():
        words = line.split()
        if line.startswith("========="):
            summary = _SUMMARY.match(line)
            if summary:
                log.summary_errors = int(summary.group(1))
            elif _ERROR_HEAD.match(line) and current is not None:
                current.sanitizer_errors += 1
            continue
        if not words:
            continue
        tag = words[0]
        if tag == "BEGIN" and len(words) >= 4:
            current = ShapeLog(int(words[1]), words[2], words[3])
            log.shapes.append(current)
        elif tag == "RESULT" and current is not None and len(words) >= 4:
            current.observed[words[2]] = float(words[3])
        elif tag == "LAUNCHERROR" and current is not None and len(words) >= 3:
            current.launch_errors.append(words[2])
        elif tag == "FAULT" and len(words) >= 3:
            if current is not None and not current.ended:
                current.fault = " ".join(words[2:])
            else:
                log.fault = " ".join(words[2:])
        elif tag == "END" and current is not None:
            current.ended = True
        elif tag == "DONE":
            log.done = True
    if log.summary_errors is not None and log.shapes:
        counted = sum(s.sanitizer_errors for s in log.shapes)
        log.shapes[-1].sanitizer_errors += max(0, log.summary_errors - counted)
    return log


@dataclass
class Invocation:
    """What running the driver from one shape index produced."""

    text: str
    returncode: int | None  # None: killed by the timeout


def run_from_each_stop(invoke: Callable[[int], Invocation], n_shapes: int) -> tuple[list[ShapeLog], list[str]]:
    """Run shapes 0..n-1, restarting after the shape where a process stopped (a sticky CUDA error
    ends a process). A timeout ends the whole run: a kernel that hangs at one boundary shape
    (barrier divergence) tends to hang at the next, and the proof has a time budget; the shapes
    not run stay missing. Returns the shape logs and a note per shape where a process died."""
    shapes: list[ShapeLog] = []
    notes: list[str] = []
    start = 0
    while start < n_shapes:
        inv = invoke(start)
        log = parse_run(inv.text)
        shapes += log.shapes
        if log.done:
            break
        begun = [s.index for s in log.shapes]
        stopped = begun[-1] if begun else start
        if not begun:
            shapes.append(ShapeLog(start, "?", "?", died=f"no shape begun (exit {inv.returncode}, {log.fault})"))
        elif inv.returncode is None:
            shapes[-1].died = "timeout"
        elif not shapes[-1].ended and shapes[-1].fault is None:
            shapes[-1].died = f"process died (exit {inv.returncode})"
        if shapes[-1].died:
            notes.append(f"shape {stopped}: {shapes[-1].died}")
        if inv.returncode is None:
            notes.append(f"shapes {stopped + 1}..{n_shapes - 1}: not run after the timeout")
            break
        start = stopped + 1
    return shapes, notes


def is_wrong(oracle: str, observed: float) -> bool:
    if oracle == "values":
        return not observed <= VALUES_TOLERANCE
    return observed > 0


def json_number(x: float) -> float | int | str:
    """JSON has no inf/nan; they are written as strings."""
    if math.isnan(x) or math.isinf(x):
        return str(x)
    return int(x) if x == int(x) and abs(x) < 2**53 else x


def judge_shape(label: str, dims: str, plain: ShapeLog | None, exact: ShapeLog | None) -> dict[str, Any]:
    """Combine the plain run (values, canary, unwritten) and the memcheck run (sanitizer) of one
    shape. A fault is a plain-run CUDA error, or a timeout or death in either run; a memcheck run
    that stops with a CUDA error is the sanitizer's own doing and counted there."""
    observed: dict[str, float | None] = {o: None for o in ORACLES}
    notes: list[str] = []
    faults = 0
    if plain is not None:
        for oracle in ("values", "canary", "unwritten"):
            if oracle in plain.observed:
                observed[oracle] = plain.observed[oracle]
        for stop in (plain.fault, plain.died):
            if stop:
                faults += 1
                notes.append(f"plain run: {stop}")
        notes += [f"plain run launch error: {e}" for e in plain.launch_errors]
    if exact is not None:
        observed["sanitizer"] = exact.sanitizer_errors
        if exact.died:
            faults += 1
            notes.append(f"memcheck run: {exact.died}")
        elif exact.fault:
            notes.append(f"memcheck run stopped: {exact.fault}")
    observed["fault"] = faults
    wrong = [o for o in ORACLES if observed[o] is not None and is_wrong(o, observed[o])]
    missing = [o for o in ORACLES if observed[o] is None]
    verdict = "wrong" if wrong else ("incomplete" if missing else "right")
    shown = wrong[0] if wrong else "values"
    record: dict[str, Any] = {
        "label": label,
        "shape": dims,
        "oracle": shown,
        "observed": None if observed[shown] is None else json_number(observed[shown]),
        "verdict": verdict,
        "all": {o: None if v is None else json_number(v) for o, v in observed.items()},
    }
    if missing:
        record["missing"] = missing
    if notes:
        record["notes"] = notes
    return record


def parse_listing(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``driver --list``: the family and each shape's (label, dims), in index order."""
    family = "none"
    shapes: list[tuple[str, str]] = []
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ["FAMILY"] and len(words) == 2:
            family = words[1]
        elif words[:1] == ["SHAPE"] and len(words) == 4:
            shapes.append((words[2], words[3]))
    return family, shapes


def judge_fixture(listing: list[tuple[str, str]], plain: Iterable[ShapeLog],
                  exact: Iterable[ShapeLog]) -> list[dict[str, Any]]:
    """One record per listed shape, from what each run said about it."""
    plain_by = {s.index: s for s in plain}
    exact_by = {s.index: s for s in exact}
    return [judge_shape(label, dims, plain_by.get(i), exact_by.get(i))
            for i, (label, dims) in enumerate(listing)]


def passed(expect: str, records: list[dict[str, Any]]) -> bool:
    """A bad fixture must go wrong at one shape or more; a good one must be right at all."""
    verdicts = [r["verdict"] for r in records]
    if expect == "wrong":
        return "wrong" in verdicts
    return bool(verdicts) and all(v == "right" for v in verdicts)
