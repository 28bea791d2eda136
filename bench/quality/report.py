"""The benchmark's reports, from the records of a run (``results.json``).

    python -m bench.quality.report OUTDIR   # rewrites OUTDIR/results.md and OUTDIR/misses.md
    python -m bench.quality.report OUTDIR --readme README.md --commit abc123  # and the README's table

``results.md``: the per-rule table, the unmodified-code rates, the skipped sites by reason and
the misses by reason. ``misses.md``: every mutant its rule did not catch, grouped by reason
(``reasons.py``), with the site and the change.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from functools import lru_cache
from pathlib import Path

from bench.quality.reasons import reason


@lru_cache(maxsize=64)
def _lines(path: str) -> tuple[str, ...]:
    return tuple(Path(path).read_text(encoding="utf-8", errors="replace").splitlines())


def misses_of(records: list[dict]) -> list[tuple[str, dict]]:
    """(reason, mutant) for every mutant not caught by its intended rule, in run order."""
    out = []
    for r in records:
        for m in r["mutants"]:
            if m["outcome"] in ("caught-other", "missed"):
                out.append((reason(m, list(_lines(m["path"]))), m))
    return out


def _share(part: int, whole: int) -> str:
    """A percentage rounded down to one decimal, so that 94.8% never shows as a 95% goal met."""
    return f"{int(1000 * part / whole) / 10:.1f}"


def counted(row: dict) -> int:
    """Mutants a share is taken over: those made, less the already reported and suppressed ones."""
    return row["made"] - row.get("already-reported", 0) - row.get("suppressed", 0)


def table(summary: dict) -> str:
    out = [("| language | rule | mutants | caught (intended rule) | caught (other rule only) | missed |"
            " already reported | suppressed | skipped | recall |"),
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in summary["rules"]:
        n = counted(row)
        recall = f"{_share(row['caught-intended'], n)}%" if n else "n/a"
        out.append(f"| {row['language']} | {row['rule']} | {row['made']} | {row['caught-intended']} |"
                   f" {row['caught-other']} | {row['missed']} | {row.get('already-reported', 0)} |"
                   f" {row.get('suppressed', 0)} | {row['skipped']} | {recall} |")
    out += ["", "Unmodified code (BC001 counted apart from the findings):", "",
            "| language | files with kernels | lines | findings | per 1,000 lines | files with BC001 |",
            "|---|---:|---:|---:|---:|---:|"]
    for lang, u in summary["unmodified"].items():
        out.append(f"| {lang} | {u['files']} | {u['kernel_lines']} | {u['findings']} | {u['findings_per_kloc']} |"
                   f" {u['files_with_bc001']} |")
    return "\n".join(out) + "\n"


def skips(records: list[dict]) -> str:
    counts: Counter[tuple[str, str, str, str]] = Counter()
    for r in records:
        for s in r["skipped"]:
            counts[(r["language"], s["rule"], s["operator"], s["reason"])] += s["count"]
    out = ["| language | rule | operator | sites skipped | reason |", "|---|---|---|---:|---|"]
    for (lang, rule, op, why), n in sorted(counts.items(), key=lambda kv: (kv[0][:3], -kv[1])):
        out.append(f"| {lang} | {rule} | {op} | {n} | {why} |")
    return "\n".join(out) + "\n"


def miss_summary(misses: list[tuple[str, dict]]) -> str:
    counts = Counter((m["language"], m["rule"], why) for why, m in misses)
    out = ["| language | rule | not caught | reason |", "|---|---|---:|---|"]
    for (lang, rule, why), n in sorted(counts.items(), key=lambda kv: (kv[0][:2], -kv[1])):
        out.append(f"| {lang} | {rule} | {n} | {why} |")
    return "\n".join(out) + "\n"


def misses_md(misses: list[tuple[str, dict]]) -> str:
    """Every miss, grouped by (language, rule, reason), largest group first."""
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for why, m in misses:
        groups.setdefault((m["language"], m["rule"], why), []).append(m)
    out = ["# Mutants their rule did not catch, by reason", ""]
    for (lang, rule, why), ms in sorted(groups.items(), key=lambda kv: (kv[0][:2], -len(kv[1]))):
        out += [f"## {lang} {rule}: {why} ({len(ms)})", "",
                "| operator | where | outcome | other findings | change |", "|---|---|---|---|---|"]
        for m in ms:
            other = ", ".join(f"{f['code']}@{f['line']}" for f in m["new_findings"][:4]) or "-"
            change = m["description"].replace("|", "\\|").replace("\n", " ")
            out.append(f"| {m['operator']} | {m['path']}:{m['line']} | {m['outcome']} | {other} | {change} |")
        out.append("")
    return "\n".join(out)


def write(out: Path, summary: dict, records: list[dict]) -> str:
    """Write results.md and misses.md; return the table."""
    misses = misses_of(records)
    head = table(summary)
    (out / "results.md").write_text(head + "\nSites an operator recognised but did not mutate:\n\n" + skips(records)
                                    + "\nMutants not caught by their rule, by reason:\n\n" + miss_summary(misses))
    (out / "misses.md").write_text(misses_md(misses))
    return head


NAMES = {"BC101": "unguarded-load", "BC102": "unguarded-store", "BC103": "partial-guard",
         "BC104": "off-by-one-bound", "BC105": "thread-index-guard", "BC106": "vector-tail",
         "BC201": "undefined-padding", "BC202": "padding-not-identity", "BC301": "floor-trip-count",
         "BC302": "floor-grid", "BC303": "exit-before-barrier"}
START, END = "<!-- quality-table:start -->", "<!-- quality-table:end -->"


def _cell(row: dict | None) -> str:
    if row is None or not row["made"]:
        return "—"
    n = counted(row)
    other = f" (+{100 * row['caught-other'] / n:.0f}% other)" if row["caught-other"] >= 0.005 * n else ""
    return f"{n:,}, {_share(row['caught-intended'], n)}%{other}"


def readme_table(summary: dict, commit: str) -> str:
    """The README's short table: per rule and language, mutants counted and the share caught by
    the intended rule; and the unmodified code's findings per 1,000 lines."""
    rows = {(r["language"], r["rule"]): r for r in summary["rules"]}
    out = [START, f"At commit {commit} (full table, miss reasons and corpus commits:"
           " [`bench/quality/RESULTS.md`](bench/quality/RESULTS.md)):", "",
           "| rule | Triton: mutants, caught | CUDA: mutants, caught |", "|---|---|---|"]
    for code in sorted({r for _, r in rows}):
        out.append(f"| {code} {NAMES.get(code, '')} | {_cell(rows.get(('triton', code)))} |"
                   f" {_cell(rows.get(('cuda', code)))} |")
    u = summary["unmodified"]
    out += ["", "On the unmodified code boundcheck reports "
            + " and ".join(f"{u[lang]['findings_per_kloc']} findings per 1,000 {name} lines"
                           for lang, name in (("triton", "Triton"), ("cuda", "CUDA")) if lang in u) + ".", END]
    return "\n".join(out)


def update_readme(readme: Path, summary: dict, commit: str) -> None:
    text = readme.read_text()
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    readme.write_text(head + readme_table(summary, commit) + tail)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="a run's output folder, holding results.json")
    ap.add_argument("--readme", type=Path, help="also rewrite this README's table (between its markers)")
    ap.add_argument("--commit", default="?", help="the analyzer commit the run used, for the README")
    args = ap.parse_args(argv)
    out = Path(args.out)
    data = json.loads((out / "results.json").read_text())
    write(out, data["summary"], data["files"])
    if args.readme:
        update_readme(args.readme, data["summary"], args.commit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
