"""``__shared__ alignas(128) T tile[...]``: nvcc takes ``alignas`` after a CUDA memory-space keyword,
clang only before it. The kernel is read whole (no BC001) and its accesses are checked."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import at, findings

_KERNEL = """
__global__ void stage(const float *x, float *y, int n) {
  __shared__ alignas(128)
      float tile[64];
  static __shared__ alignas(sizeof(float4)) float out[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  tile[threadIdx.x] = GUARDED_READ;
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x];
  if (i < n) y[i] = out[threadIdx.x];
}
"""


def test_aligned_shared_tiles_parse_and_their_kernel_is_checked() -> None:
    src = _KERNEL.replace("GUARDED_READ", "x[i]")
    assert findings(src, Language.CUDA) == at(src, "tile[threadIdx.x] = x[i]", "BC101")


def test_aligned_shared_tiles_under_a_zero_filled_guard_are_clean() -> None:
    src = _KERNEL.replace("GUARDED_READ", "i < n ? x[i] : 0.0f")
    assert findings(src, Language.CUDA) == []
