"""A kernel defined in a header and launched from a ``.cu`` file that includes it is checked under
that launch's host facts when both files are in the run: the allocation that gives every thread a
slot, a host assert, a floored grid. Analysed alone, the header has no launch and is reported; a
launch in the run that does not excuse the access keeps the finding."""

from __future__ import annotations

from pathlib import Path

from boundcheck.engine import check_paths
from boundcheck.settings import Settings
from boundcheck.model import Language
from tests.checking import findings, line_of

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


DECLARED = """\
#pragma once
__global__ void hash_rows(const int* mask, float* out, int num_rows);
"""

DEFINED = """\
#include "rows.h"
__global__ void hash_rows(const int* mask, float* out, int num_rows) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (mask[row] == 0) return;
    out[row * 32 + threadIdx.x] = 1.0f;
}
"""

LAUNCHER = """\
#include "rows.h"
void run(const int* mask, float* out, int num_rows) {
    int threads_y = 8;
    dim3 threads(32, threads_y);
    dim3 blocks(num_rows / threads_y);
    hash_rows<<<blocks, threads>>>(mask, out, num_rows);
}
"""


def test_a_kernel_declared_in_a_header_is_checked_under_the_launch_in_another_file(tmp_path: Path):
    # blocks of 8 rows along y, a grid of num_rows / 8 along x: no row reaches num_rows (the tail the
    # floor skips is the launch's BC302); the kernel's definition and its launch are in two .cu files
    found = run(tmp_path, {"rows.h": DECLARED, "rows.cu": DEFINED, "launch.cu": LAUNCHER})
    assert found == [("launch.cu", line_of(LAUNCHER, "dim3 blocks"), "BC302")]
    alone = run(tmp_path, {}, only="rows.cu")
    assert alone == [("rows.cu", line_of(DEFINED, "mask[row]"), "BC101"),
                     ("rows.cu", line_of(DEFINED, "out[row"), "BC102")]


def test_a_ceiling_grid_of_a_declared_kernel_keeps_the_finding(tmp_path: Path):
    ceiling = LAUNCHER.replace("num_rows / threads_y", "(num_rows + threads_y - 1) / threads_y")
    found = run(tmp_path, {"rows.h": DECLARED, "rows.cu": DEFINED, "launch.cu": ceiling})
    assert found == [("rows.cu", line_of(DEFINED, "mask[row]"), "BC101"),
                     ("rows.cu", line_of(DEFINED, "out[row"), "BC102")]


ONE_THREAD_PER_ELEMENT = """\
__global__ void scale_rows(const float* x, float* y, int dim) {
    int row = blockIdx.x;
    int d = threadIdx.x;
    float v = x[row * dim + d];
    if (d < dim) y[row * dim + d] = 2.0f * v;
}

void run(const float* x, float* y, int rows, int dim) {
    dim3 threads(dim);
    dim3 blocks(rows);
    scale_rows<<<blocks, threads>>>(x, y, dim);
}
"""


def test_a_block_of_one_thread_per_element_spans_the_row() -> None:
    # `threads(dim)` and the kernel given that dim: threadIdx.x < blockDim.x == dim (the guard on the
    # store says the lane may pass dim, as it does under a block of another size)
    assert findings(ONE_THREAD_PER_ELEMENT, Language.CUDA) == []
    fixed = ONE_THREAD_PER_ELEMENT.replace("dim3 threads(dim);", "dim3 threads(256);")
    line = line_of(fixed, "float v = x[")
    assert findings(fixed, Language.CUDA) == [(line, "BC101")]
    # one of two launches gives a block of another size
    both = ONE_THREAD_PER_ELEMENT.replace("    scale_rows<<<blocks, threads>>>(x, y, dim);\n",
                                          "    scale_rows<<<blocks, threads>>>(x, y, dim);\n"
                                          "    scale_rows<<<blocks, 128>>>(x, y, dim);\n")
    assert findings(both, Language.CUDA) == [(line, "BC101")]


def test_launches_cross_process_boundaries_in_a_parallel_run(tmp_path: Path) -> None:
    # enough files for the process pool: the launches travel between workers, pickled
    files = {"config.h": CONFIG, "kernels.cuh": HEADER, "main.cu": MAIN}
    files |= {f"other{i}.cu": f"__global__ void k{i}(float* x) {{ x[0] = {i}.0f; }}\n" for i in range(30)}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    found = check_paths([str(tmp_path)], Settings(jobs=2))
    assert [f for f in found if Path(f.path).name == "kernels.cuh"] == []
    alone = check_paths([str(tmp_path / "kernels.cuh")], Settings(jobs=2))
    assert sorted((f.span.line, f.code) for f in alone) == [
        (line_of(HEADER, "counts[tid] ="), "BC102"), (line_of(HEADER, "y[i] ="), "BC101"),
        (line_of(HEADER, "y[i] ="), "BC102")]
