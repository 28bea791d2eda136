"""A kernel defined in a header and launched from a ``.cu`` file that includes it is checked under
that launch's host facts when both files are in the run: the allocation that gives every thread a
slot, a host assert, a floored grid. Analysed alone, the header has no launch and is reported; a
launch in the run that does not excuse the access keeps the finding."""

from __future__ import annotations

from pathlib import Path

from boundcheck.engine import check_paths
from boundcheck.settings import Settings
from tests.checking import line_of

CONFIG = """\
#pragma once
const int BLOCK = 64;
const int GRID = 1024;
const int THREADS = GRID * BLOCK;
"""

HEADER = """\
#pragma once
#include "config.h"

__global__ void count(int* counts, int seed) {
    int tid = blockIdx.x * BLOCK + threadIdx.x;
    counts[tid] = (tid ^ seed) & 1;
}

__global__ void scale(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i];
}
"""

MAIN = """\
#include <cassert>
#include "kernels.cuh"

void run_count(int seed) {
    int* counts = 0;
    cudaMalloc((void**)&counts, THREADS * sizeof(int));
    count<<<GRID, BLOCK>>>(counts, seed);
}

void run_scale(float* y, const float* x, int n) {
    assert(n % 256 == 0);
    scale<<<n / 256, 256>>>(y, x, n);
}
"""


def run(tmp_path: Path, files: dict[str, str], only: str | None = None) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    found = check_paths([str(tmp_path / only) if only else str(tmp_path)], Settings(jobs=1))
    return sorted((Path(f.path).name, f.span.line, f.code) for f in found)


def header_findings(tmp_path: Path, main: str = MAIN, **extra: str) -> list[tuple[str, int, str]]:
    files = {"config.h": CONFIG, "kernels.cuh": HEADER, "main.cu": main, **extra}
    return [f for f in run(tmp_path, files) if f[0] == "kernels.cuh"]


def test_a_header_kernel_is_checked_under_the_launches_of_the_run(tmp_path: Path):
    assert header_findings(tmp_path) == []


def test_the_header_alone_has_no_launch_and_is_reported(tmp_path: Path):
    header_findings(tmp_path)
    alone = run(tmp_path, {}, only="kernels.cuh")
    assert alone == [("kernels.cuh", line_of(HEADER, "counts[tid] ="), "BC102"),
                     ("kernels.cuh", line_of(HEADER, "y[i] ="), "BC101"),
                     ("kernels.cuh", line_of(HEADER, "y[i] ="), "BC102")]


def test_an_allocation_one_slot_short_keeps_the_finding(tmp_path: Path):
    short = MAIN.replace("THREADS * sizeof(int)", "(THREADS - 1) * sizeof(int)")
    assert header_findings(tmp_path, short) == [("kernels.cuh", line_of(HEADER, "counts[tid] ="), "BC102")]


def test_a_launch_without_the_assert_keeps_the_finding(tmp_path: Path):
    ceiling = MAIN.replace("    assert(n % 256 == 0);\n", "").replace("n / 256", "(n + 255) / 256")
    assert header_findings(tmp_path, ceiling) == [
        ("kernels.cuh", line_of(HEADER, "y[i] ="), "BC101"), ("kernels.cuh", line_of(HEADER, "y[i] ="), "BC102")]


def test_a_floored_grid_is_reported_at_its_launch_only(tmp_path: Path):
    floored = MAIN.replace("    assert(n % 256 == 0);\n", "")
    found = run(tmp_path, {"config.h": CONFIG, "kernels.cuh": HEADER, "main.cu": floored})
    assert found == [("main.cu", line_of(floored, "scale<<<"), "BC302")]
