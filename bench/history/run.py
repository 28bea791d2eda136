"""Check boundcheck against boundary bugs that real projects fixed: the historical-fix benchmark.

    python -m bench.history.run MIRRORS [--manifest bench/history/manifest.tsv] [--out DIR]

MIRRORS holds one bare clone per repository, ``<owner>+<name>/repo`` (full history; never
committed). Each manifest row names a fixing commit, the kernel file in its first parent, the
parent's lines that hold the bug, and the checklist rule it is an instance of. For each row the
parent's version of the file's directory (the file and the kernel sources beside it, so that
launches in a sibling module are read as a directory run reads them), over every header of the
tree (so that includes resolve as in a checkout), is written to a scratch directory and checked,
and so is the fixed version. A row is

- **caught** when the parent has a finding of the row's rule on a bug line, **caught (other
  rule)** when only another rule's finding is there, **missed** otherwise (**unparsed** when the
  file gives BC001);
- **cleared** when the fixed version has no finding of the rule on the lines the bug lines became,
  **still reported** otherwise (a fix boundcheck does not see, or an incomplete fix).

Writes ``results.json`` and ``results.md`` (per language and rule, then every row not caught and
every fix still reported) and prints the table.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import json
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

from boundcheck.discovery import language_of
from boundcheck.engine import check_paths
from boundcheck.findings import Finding
from boundcheck.settings import Settings

MANIFEST = Path(__file__).with_name("manifest.tsv")
OUTCOMES = ("caught", "caught-other", "missed", "unparsed")
MAX_SIBLINGS = 200  # a directory of more kernel sources is checked as the file alone
HEADER_EXTENSIONS = ("h", "hpp", "hh", "cuh", "inl", "inc")


@dataclass(frozen=True)
class Case:
    repo: str
    fix_commit: str
    path: str
    bug_lines: tuple[int, ...]
    rule: str
    note: str

    @property
    def language(self) -> str:
        lang = language_of(Path(self.path))
        return lang.value if lang else "unknown"


def read_manifest(path: Path) -> list[Case]:
    with path.open(newline="") as fh:
        rows = list(csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t"))
    return [Case(r["repo"], r["fix_commit"], r["path"], tuple(int(x) for x in r["bug_lines"].split(",")),
                 r["rule"], r["note"]) for r in rows]


def _git(gitdir: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def _renamed(gitdir: Path, fix: str, path: str) -> str | None:
    """The file's path after the fix (renames followed), None where the fix deleted it."""
    for line in _git(gitdir, "diff", "--name-status", "-M", f"{fix}^", fix).splitlines():
        status, *paths = line.split("\t")
        if paths[0] == path:
            return None if status == "D" else paths[-1]
    return path


def _headers(gitdir: Path, commit: str, into: Path) -> None:
    """Write every header of the tree at ``commit`` under ``into``, so that the file's includes
    resolve as in a checkout (``"ggml.h"`` from ``include/``, found by the project search)."""
    into.mkdir(parents=True, exist_ok=True)
    for ext in HEADER_EXTENSIONS:  # one by one: a pathspec that matches nothing fails the whole archive
        archive = subprocess.run(["git", f"--git-dir={gitdir}", "archive", "--format=tar", commit, "--",
                                  f":(glob)**/*.{ext}"], capture_output=True, check=False)
        if archive.stdout:  # a mirror can lack a blob (git archive then stops): what arrived
            subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, capture_output=True, check=False)


def _tree(gitdir: Path, commit: str, path: str, into: Path) -> Path:
    """Write the file and the kernel sources of its directory at ``commit`` under ``into``, over
    the tree's headers."""
    _headers(gitdir, commit, into)
    folder = str(PurePosixPath(path).parent)
    listing = _git(gitdir, "ls-tree", "--name-only", commit, *([f"{folder}/"] if folder != "." else []))
    siblings = [p for p in listing.splitlines() if language_of(Path(p)) is not None]
    chosen = siblings if len(siblings) <= MAX_SIBLINGS else [path]
    for p in {*chosen, path}:
        target = into / p
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(subprocess.run(["git", f"--git-dir={gitdir}", "show", f"{commit}:{p}"],
                                          check=True, capture_output=True).stdout)
    return into / path


def findings_at(gitdir: Path, commit: str, path: str) -> list[Finding]:
    """Unsuppressed findings in ``path`` at ``commit``, its directory checked as one run."""
    with tempfile.TemporaryDirectory() as tmp:
        target = _tree(gitdir, commit, path, Path(tmp))
        found = check_paths([str(target.parent)], Settings(jobs=1))
        return [f for f in found if Path(f.path) == target and f.suppressed_by is None]


