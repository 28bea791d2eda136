"""What every thread of a block must reach, and what a reduction is.

A boundary ``return`` before a barrier in a ``__device__`` helper (``float m = block_max(v);``)
or before a CUB block collective strands the threads that stay, as before a ``__syncthreads()``
in the kernel's own body; so does an exit on a per-block length read from memory. A value kept
only through ``fabsf`` pads with 0 a max it cannot lower; ``s = fminf(s, FLT_MAX)`` clamps one
value and reduces nothing; a bool local built up with ``ok &= c < n`` guards with every test.
"""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

_HELPER_BARRIER = """
__device__ float block_max(float v) {
  __shared__ float slots[32];
  if (threadIdx.x % 32 == 0) slots[threadIdx.x / 32] = v;
  __syncthreads();
  return slots[0];
}
template <int THREADS>
__device__ float reduce_max(float v) {
  if (THREADS == 32) {
    return v;
  } else {
    return block_max(v);
  }
}
__global__ void normalise(const float* x, float* y, long n) {
  long i = blockIdx.x * blockDim.x + threadIdx.x;
  EXIT
  float v = GUARDED_READ;
  float m = reduce_max<256>(v);
  if (i < n) y[i] = v / m;
}
"""


def test_a_return_before_a_helper_that_syncs_the_block_is_bc303() -> None:
    src = _HELPER_BARRIER.replace("EXIT", "if (i >= n) return;").replace("GUARDED_READ", "x[i]")
    assert findings(src, Language.CUDA) == [(line_of(src, "if (i >= n) return;"), "BC303")]


def test_every_thread_reaching_the_helper_is_clean() -> None:
    src = _HELPER_BARRIER.replace("EXIT", "").replace("GUARDED_READ", "i < n ? x[i] : -INFINITY")
    assert findings(src, Language.CUDA) == []


def test_the_message_names_the_call_that_syncs() -> None:
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings

    src = _HELPER_BARRIER.replace("EXIT", "if (i >= n) return;").replace("GUARDED_READ", "x[i]")
    found, _ = check_source("k.cu", Language.CUDA, src, Settings())
    assert "before the block-wide call `reduce_max(…)` on line" in found[0].message


_SEGMENT = """
__device__ long div_up(long a, long b) { return (a + b - 1) / b; }
__global__ void count(const long* offsets, const long* values, long* partial, long* out) {
  long rows = LIMIT;
  long per_thread = div_up(rows, blockDim.x);
  long start = threadIdx.x * per_thread;
  long end = min(start + per_thread, rows);
  if (start >= rows) {
    return;
  }
  for (long i = start; i < end; i++) partial[blockIdx.x * 1024 + threadIdx.x] += values[i];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = partial[blockIdx.x * 1024];
}
"""


def test_an_exit_on_a_length_read_from_memory_is_bc303() -> None:
    """The block's segment length is data: the threads past it leave, the rest wait."""
    src = _SEGMENT.replace("LIMIT", "offsets[blockIdx.x + 1] - offsets[blockIdx.x]")
    assert (line_of(src, "return;"), "BC303") in findings(src, Language.CUDA)


_LAUNCH_ROWS = """
template <int K_FIXED>
__global__ void solve(const float* b, float* x, int k_arg) {
  const int k = K_FIXED == 0 ? k_arg : K_FIXED;
  const int col = threadIdx.y;
  __shared__ float tile[64];
  if (col >= k) {
    return;
  }
  tile[threadIdx.x] = b[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}
"""


def test_an_exit_on_a_compile_time_or_argument_size_is_no_bc303() -> None:
    """``col >= k`` with ``k`` a template size or an argument: the block's shape, not data (the
    launch makes blockDim.y == k); only the lengths a block reads from memory vary by data."""
    assert "BC303" not in [code for _, code in findings(_LAUNCH_ROWS, Language.CUDA)]


_AMAX = """
__global__ void amax(const float* x, float* out, int n) {
  float m = 0.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    m = VALUE;
  }
  for (int d = 16; d > 0; d /= 2) {
    float o = __shfl_down_sync(0xFFFFFFFF, m, d);
    m = fmaxf(m, o);
  }
  if (threadIdx.x % 32 == 0) out[blockIdx.x * 8 + threadIdx.x / 32] = m;
}
"""


@pytest.mark.parametrize("value", ["fabsf(x[i])", "static_cast<float>(fabs(x[i]))", "sqrtf(x[i])"])
def test_zero_padding_of_a_never_negative_value_feeding_a_max_is_clean(value: str) -> None:
    assert findings(_AMAX.replace("VALUE", value), Language.CUDA) == []


@pytest.mark.parametrize("value", ["x[i]", "fabsf(x[i]) - 1.0f"])
def test_zero_padding_of_a_signed_value_feeding_a_max_is_bc202(value: str) -> None:
    src = _AMAX.replace("VALUE", value)
    assert findings(src, Language.CUDA) == [(line_of(src, "m = " + value), "BC202")]


_CLAMP = """
__device__ float encode_scale(float amax) {
  float s = 448.0f / amax;
  s = fminf(s, 3.40282347e+38F);
  return s;
}
__global__ void scales(const float* amax, float* out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = r < rows ? encode_scale(amax[r]) : 1.0f;
  if (r < rows) out[r] = s;
}
"""


def test_a_clamp_in_a_helper_is_no_reduction() -> None:
    """``fminf(s, FLT_MAX)`` bounds one value: the 1.0 past the rows feeds no min."""
    assert findings(_CLAMP, Language.CUDA) == []


def test_a_min_across_lanes_is_still_a_reduction() -> None:
    """``m = fminf(m, __shfl_down_sync(…, m, d))``: the other operand is a lane's value, no clamp."""
    src = _AMAX.replace("VALUE", "x[i]").replace("fmaxf", "fminf")
    assert findings(src, Language.CUDA) == [(line_of(src, "m = x[i]"), "BC202")]


_FLAG = """
__global__ void copy(float* out, const float* x, int rows, int cols) {
  int r = blockIdx.y * 32 + threadIdx.x / 32;
  int c = blockIdx.x * 32 + threadIdx.x % 32;
  bool ok = true;
  ok &= (r < rows);
  SECOND
  if (ok) {
    out[r * cols + c] = x[r * cols + c];
  }
}
"""


def test_a_flag_built_with_and_assign_guards_with_every_test() -> None:
    assert findings(_FLAG.replace("SECOND", "ok &= (c < cols);"), Language.CUDA) == []


def test_a_flag_missing_one_dimension_still_reports_it() -> None:
    src = _FLAG.replace("SECOND", "")
    assert findings(src, Language.CUDA) == [(line_of(src, "out[r * cols + c]"), "BC101"),
                                            (line_of(src, "out[r * cols + c]"), "BC102")]


def test_a_flag_set_again_holds_only_its_new_test() -> None:
    src = _FLAG.replace("SECOND", "ok &= (c < cols);\n  ok = (r < rows);")
    assert [code for _, code in findings(src, Language.CUDA)] == ["BC101", "BC102"]


def test_a_flag_tested_only_under_a_compile_time_branch_is_not_assumed() -> None:
    src = _FLAG.replace("SECOND", "if (sizeof(float) == 8) { ok &= (c < cols); }")
    assert [code for _, code in findings(src, Language.CUDA)] == ["BC101", "BC102"]
