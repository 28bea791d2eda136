"""CUDA early exits and guards on indices derived from the guarded one: a block's linear thread
index split into a row and a column (``tid / 16``, ``tid % 16``), and the quotient and remainder
of a global index (``b = idx / T``, ``t = idx % T``)."""

from __future__ import annotations

from boundcheck.frontends.cuda_divmod import recombined
from boundcheck.model import Language
from boundcheck.symbolic import Bin, Kind, Num, Sym, expand, terms_text
from tests.checking import findings, line_of

_SPLIT = """
template <const int BM = 64, const int BN = 64>
__global__ void split_copy(const float *a, float *c, int M, int N) {
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int row = blockIdx.y * BM + tid / 16;
  int col = blockIdx.x * BN + tid % 16;
  if (ROW_GUARD || col >= N)
    return;
  c[row * N + col] = a[row * N + col];
}
"""


def _split(row_guard: str) -> str:
    return _SPLIT.replace("ROW_GUARD", row_guard)


def test_split_rows_guarded_on_both_parts_is_clean() -> None:
    assert findings(_split("row >= M"), Language.CUDA) == []


def test_thread_index_guard_on_a_split_row_is_bc105() -> None:
    src = _split("threadIdx.y >= M")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.y >= M"), "BC105")]


def test_column_guard_does_not_bound_the_split_row() -> None:
    # `col < N` mixes both thread indices, as the row does: it still bounds the column only
    src = _split("false")
    line = line_of(src, "c[row * N + col]")
    assert findings(src, Language.CUDA) == [(line, "BC103"), (line, "BC103")]  # the read and the write


_LANE_MACRO = """
#define WARP_SIZE 32
__global__ void tile_store(const float *s, float *C, int M, int N) {
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int lane_id = tid % WARP_SIZE;
  if (lane_id < 16) {
    C[(blockIdx.y * 16 + lane_id) * N + blockIdx.x * 8] = s[lane_id];
  }
}
"""


def test_lane_of_a_linear_thread_index_is_no_wrap() -> None:
    # `tid % WARP_SIZE` is the lane, not the row wrapped below WARP_SIZE: the row still needs M
    line = line_of(_LANE_MACRO, "C[(blockIdx.y")
    assert (line, "BC102") in findings(_LANE_MACRO, Language.CUDA)


_ROWS = """
__global__ void center_rows(const float *inp, const float *mean, float *out, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (GUARD) return;
  int b = idx / T;
  int t = idx % T;
  const float *x = inp + b * T * C + t * C;
  float m = mean[b * T + t];
  for (int i = 0; i < C; i++) {
    out[b * T * C + t * C + i] = x[i] - m;
  }
}
"""


def test_quotient_and_remainder_of_the_guarded_index_are_bounded_by_its_guard() -> None:
    # b * T + t is idx itself, which `idx < B * T` bounds
    assert findings(_ROWS.replace("GUARD", "idx >= B * T"), Language.CUDA) == []


def test_thread_index_guard_over_quotient_and_remainder_is_bc105() -> None:
    src = _ROWS.replace("GUARD", "threadIdx.x >= B * T")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x >= B * T"), "BC105")]


def test_dropped_guard_over_quotient_and_remainder_is_reported() -> None:
    src = _ROWS.replace("if (GUARD) return;", "")
    assert findings(src, Language.CUDA) == [
        (line_of(src, "float m = mean"), "BC101"),
        (line_of(src, "out[b * T * C"), "BC101"),  # x[i]
        (line_of(src, "out[b * T * C"), "BC102"),
    ]


def test_recombined_needs_the_same_dividend_and_divisor() -> None:
    idx = Bin("+", Bin("*", Sym("blockIdx.x", Kind.PROGRAM), Sym("blockDim.x", Kind.CONST)),
              Sym("threadIdx.x", Kind.LANE))
    T, C = Sym("T", Kind.EXTENT), Sym("C", Kind.EXTENT)
    b, t = Bin("/", idx, T), Bin("%", idx, T)
    whole = recombined(Bin("+", Bin("*", Bin("*", b, T), C), Bin("*", t, C)))  # b * T * C + t * C
    assert terms_text(expand(whole)) == terms_text(expand(Bin("*", idx, C)))
    other = Bin("+", Bin("*", b, T), Bin("%", idx, C))  # (idx / T) * T + idx % C
    assert recombined(other) is other
    scaled = Bin("+", Bin("*", b, T), Bin("*", Num(2), t))  # b * T + 2 * t
    assert recombined(scaled) is scaled


