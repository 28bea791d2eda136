"""The pre-commit hook end to end: a repository that uses this checkout's hook (at HEAD) refuses a
commit of an unmasked Triton kernel, showing the findings, and accepts the fixed kernel.

pre-commit builds the hook's virtualenv and pip-installs this project into it from the package
registry (libcst, libclang, typer, pathspec, hatchling); the test gives it a fresh PRE_COMMIT_HOME,
so that install is part of what is tested and timed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BUGGY = '''import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x)
'''

FIXED = '''import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x, mask=mask)
'''


def _git(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
                          check=False)


def test_commit_refused_until_the_kernel_is_masked(tmp_path: Path) -> None:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                          check=True).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}  # e.g. when run from a hook
    env.update(PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_CONFIG_GLOBAL=os.devnull,
               GIT_CONFIG_NOSYSTEM="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    work = tmp_path / "work"
    work.mkdir()
    for args in (["init", "-q", "-b", "main"], ["config", "user.name", "t"],
                 ["config", "user.email", "t@example.invalid"], ["config", "commit.gpgsign", "false"]):
        _git(args, work, env).check_returncode()
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {REPO}\n  rev: {head}\n  hooks:\n  - id: boundcheck\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=work, env=env,
                   capture_output=True, text=True, check=True)

    (work / "vector_copy.py").write_text(BUGGY, encoding="utf-8")
    _git(["add", "."], work, env).check_returncode()
    start = time.monotonic()
    refused = _git(["commit", "-m", "unmasked copy"], work, env)
    first = time.monotonic() - start  # includes building the hook's environment
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert "vector_copy.py:8:" in output and "BC101" in output, output
    assert "vector_copy.py:9:" in output and "BC102" in output, output
    assert _git(["rev-parse", "--verify", "-q", "HEAD"], work, env).returncode != 0  # nothing committed

    (work / "vector_copy.py").write_text(FIXED, encoding="utf-8")
    _git(["add", "."], work, env).check_returncode()
    start = time.monotonic()
    accepted = _git(["commit", "-m", "masked copy"], work, env)
    second = time.monotonic() - start
    output = accepted.stdout + accepted.stderr
    assert accepted.returncode == 0, output
    assert re.search(r"^boundcheck\.+Passed$", output, re.MULTILINE), output  # it ran, not skipped
    print(f"pre-commit: first commit (hook env built) {first:.1f}s, second {second:.1f}s")
