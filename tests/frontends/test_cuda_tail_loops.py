"""A loop whose condition holds only past the extent (``while ((i + 1) * 4 > V)``: the unaligned
tail handled before a main loop of whole packs) runs the partial tile itself, so an access in it
is no full tile whose tail another access peels."""

from boundcheck.model import Language
from tests.checking import findings, line_of

TAIL = """
__global__ void row_max(float *out, const float *x, int V) {
  int i = (V + 3) / 4 + threadIdx.x - blockDim.x;
  float m = -1e30f;
  while ((i + 1) * 4 > V) {
    for (int k = 0; k < 4; ++k) {
      GUARD
      m = fmaxf(m, x[i * 4 + k]);
    }
    i -= blockDim.x;
  }
  for (; i >= 0; i -= blockDim.x) {
    if (i * 4 < V) m = fmaxf(m, x[i * 4]);
  }
  if (threadIdx.x < V) out[threadIdx.x] = m - x[threadIdx.x];
}
"""


def test_unguarded_read_in_the_tail_loop_is_reported() -> None:
    src = TAIL.replace("GUARD", "")
    assert findings(src, Language.CUDA) == [(line_of(src, "m = fmaxf(m, x[i * 4 + k])"), "BC101")]


def test_guarded_read_in_the_tail_loop_is_silent() -> None:
    src = TAIL.replace("GUARD", "if (i * 4 + k >= V) break;")
    assert findings(src, Language.CUDA) == []


PADDED_ROWS = """\
#define K 64
__global__ void rows(const float* x, float* y, int n) {
    for (int i0 = 0; i0 < n; i0 += 32) {
        const int i = i0 + threadIdx.x;
        y[i * (K + 1)] = x[i * (K + 1)];
    }
}
"""


def test_rows_of_a_padded_pitch_stepped_by_a_loop_still_need_their_guard() -> None:
    # i0 and threadIdx.x share the pitch K + 1, a sum: i0 still steps by whole rows of the thread
    # index (the segment reading of sums is for named tiles, a Triton lane's, not blockDim's)
    line = line_of(PADDED_ROWS, "y[i * (K + 1)]")
    assert findings(PADDED_ROWS, Language.CUDA) == [(line, "BC101"), (line, "BC102")]
