"""Run the mutation benchmark over directories of real kernel code.

    python -m bench.quality.run DIR [DIR ...] [--out DIR] [--timeout S] [--jobs N]

For each Triton / CUDA file: boundcheck's findings on the unmodified file (the false-positive
candidates, to be classified by hand), then one mutant per seeded bug, each checked in-process
and classified as caught by the intended rule near the changed statement, caught only by other
findings, missed, already reported (the unmodified file has the rule's finding on that statement),
or suppressed (the rule's finding is there, hidden by the line's own suppression comment). Writes ``results.json`` (every finding and every mutant's outcome) and
``results.md`` (the per-rule table, skips and misses by reason) and ``misses.md`` (every mutant its
rule did not catch, grouped by reason), and prints the table. Deterministic: files and mutants are
processed in a fixed order, and results are gathered in that order.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.quality import mutate_cuda, mutate_triton, report
from bench.quality.mutant import Mutant, Mutations
from boundcheck.discovery import discover
from boundcheck.engine import check_source, selected_rules
from boundcheck.findings import Finding
from boundcheck.model import Language
from boundcheck.settings import Settings

OUTCOMES = ("caught-intended", "caught-other", "missed", "already-reported", "suppressed")


class FileTimeout(BaseException):
    """A BaseException so that the engine's guard against frontend errors cannot swallow it."""


def _alarm(signum: int, frame: object) -> None:
    raise FileTimeout


def findings_of(path: str, language: Language, source: str) -> tuple[list[Finding], bool]:
    """Every finding, those the file's own comments suppress included (``shown`` drops them)."""
    return check_source(path, language, source, Settings(jobs=1))


def shown(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.suppressed_by is None]


@dataclass
class LineMap:
    """How lines of the original file move in a mutant: an unchanged prefix and suffix around
    one changed region (original lines ``lo..hi_orig``, mutant lines ``lo..hi_mut``)."""

    lo: int
    hi_orig: int
    hi_mut: int
    delta: int

    @classmethod
    def between(cls, original: str, mutated: str) -> LineMap:
        a, b = original.splitlines(), mutated.splitlines()
        p = 0
        while p < min(len(a), len(b)) and a[p] == b[p]:
            p += 1
        s = 0
        while s < min(len(a), len(b)) - p and a[-1 - s] == b[-1 - s]:
            s += 1
        return cls(p + 1, len(a) - s, len(b) - s, len(b) - len(a))

    def changed(self, line: int) -> bool:
        return self.lo <= line <= self.hi_orig

    def forward(self, line: int) -> int:
        return line if line < self.lo else line + self.delta if line > self.hi_orig else line

    def target(self, lo: int, hi: int) -> tuple[int, int]:
        """A target range in mutant lines; one touching the changed region covers all of it."""
        if hi < self.lo:
            return lo, hi
        if lo > self.hi_orig:
            return lo + self.delta, hi + self.delta
        return min(lo, self.lo), hi + self.delta if hi > self.hi_orig else max(self.hi_mut, self.lo)


def new_findings(base: list[Finding], mutant: list[Finding], lines: LineMap) -> list[Finding]:
    """Mutant findings that the unmodified file does not have (same code at the mapped line)."""
    pending = Counter()
    for f in base:
        line = f.span.line
        pending[(f.code, "changed" if lines.changed(line) else lines.forward(line))] += 1
    out = []
    for f in mutant:
        line = f.span.line
        key = (f.code, "changed" if lines.lo <= line <= lines.hi_mut else line)
        if pending[key] > 0:
            pending[key] -= 1
        else:
            out.append(f)
    return out


def classify(m: Mutant, original: str, base: list[Finding], language: Language) -> dict:
    """``base``: the unmodified file's unsuppressed findings."""
    everything, _ = findings_of(m.path, language, m.source)
    found = shown(everything)
    lines = LineMap.between(original, m.source)
    targets = [lines.target(lo, hi) for lo, hi in m.targets]

    def on_target(f: Finding) -> bool:
        return f.code == m.rule and any(a <= f.span.line <= b for a, b in targets)

    new = new_findings(base, found, lines)
    near = [f for f in new if on_target(f)]
    already = [f for f in found if on_target(f) and f not in new]
    hidden = [f for f in everything if f.suppressed_by is not None and on_target(f)]
    # the unmodified file already has the rule's finding on the changed statement, so the mutant's
    # bug cannot be told from the one reported before; or the author's suppression comment on the
    # line hides the finding the mutant causes: neither caught nor missed
    outcome = "caught-intended" if near else "already-reported" if already else \
        "suppressed" if hidden else "caught-other" if new else "missed"
    return {
        "operator": m.operator, "rule": m.rule, "language": language.value, "path": m.path,
        "line": m.line, "description": m.description, "outcome": outcome,
        "targets": targets,
        "new_findings": [{"code": f.code, "line": f.span.line, "message": f.message} for f in new],
    }


