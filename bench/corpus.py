"""Write the benchmark corpus (``bench/corpus.tsv``) from fetched git mirrors.

    python -m bench.corpus MIRRORS OUT [--manifest bench/corpus.tsv]

``MIRRORS/<owner>+<name>/repo`` is a bare clone holding the listed commit; each repository's folders
are written under ``OUT/<owner>__<name>/``. A blob the mirror lacks (a partial clone) is skipped and
counted, so one missing file does not lose the rest of the tree.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
from pathlib import Path

from boundcheck.discovery import language_of

MANIFEST = Path(__file__).with_name("corpus.tsv")


def read_manifest(path: Path) -> list[tuple[str, str, list[str]]]:
    with path.open(newline="") as fh:
        rows = csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")
        return [(r["repo"], r["commit"], r["folders"].split(",")) for r in rows]


def extract(gitdir: Path, commit: str, folders: list[str], into: Path) -> tuple[int, int]:
    """Write the kernel sources under ``folders`` at ``commit``; (written, missing) file counts."""
    listing = subprocess.run(["git", f"--git-dir={gitdir}", "ls-tree", "-r", "-z", commit, "--", *folders],
                             check=True, capture_output=True).stdout.decode(errors="replace")
    blobs = []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "blob" and mode != "120000" and language_of(Path(path)) is not None:
            blobs.append((sha, path))
    written = missing = 0
    for sha, path in blobs:  # one cat-file per blob: a missing blob fails alone
        blob = subprocess.run(["git", f"--git-dir={gitdir}", "cat-file", "blob", sha],
                              check=False, capture_output=True)
        if blob.returncode:
            missing += 1
            continue
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
        written += 1
    return written, missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mirrors", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    args = ap.parse_args(argv)
    for repo, commit, folders in read_manifest(args.manifest):
        gitdir = args.mirrors / repo.replace("/", "+") / "repo"
        written, missing = extract(gitdir, commit, folders, args.out / repo.replace("/", "__"))
        print(f"{repo} {commit}: {written} files" + (f", {missing} blobs missing" if missing else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
