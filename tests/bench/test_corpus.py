"""The benchmark corpus is written from mirrors: the listed folders' kernel sources at the listed
commit, and a blob the mirror lacks costs that file only."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.corpus import MANIFEST, extract, main, read_manifest


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def _mirror(root: Path) -> tuple[Path, str]:
    """A bare mirror of a repository holding kernels, a header and a note, in and out of ``k/``."""
    work = root / "work"
    for path, text in {"k/add.py": "import triton\n", "k/gemm.cu": "__global__ void g() {}\n",
                       "k/util.cuh": "#pragma once\n", "k/notes.txt": "notes\n", "other/copy.py": "x = 1\n"}.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text)
    _git(work, "init", "-q")
    _git(work, "-c", "user.email=t@example.com", "-c", "user.name=t", "add", ".")
    _git(work, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "kernels")
    gitdir = root / "acme+kernels" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(gitdir)], check=True)
    return gitdir, _git(work, "rev-parse", "HEAD").strip()


def test_extract_writes_the_folders_kernel_sources_only(tmp_path: Path) -> None:
    gitdir, commit = _mirror(tmp_path)
    assert extract(gitdir, commit, ["k"], tmp_path / "out") == (3, 0)
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert written == ["k/add.py", "k/gemm.cu", "k/util.cuh"]
    assert (tmp_path / "out" / "k" / "gemm.cu").read_text() == "__global__ void g() {}\n"


def test_a_missing_blob_is_counted_and_the_rest_written(tmp_path: Path) -> None:
    gitdir, commit = _mirror(tmp_path)
    sha = _git(gitdir, "rev-parse", f"{commit}:k/gemm.cu").strip()
    (gitdir / "objects" / sha[:2] / sha[2:]).unlink()  # a partial clone's absent blob
    assert extract(gitdir, commit, ["k"], tmp_path / "out") == (2, 1)
    assert not (tmp_path / "out" / "k" / "gemm.cu").exists()


def test_main_writes_each_repository_under_its_name(tmp_path: Path, capsys) -> None:
    _, commit = _mirror(tmp_path)
    manifest = tmp_path / "corpus.tsv"
    manifest.write_text(f"# corpus\nrepo\tcommit\tfolders\nacme/kernels\t{commit[:12]}\tk,other\n")
    assert main([str(tmp_path), str(tmp_path / "out"), "--manifest", str(manifest)]) == 0
    assert (tmp_path / "out" / "acme__kernels" / "other" / "copy.py").exists()
    assert "acme/kernels" in capsys.readouterr().out


def test_the_shipped_manifest_names_thirteen_repositories_at_fixed_commits() -> None:
    rows = read_manifest(MANIFEST)
    assert len(rows) == 13
    assert all(len(commit) == 12 and folders for _, commit, folders in rows)
