"""CUDA accesses indexed by a quotient or remainder of the guarded index: a warp-per-row kernel
whose row is split into (b, t) by a runtime size, a lane bounded by its row's own position
(``row % T``), and a guard on a remainder (``pos & (S - 1)``) beside an access that also moves
with the quotient. And the benchmark's skip of a dropped guard that its index, a remainder
scaled back up (``(i % (n / k)) * k < n``), never fails."""

from __future__ import annotations

from bench.quality import mutate_cuda
from bench.quality.mutate_cuda import NEVER_BINDS
from boundcheck.model import Language
from tests.checking import findings, line_of

_WARP_ROWS = """
__global__ void row_scale(float *out, const float *inp, const float *scale, int B, int T, int C) {
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  int idx = blockIdx.x * (blockDim.x / 32) + warp;
  GUARD
  int b = idx / T;
  int t = idx % T;
  float s = scale[b * T + t];
  for (int i = lane; i < C; i += 32) {
    out[idx * C + i] = inp[idx * C + i] * s;
  }
}
"""


def _warp_rows(guard: str) -> str:
    return _WARP_ROWS.replace("GUARD", guard)


def test_split_warp_rows_guarded_is_clean() -> None:
    assert findings(_warp_rows("if (idx >= B * T) { return; }"), Language.CUDA) == []


def test_split_warp_rows_without_guard_are_unbounded() -> None:
    # the rows are B * T, split by T: nothing keeps the last block's warps below that count
    src = _warp_rows("")
    assert findings(src, Language.CUDA) == sorted([
        (line_of(src, "float s = scale"), "BC101"),
        # the lane loop `i < C` walks the columns but guards nothing it writes: the row is unguarded
        (line_of(src, "out[idx * C + i]"), "BC101"),
        (line_of(src, "out[idx * C + i]"), "BC102"),
    ])


def test_unsplit_warp_rows_without_guard_stay_unchecked() -> None:
    # no comparison and no split by a runtime size: the grid may well size the rows exactly
    src = _warp_rows("").replace("int b = idx / T;\n  int t = idx % T;\n  float s = scale[b * T + t];",
                                 "float s = scale[idx];")
    assert findings(src, Language.CUDA) == []


def test_split_warp_rows_off_by_one_is_bc104() -> None:
    src = _warp_rows("if (idx > B * T) { return; }")
    assert findings(src, Language.CUDA) == [(line_of(src, "idx > B * T"), "BC104")]


_CAUSAL_ROW = """
__global__ void causal_tail(float *out, const float *inp, int N, int T) {
  int lane = threadIdx.x % 32;
  int idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  GUARD
  int own_pos = idx % T;
  int pos_by_4 = own_pos / 4;
  const float *x = inp + idx * T;
  float *y = out + idx * T;
  if (4 * pos_by_4 + lane <= own_pos) {
    y[4 * pos_by_4 + lane] = 2.0f * x[4 * pos_by_4 + lane];
  }
}
"""


def _causal(guard: str) -> str:
    return _CAUSAL_ROW.replace("GUARD", guard)


def test_lane_within_its_own_row_position_guarded_row_is_clean() -> None:
    assert findings(_causal("if (idx >= N * T) { return; }"), Language.CUDA) == []


def test_lane_within_its_own_row_position_is_no_row_guard() -> None:
    # `4 * (idx % T / 4) + lane <= idx % T` keeps the lane inside the row; with the row guard
    # gone the accesses are unguarded (BC101, BC102), not partly guarded
    src = _causal("")
    assert findings(src, Language.CUDA) == sorted([
        (line_of(src, "y[4 * pos_by_4 + lane] ="), "BC101"),
        (line_of(src, "y[4 * pos_by_4 + lane] ="), "BC102"),
    ])


def test_row_position_comparison_does_not_hide_an_off_by_one_row_guard() -> None:
    # the warp row on both sides of `lane <= own_pos` is the row's offset, not a second bound on it
    src = _causal("if (idx > N * T) { return; }")
    assert findings(src, Language.CUDA) == [(line_of(src, "idx > N * T"), "BC104")]


def test_row_position_comparison_does_not_hide_a_thread_index_row_guard() -> None:
    src = _causal("if (threadIdx.x >= N * T) { return; }")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x >= N * T"), "BC105")]


_SEGMENTS = """
__global__ void segment_ranks(unsigned *ranks, const unsigned *keys, unsigned S, unsigned count) {
  unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  GUARD
  unsigned i = pos & (S - 1);
  ranks += (pos - i) * 2;
  if (i < S / 2) {
    ranks[i] = keys[pos];
  }
}
"""


