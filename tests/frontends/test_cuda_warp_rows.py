"""CUDA kernels that give each warp a row (``blockIdx.x * warps + threadIdx.x / 32``, or the
cooperative-groups ``meta_group_rank()``), launched on a grid rounded up to whole blocks: a row
that nothing bounds is reported at its access; the guarded kernel, one that bounds its rows its
own way, or one whose launch holds exactly the rows gives no finding."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings as _findings
from tests.checking import line_of


def findings(src: str) -> list[tuple[int, str]]:
    return _findings(src, Language.CUDA)


ROW_SUMS = """\
__global__ void row_sums(float* out, const float* inp, int N, int C) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int row = blockIdx.x * (blockDim.x / 32) + warp;
    GUARD
    const float* x = inp + row * C;
    float s = 0.0f;
    for (int i = lane; i < C; i += 32) {
        s += x[i];
    }
    if (lane == 0) {
        out[row] = s;
    }
}
void row_sums_launch(float* out, const float* inp, int N, int C) {
    int block = 256;
    int grid = GRID;
    row_sums<<<grid, block>>>(out, inp, N, C);
}
"""
ROUNDED_UP = "(N * 32 + block - 1) / block"


def test_unguarded_warp_row_under_a_rounded_up_grid_is_reported() -> None:
    src = ROW_SUMS.replace("GUARD", "").replace("GRID", ROUNDED_UP)
    # the read's column is bounded by the loop that walks it; nothing bounds the row
    assert findings(src) == [(line_of(src, "s += x[i]"), "BC101"), (line_of(src, "out[row] = s"), "BC102")]


def test_guarded_warp_row_is_silent() -> None:
    assert findings(ROW_SUMS.replace("GUARD", "if (row >= N) { return; }").replace("GRID", ROUNDED_UP)) == []


def test_grid_of_exactly_the_rows_needs_no_row_guard() -> None:
    # one warp per block and one block per row: no warp past the rows is launched
    src = ROW_SUMS.replace("GUARD", "").replace("GRID", "N").replace("int block = 256;", "int block = 32;")
    assert findings(src) == []


CG_ROWS = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
int ceil_div(int a, int b) { return (a + b - 1) / b; }
__global__ void row_scale(float* out, const float* inp, int N, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int t = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    GUARD
    float m = inp[t * C];
    if (warp.thread_rank() == 0) {
        out[t] = m;
    }
}
void row_scale_launch(float* out, const float* inp, int N, int C) {
    row_scale<<<ceil_div(N * 32, 128), 128>>>(out, inp, N, C);
}
"""


def test_unguarded_cooperative_groups_row_is_reported() -> None:
    src = CG_ROWS.replace("GUARD", "")
    assert findings(src) == [(line_of(src, "inp[t * C]"), "BC101"), (line_of(src, "out[t] = m"), "BC102")]


def test_guarded_cooperative_groups_row_is_silent() -> None:
    assert findings(CG_ROWS.replace("GUARD", "if (t >= N) { return; }")) == []


CHUNKS = """\
__global__ void chunk_copy(float* out, const float* inp, int total, int per_warp) {
    int warp_row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int mine = MINE;
    for (int i = lane; i < mine; i += 32) {
        out[warp_row * per_warp + i] = inp[warp_row * per_warp + i];
    }
}
void chunk_copy_launch(float* out, const float* inp, int total, int per_warp) {
    int warps = (total + per_warp - 1) / per_warp;
    chunk_copy<<<(warps + 7) / 8, 256>>>(out, inp, total, per_warp);
}
"""
OWN_COUNT = "(warp_row + 1) * per_warp > total ? total - warp_row * per_warp : per_warp"


def test_row_bounded_by_its_own_count_is_silent() -> None:
    # the kernel compares its global warp row with the extent (the last warp's share of the
    # elements): it bounds its rows its own way, which the model does not read as a guard
    assert findings(CHUNKS.replace("MINE", OWN_COUNT)) == []


def test_row_with_a_fixed_count_is_reported() -> None:
    src = CHUNKS.replace("MINE", "per_warp")
    line = line_of(src, "out[warp_row")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


BLOCK_REDUCE = """\
__global__ void block_sums(float* out, const float* inp, int C) {
    __shared__ float partial[32];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float s = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        s += inp[blockIdx.x * C + i];
    }
    if (lane == 0) partial[warp] = s;
    __syncthreads();
    if (warp == 0 && lane < blockDim.x / 32) {
        out[blockIdx.x * (blockDim.x / 32) + lane] = partial[lane];
    }
}
void block_sums_launch(float* out, const float* inp, int rows, int C) {
    block_sums<<<(rows * 32 + 255) / 256, 256>>>(out, inp, C);
}
"""


