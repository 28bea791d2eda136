"""Compile the CUDA fixtures and the proof driver the same way in CI and on the GPU machine.

CI only compiles (nothing CUDA runs there); the GPU proof links each fixture object with the
driver. Both go through these functions so the flags cannot drift apart.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DRIVER = ROOT / "proofs" / "cuda" / "driver.cu"
ARCH = "sm_90"  # the H200 the proof runs on
NVCC_FLAGS = ("-std=c++17", f"-arch={ARCH}", "-O2", "-lineinfo")
NVCC_CANDIDATES = ("/usr/local/bin/nvcc", "/usr/local/cuda/bin/nvcc")


def cuda_fixtures() -> list[Path]:
    """Every CUDA fixture file (bad_*.cu / good_*.cu under fixtures/<rule>/)."""
    return sorted(p for p in FIXTURES.glob("BC*/*.cu") if p.name.startswith(("bad_", "good_")))


def find_nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    return next((c for c in NVCC_CANDIDATES if os.access(c, os.X_OK)), None)


@dataclass(frozen=True)
class Build:
    """One nvcc invocation and what it printed."""

    source: Path
    output: Path
    returncode: int
    log: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def _nvcc(nvcc: str, args: list[str], source: Path, output: Path) -> Build:
    output.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([nvcc, *args], check=False, capture_output=True, text=True)
    return Build(source, output, proc.returncode, (proc.stdout + proc.stderr).strip())


def compile_object(nvcc: str, source: Path, output: Path) -> Build:
    return _nvcc(nvcc, [*NVCC_FLAGS, "-c", str(source), "-o", str(output)], source, output)


def link(nvcc: str, objects: Iterable[Path], output: Path, source: Path) -> Build:
    return _nvcc(nvcc, [f"-arch={ARCH}", *map(str, objects), "-o", str(output)], source, output)


def object_path(build_dir: Path, source: Path) -> Path:
    """A unique object name per fixture: fixtures/BC101-x/bad_y.cu -> BC101-x__bad_y.o."""
    rel = source.resolve().relative_to(ROOT)
    return build_dir / ("__".join(rel.parts[1:]).removesuffix(".cu") + ".o")


def parallel(fn: Callable[[Path], Build], sources: Iterable[Path], jobs: int) -> dict[Path, Build]:
    """Run ``fn`` over the sources on ``jobs`` threads (nvcc does the work in subprocesses)."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return {b.source: b for b in pool.map(fn, list(sources))}
