"""BC302 on grids the launch does not spell out: held in locals, ``dim3`` members, grid functions,
branches, argument packs; and the contracts that make them exact."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, language: Language) -> list[tuple[int, str]]:
    path = "k.cu" if language is Language.CUDA else "k.py"
    found, _ = check_source(path, language, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


def triton(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.TRITON)


def line_of(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), start=1) if text in line)


TRANSPOSE = """\
#include <cuda_runtime.h>
#include <assert.h>
template <typename T, int BM, int BN, typename Layout>
__global__ void transpose(const T* a, T* b, int m, int n, Layout layout) {
    int r = blockIdx.y * BM + threadIdx.y;
    int c = blockIdx.x * BN + threadIdx.x;
    if (r < m && c < n) {
        b[c * m + r] = a[r * n + c];
    }
}
"""

# `tile_layout` is declared nowhere (a library the stub cannot provide): libclang drops the
# whole launch statement, whose template arguments name the layout's type.
LAYOUT_LAUNCH = TRANSPOSE + """\
void run(const float* a, float* b, int m, int n) {
    const int BM = 32;
    const int BN = 32;
    auto layout = tile_layout(BM, BN);
    dim3 block(BN, BM);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    transpose<float, BM, BN, decltype(layout)><<<grid, block>>>(a, b, m, n, layout);
}
"""


def test_a_floored_dim3_grid_of_a_launch_libclang_dropped_is_reported_on_its_definition():
    floored = LAYOUT_LAUNCH.replace("(n + BN - 1) / BN, (m + BM - 1) / BM", "n / BN, m / BM")
    line = line_of(floored, "dim3 grid(")
    assert cuda(floored) == [(line, "BC302"), (line, "BC302")]
    assert cuda(LAYOUT_LAUNCH) == []


def test_a_host_assert_before_the_dropped_launch_makes_its_floored_grid_exact():
    floored = LAYOUT_LAUNCH.replace("(n + BN - 1) / BN, (m + BM - 1) / BM", "n / BN, m / BM")
    asserted = floored.replace("    dim3 block(", "    assert(n % BN == 0 && m % BM == 0);\n    dim3 block(")
    assert cuda(asserted) == []
    one_axis = floored.replace("    dim3 block(", "    assert(n % BN == 0);\n    dim3 block(")
    assert cuda(one_axis) == [(line_of(one_axis, "dim3 grid("), "BC302")]


MEMBER_GRID = TRANSPOSE + """\
void run(const float* a, float* b, int n) {
    dim3 grid;
    grid.x = (n + 255) / 256;
    transpose<float, 1, 256, int><<<grid, 256>>>(a, b, 1, n, 0);
}
"""


def test_a_grid_set_member_by_member_is_reported_on_the_floored_assignment():
    floored = MEMBER_GRID.replace("(n + 255) / 256", "n / 256")
    assert cuda(floored) == [(line_of(floored, "grid.x ="), "BC302")]
    assert cuda(MEMBER_GRID) == []


def test_an_assume_comment_in_the_host_function_documents_the_floored_grid():
    floored = MEMBER_GRID.replace("(n + 255) / 256", "n / 256")
    assumed = floored.replace("    grid.x =", "    // boundcheck: assume n % 256 == 0\n    grid.x =")
    assert cuda(assumed) == []


INT_BLOCKS = TRANSPOSE + """\
void run(const float* a, float* b, int n) {
    int blocks = (n + 255) / 256;
    transpose<float, 1, 256, int><<<blocks, 256>>>(a, b, 1, n, 0);
}
"""


def test_a_block_count_held_in_an_integer_local_is_reported_on_its_definition():
    floored = INT_BLOCKS.replace("(n + 255) / 256", "n / 256")
    assert cuda(floored) == [(line_of(floored, "int blocks"), "BC302")]
    assert cuda(INT_BLOCKS) == []