def test_block_local_warp_index_needs_no_row_guard() -> None:
    # `warp == 0` picks the warp that reduces: the warp index is no row here
    assert findings(BLOCK_REDUCE) == []


COLUMN_SUMS = """\
__global__ void column_sums(float* out, const float* inp, int rows, int C) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int col = blockIdx.x * 32 + lane;
    if (col < C) {
        float s = 0.0f;
        for (int r = warp; r < rows; r += blockDim.x / 32) {
            s += inp[r * C + col];
        }
        atomicAdd(&out[col], s);
    }
}
"""


def test_warps_striding_over_rows_bound_the_row() -> None:
    assert findings(COLUMN_SUMS) == []


def test_warps_striding_over_rows_up_to_the_extent_itself_is_off_by_one() -> None:
    src = COLUMN_SUMS.replace("r < rows", "r <= rows")
    assert findings(src) == [(line_of(src, "r <= rows"), "BC104")]


LATER_ROWS = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void later_rows(float* out, const float* att, int T) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int t3 = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (t3 >= T) { return; }
    float acc = 0.0f;
    for (int t = t3; t < T; t++) {
        BODY
        for (int i = warp.thread_rank(); i <= t; i += warp.size()) {
            acc += att[t * T + i];
        }
    }
    if (warp.thread_rank() == 0) {
        out[t3] = acc;
    }
}
"""


def test_loop_from_the_warp_row_bounds_each_later_row() -> None:
    assert findings(LATER_ROWS.replace("BODY", "")) == []


def test_loop_from_the_warp_row_up_to_the_extent_itself_is_off_by_one() -> None:
    # `t3 < T` bounds where the loop starts only; `t <= T` lets it read row T
    src = LATER_ROWS.replace("BODY", "").replace("t < T", "t <= T")
    assert findings(src) == [(line_of(src, "t <= T"), "BC104")]


def test_exact_bound_on_the_loop_row_itself_is_no_off_by_one() -> None:
    src = LATER_ROWS.replace("BODY", "if (t >= T) { break; }").replace("t < T", "t <= T")
    assert findings(src) == []


ROW_TILE = """\
__global__ void row_tile(float* out, const float* inp, int rows, int C) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    GUARD
    for (int k = threadIdx.x; k < C; k += blockDim.x) {
        out[row * C + k] = 2.0f * inp[row * C + k];
    }
}
"""


def test_loop_walk_alone_leaves_the_row_unguarded() -> None:
    # the loop's condition walks the columns: no guard was written, so the row is unguarded
    src = ROW_TILE.replace("GUARD", "")
    line = line_of(src, "out[row * C + k]")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


def test_written_guard_on_the_columns_only_is_partial() -> None:
    src = """\
__global__ void col_guard(float* out, const float* inp, int rows, int C) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < C) {
        out[row * C + col] = 2.0f * inp[row * C + col];
    }
}
"""
    assert findings(src) == [(5, "BC103"), (5, "BC103")]


def test_guarded_row_tile_is_silent() -> None:
    assert findings(ROW_TILE.replace("GUARD", "if (row >= rows) { return; }")) == []


EITHER_EXIT = """\
__global__ void copy2d(float* out, const float* inp, int M, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (ROW_TEST OP col >= N) return;
    out[row * N + col] = inp[row * N + col];
}
"""


def _either(row_test: str, op: str) -> str:
    return EITHER_EXIT.replace("ROW_TEST", row_test).replace("OP", op)


def test_exit_on_either_side_bounds_both() -> None:
    assert findings(_either("row >= M", "||")) == []


def test_exit_on_both_sides_bounds_neither() -> None:
    # `&&` lets through every thread with row < M or col < N: the access is unguarded
    assert findings(_either("row >= M", "&&")) == [(5, "BC101"), (5, "BC102")]


def test_off_by_one_side_of_an_exit_on_both_sides() -> None:
    assert findings(_either("row > M", "&&")) == [(4, "BC104"), (5, "BC101"), (5, "BC102")]


def test_thread_index_side_of_an_exit_on_both_sides() -> None:
    # the access is reported too: its column has no bound, its row the block-local stand-in only
    assert findings(_either("threadIdx.y >= M", "&&")) == [(4, "BC105"), (5, "BC103"), (5, "BC103")]