def _on(f: Finding, lines: set[int]) -> bool:
    """The finding's statement, or a place it names (the reduction a padding reaches), is on a
    bug line: a padding bug is fixed where the load or where the reduction is written."""
    return any(s.line <= n <= max(s.end_line, s.line) for s in (f.span, *(r for r, _ in f.related)) for n in lines)


def mapped_lines(before: str, after: str, lines: tuple[int, ...]) -> set[int]:
    """Where the parent's ``lines`` are in the fixed text: an unchanged line moves by its offset;
    a changed one becomes the whole block that replaced it."""
    out: set[int] = set()
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for n in lines:
            if i1 < n <= i2 or (i1 == i2 and n == i1 + 1 and tag == "insert"):
                if tag == "equal":
                    out.add(j1 + n - i1)
                elif tag != "insert":
                    out.update(range(j1 + 1, max(j2, j1 + 1) + 1))
    return out


def check_case(mirrors: Path, case: Case) -> dict:
    gitdir = mirrors / case.repo.replace("/", "+") / "repo"
    row = asdict(case) | {"language": case.language}
    try:
        before = findings_at(gitdir, f"{case.fix_commit}^", case.path)
        after_path = _renamed(gitdir, case.fix_commit, case.path)
        after = findings_at(gitdir, case.fix_commit, after_path) if after_path else []
        old = _git(gitdir, "show", f"{case.fix_commit}^:{case.path}")
        new = _git(gitdir, "show", f"{case.fix_commit}:{after_path}") if after_path else ""
    except (subprocess.CalledProcessError, OSError) as exc:
        return row | {"outcome": "error", "error": str(exc), "after": "n/a"}
    bugs = set(case.bug_lines)
    here = [f for f in before if _on(f, bugs)]
    outcome = "unparsed" if any(f.code == "BC001" for f in before) and not here else \
        "caught" if any(f.code == case.rule for f in here) else "caught-other" if here else "missed"
    moved = mapped_lines(old, new, case.bug_lines)
    left = [f for f in after if f.code == case.rule and _on(f, moved)]
    return row | {
        "outcome": outcome,
        "after": "still-reported" if left else "cleared",
        "found": [{"code": f.code, "line": f.span.line, "message": f.message} for f in here],
        "left": [{"code": f.code, "line": f.span.line, "message": f.message} for f in left],
        "findings_before": len(before), "findings_after": len(after),
    }


def table(results: list[dict]) -> list[str]:
    counts: Counter = Counter((r["language"], r["rule"], r["outcome"]) for r in results)
    keys = sorted({(r["language"], r["rule"]) for r in results})
    out = ["| language | rule | fixes | caught | caught (other rule) | missed | unparsed | error | cleared after the fix |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for lang, rule in keys:
        mine = [r for r in results if (r["language"], r["rule"]) == (lang, rule)]
        cleared = sum(r["after"] == "cleared" for r in mine if r["outcome"] in ("caught", "caught-other"))
        shown = [counts[(lang, rule, o)] for o in (*OUTCOMES, "error")]
        out.append(f"| {lang} | {rule} | {len(mine)} | " + " | ".join(map(str, shown)) + f" | {cleared} |")
    total = Counter(r["outcome"] for r in results)
    out.append(f"| **all** | | {len(results)} | " + " | ".join(str(total[o]) for o in (*OUTCOMES, "error"))
               + f" | {sum(r['after'] == 'cleared' for r in results if r['outcome'] in ('caught', 'caught-other'))} |")
    return out


def report(results: list[dict]) -> str:
    lines = ["# Historical boundary fixes", "", *table(results), ""]
    for title, pick in (("Not caught", lambda r: r["outcome"] not in ("caught",)),
                        ("Still reported after the fix", lambda r: r["after"] == "still-reported")):
        lines += [f"## {title}", ""]
        for r in results:
            if pick(r):
                got = ", ".join(f"{f['code']}:{f['line']}" for f in r.get("found", [])) or "nothing"
                lines.append(f"- {r['repo']} {r['fix_commit'][:10]} {r['path']}:{','.join(map(str, r['bug_lines']))} "
                             f"{r['rule']} **{r['outcome']}** ({got}; after: {r['after']}): {r['note']}")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--out", type=Path, default=Path("history-out"))
    args = ap.parse_args(argv)
    results = [check_case(args.mirrors, c) for c in read_manifest(args.manifest)]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    text = report(results)
    (args.out / "results.md").write_text(text)
    print("\n".join(table(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
