"""The historical-fix benchmark: a fix made in a real git history is read before and after."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench.history.run import Case, check_case, mapped_lines, read_manifest, report

BUGGY = '''import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * 2)


def launch(x, y):
    n = x.numel()
    scale[(triton.cdiv(n, 128),)](x, y, n, BLOCK=128)
'''

FIXED = BUGGY.replace("tl.store(y_ptr + offs, x * 2)", "tl.store(y_ptr + offs, x * 2, mask=offs < n)")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def mirrors(tmp_path: Path) -> Path:
    """A mirror root holding ``acme+kernels/repo``: a bare clone of a two-commit history, the
    second commit masking the store the first left unmasked."""
    work = tmp_path / "work"
    (work / "ops").mkdir(parents=True)
    _git(work, "init", "-q")
    _git(work, "config", "user.email", "t@example.com")
    _git(work, "config", "user.name", "t")
    for path in (work / "ops" / "scale.py", work / "top.py"):
        path.write_text(BUGGY)
    (work / "ops" / "README.md").write_text("not a kernel\n")
    _git(work, "add", ".")
    _git(work, "commit", "-q", "-m", "scale kernel")
    for path in (work / "ops" / "scale.py", work / "top.py"):
        path.write_text(FIXED)
    _git(work, "commit", "-q", "-am", "mask the tail store")
    root = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(root / "acme+kernels" / "repo")], check=True)
    return root


def _fix(mirrors: Path) -> str:
    return subprocess.run(["git", f"--git-dir={mirrors / 'acme+kernels' / 'repo'}", "rev-parse", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()


def test_a_fixed_unmasked_store_is_caught_before_and_cleared_after(mirrors: Path) -> None:
    case = Case("acme/kernels", _fix(mirrors), "ops/scale.py", (9,), "BC102", "store unmasked")
    row = check_case(mirrors, case)
    assert (row["outcome"], row["after"], row["language"]) == ("caught", "cleared", "triton")
    assert [(f["code"], f["line"]) for f in row["found"]] == [("BC102", 9)]


def test_a_file_at_the_repository_root_is_read_with_its_siblings(mirrors: Path) -> None:
    row = check_case(mirrors, Case("acme/kernels", _fix(mirrors), "top.py", (9,), "BC102", "at the root"))
    assert (row["outcome"], row["after"]) == ("caught", "cleared")


def test_a_bug_line_without_the_rule_is_missed_and_said_so(mirrors: Path) -> None:
    case = Case("acme/kernels", _fix(mirrors), "ops/scale.py", (8,), "BC101", "the masked load")
    row = check_case(mirrors, case)
    assert row["outcome"] == "missed" and row["found"] == []
    assert "ops/scale.py:8 BC101 **missed**" in report([row])


def test_a_commit_not_in_the_mirror_is_an_error_not_a_crash(mirrors: Path) -> None:
    row = check_case(mirrors, Case("acme/kernels", "0" * 40, "ops/scale.py", (9,), "BC102", ""))
    assert row["outcome"] == "error"


def test_changed_lines_map_to_the_block_that_replaced_them() -> None:
    before = "a\nb\nc\nd\n"
    after = "a\nz\nb\nC1\nC2\nd\n"
    assert mapped_lines(before, after, (2,)) == {3}
    assert mapped_lines(before, after, (3,)) == {4, 5}
    assert mapped_lines(before, after, (4,)) == {6}


def test_manifest_rows_are_read_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "m.tsv"
    path.write_text("repo\tfix_commit\tpath\tbug_lines\trule\tnote\n"
                    f"a/b\t{'1' * 40}\tk.cu\t3,7\tBC105\tthreadIdx guard\n")
    assert read_manifest(path) == [Case("a/b", "1" * 40, "k.cu", (3, 7), "BC105", "threadIdx guard")]


def test_the_tree_s_headers_are_written_so_that_includes_resolve(tmp_path: Path) -> None:
    from bench.history.run import _tree

    work = tmp_path / "work"
    (work / "src" / "cuda").mkdir(parents=True)
    (work / "include").mkdir()
    _git(work, "init", "-q")
    _git(work, "config", "user.email", "t@example.com")
    _git(work, "config", "user.name", "t")
    (work / "include" / "lib.h").write_text("typedef int lib_type;\n")
    (work / "src" / "cuda" / "k.cu").write_text('#include "lib.h"\n__global__ void k(lib_type* p) {}\n')
    (work / "docs.md").write_text("not a header\n")
    _git(work, "add", ".")
    _git(work, "commit", "-q", "-m", "kernel")
    gitdir = tmp_path / "mirror"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(gitdir)], check=True)
    into = tmp_path / "out"
    target = _tree(gitdir, "HEAD", "src/cuda/k.cu", into)
    assert target.read_text().startswith('#include "lib.h"')
    assert (into / "include" / "lib.h").read_text() == "typedef int lib_type;\n"
    assert not (into / "docs.md").exists()


@pytest.mark.parametrize("name", ["manifest.tsv", "heldout.tsv", "heldout3.tsv"])
def test_the_shipped_manifests_name_a_rule_and_lines_for_every_row(name: str) -> None:
    from boundcheck.registry import all_rules

    rows = read_manifest(Path(__file__).resolve().parents[2] / "bench" / "history" / name)
    codes = set(all_rules()) | {"OTHER"}
    assert rows and all(r.rule in codes and r.bug_lines and len(r.fix_commit) == 40 for r in rows)
    assert len({(r.fix_commit, r.path, r.rule) for r in rows}) == len(rows)
