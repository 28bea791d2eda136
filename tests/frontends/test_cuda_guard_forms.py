"""Guards in the forms hand-written kernels give them: an end taken from the lane's own start
(``end = i + N - lane``, the lanes cancelling to the row's end), tests joined by the bitwise ``|``
and ``&`` of two truth values, a limit that is a product of rounded-up counts (whose ``+ 1`` terms
are part of the size, no slack past it), a loop bound rounded down to whole strides (``n - n % (ILP
* blockDim.x)``, each unrolled element inside the stride), and indices tiled by a compile-time tile
of one element, which is never partial."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

ROW_END = """\
__global__ void copy_rows(const float* __restrict__ A, float* __restrict__ C, int N, int M) {
    int row = blockIdx.x * 4 + threadIdx.x / 32;
    if (row >= M) return;
    int i = row * N + threadIdx.x % 32;
    int end = END;
    while (i < end) {
        C[i] = A[i];
        i += 32;
    }
}
"""


@pytest.mark.parametrize("end", ["row * N + N", "i + N - threadIdx.x % 32"])
def test_an_end_taken_from_the_lanes_start_bounds_the_row(end: str) -> None:
    assert findings(ROW_END.replace("END", end), Language.CUDA) == []


def test_an_end_past_the_row_leaves_the_access_reported() -> None:
    src = ROW_END.replace("END", "i + N")
    assert findings(src, Language.CUDA) == at(src, "C[i] = A[i]", "BC101", "BC102")


BITWISE = """\
__global__ void fill(float* y, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (EXIT) return;
    y[r * cols + c] = 1.0f;
}
"""


@pytest.mark.parametrize("exit_", ["r >= rows | c >= cols", "!(r < rows & c < cols)"])
def test_bitwise_tests_of_truth_values_guard_as_logical_ones(exit_: str) -> None:
    assert findings(BITWISE.replace("EXIT", exit_), Language.CUDA) == []


def test_a_bitwise_and_of_integers_is_no_conjunction() -> None:
    src = BITWISE.replace("EXIT", "r >= rows | (c & cols)")
    assert findings(src, Language.CUDA) == at(src, "y[r * cols + c]", "BC102")


def test_the_one_of_rounded_up_counts_multiplied_out_is_no_slack() -> None:
    src = """\
__global__ void bins(int* counts, int H, int W, int bin) {
    const int nx = 1 + (W - 1) / bin;
    const int ny = 1 + (H - 1) / bin;
    for (int b = threadIdx.x; b < ny * nx; b += blockDim.x) counts[blockIdx.x * ny * nx + b] = 0;
}
"""
    assert findings(src, Language.CUDA) == []


def test_an_inclusive_limit_written_as_one_more_is_still_reported() -> None:
    src = """\
__global__ void clear(int* counts, int n) {
    for (int b = threadIdx.x; b < n + 1; b += blockDim.x) counts[blockIdx.x * n + b] = 0;
}
"""
    assert findings(src, Language.CUDA) == at(src, "counts[blockIdx.x * n + b]", "BC104")


ILP = """\
template <int ILP>
__global__ void scale(const float* x, float* y, int classes) {
    int offset = threadIdx.x;
    int last = LAST;
    for (; offset < classes - last; offset += blockDim.x * ILP) {
#pragma unroll
        for (int j = 0; j < ILP; ++j) y[blockIdx.x * classes + offset + j * blockDim.x] = x[blockIdx.x * classes + offset + j * blockDim.x];
    }
    for (; offset < classes; offset += blockDim.x) y[blockIdx.x * classes + offset] = x[blockIdx.x * classes + offset];
}
"""


def test_a_bound_rounded_down_to_whole_strides_covers_the_unrolled_elements() -> None:
    assert findings(ILP.replace("LAST", "classes % (ILP * blockDim.x)"), Language.CUDA) == []


def test_a_bound_rounded_down_to_single_blocks_leaves_the_unrolled_elements_unguarded() -> None:
    src = ILP.replace("LAST", "classes % blockDim.x")
    assert findings(src, Language.CUDA) == at(src, "y[blockIdx.x * classes + offset + j", "BC101", "BC102")


UNIT = """\
const int ROWS_PER_BLOCK = TILE;
__global__ void rows(const float* x, float* out, int height, int width) {
    __shared__ float s[64];
    int row = blockIdx.y * ROWS_PER_BLOCK + threadIdx.y;
    if (row >= height) return;
    s[threadIdx.x] = x[row * width + threadIdx.x % 8];
    __syncthreads();
    out[row] = s[0] + x[row * width];
}
"""


def test_a_tile_of_one_row_is_never_partial() -> None:
    assert findings(UNIT.replace("TILE", "1"), Language.CUDA) == []


def test_a_tile_of_several_rows_exits_before_the_barrier() -> None:
    src = UNIT.replace("TILE", "2")
    assert findings(src, Language.CUDA) == at(src, "if (row >= height) return;", "BC303")
