"""CUDA early exits and guards on indices derived from the guarded one: a block's linear thread
index split into a row and a column (``tid / 16``, ``tid % 16``)."""

from __future__ import annotations

from boundcheck.model import Language
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

