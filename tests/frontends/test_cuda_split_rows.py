"""A thread index split by a compile-time size into a row and a column (``tid / (NT / BR)``,
``tid % (NT / BR)``): the row is program-tiled, so a guard on ``threadIdx.x`` is no guard of it; and
a block-local comparison names no extent that a contract could make whole."""

from boundcheck.model import Language
from tests.checking import findings, line_of

SPLIT = """
template <int NT, int BR, int D>
__global__ void rows(const float *q, float *o, int n) {
  const int tid = threadIdx.x;
  int row = blockIdx.x * BR + tid / (NT / BR);
  int col = (tid % (NT / BR)) * (D / (NT / BR));
  if (GUARD >= n) return;
  for (int i = 0; i < D / (NT / BR); ++i)
    o[row * D + col + i] = 2.f * q[row * D + col + i];
}
"""


def test_thread_index_guard_on_a_split_row_is_reported() -> None:
    src = SPLIT.replace("GUARD", "tid")
    assert findings(src, Language.CUDA) == [(line_of(src, "if (tid >= n)"), "BC105")]


def test_global_row_guard_on_a_split_row_is_silent() -> None:
    assert findings(SPLIT.replace("GUARD", "row"), Language.CUDA) == []


HOST = """
#include <cassert>
void launch(const float *q, float *o, int n) {
  assert(n % 64 == 0);
  rows<128, 64, 64><<<n / 64, 128>>>(q, o, n);
}
"""


def test_block_local_guard_names_no_extent_for_a_contract() -> None:
    """``n % 64 == 0`` with n compared with the thread index: a contract on what the kernel bounds
    that lane by, were the comparison the row's. ``tid >= n`` is not (the row adds
    ``blockIdx.x * BR``; threads 64..127 of every block leave when n is 64), so it stays reported."""
    src = SPLIT.replace("GUARD", "tid") + HOST
    assert findings(src, Language.CUDA) == [(line_of(src, "if (tid >= n)"), "BC105")]


def test_thread_index_guard_that_never_binds_is_silent() -> None:
    """Block 256 and ``n % 256 == 0``: ``threadIdx.x < n`` always holds, so comparing the thread
    index drops no thread and the global index stays inside n."""
    src = """
#include <cassert>
__global__ void scale(float *y, int n) {
  if (threadIdx.x < n) y[blockIdx.x * blockDim.x + threadIdx.x] *= 2.f;
}
void launch(float *y, int n) {
  assert(n % 256 == 0);
  scale<<<n / 256, 256>>>(y, n);
}
"""
    assert findings(src, Language.CUDA) == []
