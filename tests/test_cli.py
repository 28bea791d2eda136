"""The front door: exit codes 0 (clean), 1 (findings), 2 (usage or error), and --version."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from boundcheck import __version__

KERNEL = (
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
    "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(x_ptr + offs, 1.0{mask})\n"
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boundcheck", *args], capture_output=True, text=True)


def test_version() -> None:
    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"boundcheck {__version__}"


def test_exit_codes(tmp_path: Path) -> None:
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text(KERNEL.format(mask=""))
    good.write_text(KERNEL.format(mask=", mask=offs < n"))
    assert run(str(good)).returncode == 0
    found = run(str(bad), "--output-format", "concise")
    assert found.returncode == 1 and f"{bad}:8:5: BC102" in found.stdout
    assert run("check", str(bad)).returncode == 1  # `check` is implied, and may be written
    assert run(str(tmp_path / "missing.py")).returncode == 2
    assert run(str(good), "--no-such-flag").returncode == 2
    assert run().returncode == 2