def _segments(guard: str) -> str:
    return _SEGMENTS.replace("GUARD", guard)


def test_remainder_guard_beside_a_global_guard_is_clean() -> None:
    assert findings(_segments("if (pos >= count) { return; }"), Language.CUDA) == []


def test_remainder_guard_does_not_bound_the_segment() -> None:
    # `i < S / 2` keeps i inside its segment; the segment start (pos - i) * 2 is unbounded
    src = _segments("")
    assert findings(src, Language.CUDA) == sorted([
        (line_of(src, "ranks[i] = keys[pos]"), "BC101"),
        (line_of(src, "ranks[i] = keys[pos]"), "BC102"),
    ])


def test_remainder_guard_beside_a_thread_index_guard_is_bc105() -> None:
    src = _segments("if (threadIdx.x >= count) { return; }")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x >= count"), "BC105")]


_ROW_COL = """
__global__ void rows_of_four(const float *x, float *y, int rows, int cols) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int col = (idx * 4) % cols;
  int row = (idx * 4) / cols;
  if (row < rows && col + 3 < cols) {
    float4 v = reinterpret_cast<const float4 *>(x)[idx];
    y[row * cols + col] = v.x + v.y + v.z + v.w;
  }
}
"""


def test_remainder_guard_with_a_quotient_guard_bounds_the_whole_index() -> None:
    # `row < rows` bounds the quotient, `col + 3 < cols` the remainder: together the float4 at
    # 4 * idx = row * cols + col stays in bounds
    assert findings(_ROW_COL, Language.CUDA) == []


def test_quotient_guard_alone_leaves_the_vector_tail() -> None:
    src = _ROW_COL.replace(" && col + 3 < cols", "")
    assert (line_of(src, "float4 v ="), "BC106") in findings(src, Language.CUDA)


_SPLIT_LOADS = """
template <const int BM = 128, const int BN = 128, const int BK = 8>
__global__ void split_loads(const float *a, const float *b, float *c, int M, int N, int K) {
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int a_m = blockIdx.y * BM + tid / 2;
  int a_k = (tid & 1) << 2;
  int b_n = blockIdx.x * BN + ((tid & 31) << 2);
  if (a_m >= M || b_n >= N)
    return;
  float acc = 0.0f;
  for (int bk = 0; bk < (K + BK - 1) / BK; bk++) {
    int k = bk * BK + a_k;
    if (k < K) {
      acc += a[a_m * K + k];
    }
  }
  c[a_m * N + b_n] = acc;
}
"""


def test_remainder_guard_of_one_mapping_does_not_bound_another() -> None:
    # `b_n < N` bounds `tid & 31`; the K index of a moves with `tid & 1`: the same threads, another
    # remainder, so with its own guard dropped the read of a is unbounded along K
    assert findings(_SPLIT_LOADS, Language.CUDA) == []
    src = _SPLIT_LOADS.replace("if (k < K) {", "{")
    assert findings(src, Language.CUDA) == [(line_of(src, "acc += a["), "BC103")]



_PACKS = """
__global__ void merge_packs(float4 *out, const float4 *a, const float4 *b, unsigned rows, unsigned n) {
  const unsigned k = 4;
  const unsigned packs = n / k;
  const unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= rows * packs) return;
  const unsigned row = idx / packs;
  const unsigned pack = idx % packs;
  const unsigned offset = pack * k;
  if (offset < n) {
    out[row * packs + offset / k] = a[row * packs + offset / k];
  }
}
"""


def _drop_guards(src: str) -> tuple[list[int], int]:
    m = mutate_cuda.mutate("/tmp/packs.cu", src)
    return [x.line for x in m.mutants if x.operator == "drop-guard"], \
        m.skipped.get(("drop-guard", "BC102", NEVER_BINDS), 0)


def test_dropping_a_guard_its_index_never_reaches_is_skipped() -> None:
    # offset = (idx % (n / k)) * k <= n - k < n: `offset < n` never binds, so dropping it changes
    # nothing; the early exit on idx is still mutated
    assert _drop_guards(_PACKS) == ([6], 1)


def test_dropping_a_guard_an_extra_pack_passes_is_still_mutated() -> None:
    # one pack more per row than fit: where n % k == 0 the last one starts at n, and the guard binds
    src = _PACKS.replace("n / k;", "n / k + 1;")
    assert _drop_guards(src) == ([6, 10], 0)