def mutations_of(path: str, language: Language, source: str) -> Mutations:
    if language is Language.TRITON:
        return mutate_triton.mutate(path, source)
    return mutate_cuda.mutate(path, source)


def process(job: tuple[str, str, int]) -> dict:
    """One file: baseline findings, mutants and their outcomes, within the time limit."""
    path, lang, timeout = job
    language = Language(lang)
    record: dict = {"path": path, "language": lang, "parsed": False, "lines": 0, "findings": [],
                    "mutants": [], "skipped": [], "error": None}
    start = time.monotonic()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
        everything, parsed = findings_of(path, language, source)
        base = shown(everything)
        record["parsed"] = parsed
        if not parsed:
            return record
        record["lines"] = source.count("\n") + 1
        record["findings"] = [{"code": f.code, "line": f.span.line, "kernel": f.kernel, "message": f.message}
                              for f in base]
        muts = mutations_of(path, language, source)
        record["skipped"] = [{"operator": o, "rule": r, "reason": why, "count": n}
                             for (o, r, why), n in sorted(muts.skipped.items())]
        for m in muts.mutants:
            record["mutants"].append(classify(m, source, base, language))
    except FileTimeout:
        record["error"] = f"time limit of {timeout}s reached; {len(record['mutants'])} mutants kept"
    except Exception as exc:  # one odd file must not end the run; the record says what happened
        record["error"] = f"{type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
        record["seconds"] = round(time.monotonic() - start, 2)
    return record


def summarise(records: list[dict]) -> dict:
    table: dict[tuple[str, str], Counter] = {}
    for r in records:
        for m in r["mutants"]:
            table.setdefault((m["language"], m["rule"]), Counter())[m["outcome"]] += 1
            table[(m["language"], m["rule"])]["made"] += 1
        for s in r["skipped"]:
            table.setdefault((r["language"], s["rule"]), Counter())["skipped"] += s["count"]
    per_lang: dict[str, dict] = {}
    for lang in sorted({r["language"] for r in records}):
        rs = [r for r in records if r["language"] == lang and r["parsed"]]
        lines = sum(r["lines"] for r in rs)
        found = [f for r in rs for f in r["findings"]]
        n = sum(1 for f in found if f["code"] != "BC001")  # parse failures are counted apart
        per_lang[lang] = {"files": len(rs), "kernel_lines": lines, "findings": n,
                          "findings_per_kloc": round(1000 * n / lines, 2) if lines else 0.0,
                          "by_code": dict(sorted(Counter(f["code"] for f in found).items())),
                          "files_with_bc001": sum(1 for r in rs if any(f["code"] == "BC001" for f in r["findings"])),
                          "errors": sum(1 for r in records if r["language"] == lang and r["error"])}
    rows = [{"language": lang, "rule": rule, **{k: c[k] for k in ("made", *OUTCOMES, "skipped")}}
            for (lang, rule), c in sorted(table.items())]
    return {"rules": rows, "unmodified": per_lang}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--out", required=True, help="output folder (keep it outside the repository)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per file")
    ap.add_argument("--jobs", type=int, default=0, help="processes (0: one per core)")
    args = ap.parse_args(argv)
    # Import both frontends before the workers fork, so that one run checks every file with the
    # same code even if the working tree changes while it runs.
    import boundcheck.frontends.cuda  # noqa: F401
    import boundcheck.frontends.triton  # noqa: F401

    selected_rules(Settings())  # and the rule modules

    files = [(str(p), lang.value, args.timeout) for p, lang in discover(args.dirs, [], True)]
    jobs = args.jobs or multiprocessing.cpu_count()
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            records = list(pool.imap(process, files, chunksize=1))
    else:
        records = [process(f) for f in files]
    summary = summarise(records)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps({"dirs": args.dirs, "summary": summary, "files": records},
                                                 indent=1) + "\n")
    sys.stdout.write(report.write(out, summary, records))
    for r in records:
        if r["error"]:
            sys.stdout.write(f"error: {r['path']}: {r['error']}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