_TRANSPOSE = """
__global__ void transpose(const int *A, int M, int N, int *B) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ int s[32][33];
  if (row < M && col < N) {
    s[threadIdx.x][threadIdx.y] = A[row * N + col];
    int n_col = blockIdx.y * blockDim.y + threadIdx.x;
    int n_row = blockIdx.x * blockDim.x + threadIdx.y;
    if (INNER && n_row < N) {
      B[n_row * M + n_col] = s[threadIdx.y][threadIdx.x];
    }
  }
}
"""


def test_transpose_guarded_on_its_own_indices_is_clean() -> None:
    assert findings(_TRANSPOSE.replace("INNER", "n_col < M"), Language.CUDA) == []


def test_guard_on_another_blocks_index_does_not_bound_the_store() -> None:
    # `col < N` offsets threadIdx.x by blockIdx.x; the store's n_col offsets it by blockIdx.y
    src = _TRANSPOSE.replace("INNER", "threadIdx.x < M")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x < M"), "BC105")]


def test_block_id_inside_the_lanes_own_term_still_matches() -> None:
    # the row's block offset sits inside `global_y * col / 4`: the guard on global_y bounds it
    src = """
__global__ void col2row(float *x, float *y, const int row, const int col) {
  const int global_x = blockIdx.x * blockDim.x + threadIdx.x;
  const int global_y = blockIdx.y * blockDim.y + threadIdx.y;
  if (global_x * 4 + 3 < col && global_y < row) {
    float4 v = reinterpret_cast<float4 *>(x)[global_y * col / 4 + global_x];
    y[(global_x * 4) * row + global_y] = v.x;
  }
}
"""
    assert findings(src, Language.CUDA) == []


_TILE_PER_BLOCK = """
#define WARP 32
constexpr int warps_per_tile = 8;
constexpr int threads = warps_per_tile * WARP;
__global__ void tiles(const float *x, float *y, size_t num_tiles, size_t n) {
  __shared__ float s[threads];
  const int warp_id = threadIdx.x / WARP;
  const size_t tile_id = blockIdx.x * blockDim.x / (WARP * warps_per_tile) + warp_id / warps_per_tile;
  if (tile_id >= num_tiles) {
    return;
  }
  const size_t i = tile_id * threads + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) y[i] = s[threads - 1 - threadIdx.x];
}
void launch(const float *x, float *y, size_t num_tiles, size_t n, int block) {
  tiles<<<num_tiles, BLOCK>>>(x, y, num_tiles, n);
}
"""


def test_an_exit_on_a_tile_of_the_whole_block_leaves_with_every_thread() -> None:
    # warp_id / 8 is 0 in blocks of 256 threads: tile_id is the block's, the exit uniform
    assert findings(_TILE_PER_BLOCK.replace("BLOCK", "threads"), Language.CUDA) == []


def test_the_same_exit_under_a_larger_block_splits_it() -> None:
    # in blocks of 512 the second half of the block has the next tile_id and may leave alone
    src = _TILE_PER_BLOCK.replace("BLOCK", "2 * threads")
    assert findings(src, Language.CUDA) == [(line_of(src, "return;"), "BC303")]


def test_the_same_exit_under_a_block_size_the_host_picks_is_reported() -> None:
    src = _TILE_PER_BLOCK.replace("BLOCK", "block")
    assert findings(src, Language.CUDA) == [(line_of(src, "return;"), "BC303")]


def test_a_quotient_of_a_lane_remainder_is_no_block_index() -> None:
    # `(threadIdx.x % 32) / 8` is a lane's group inside its warp, whatever the block size
    src = _TILE_PER_BLOCK.replace("BLOCK", "threads").replace("warp_id / warps_per_tile",
                                                              "(threadIdx.x % WARP) / warps_per_tile")
    assert findings(src, Language.CUDA) == [(line_of(src, "return;"), "BC303")]
