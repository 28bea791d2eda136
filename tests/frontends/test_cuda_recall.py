"""CUDA kernels whose guards the frontend used to misread: each bug is reported at its line, and
its correctly guarded twin gives no finding."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, path: str = "k.cu") -> list[tuple[int, str]]:
    found, _ = check_source(path, Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


PACKED = """\
#include <cuda_fp16.h>
#define HALF2(v) (reinterpret_cast<half2 *>(&(v))[0])
#define LD128(v) (reinterpret_cast<float4 *>(&(v))[0])
__global__ void add_f16x4(half *a, half *c, int N) {
  int idx = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if ((idx + 0) + 1 < N) {
    HALF2(c[idx + 0]) = HALF2(a[idx + 0]);
  }
  if ((idx + 2) + 1 < N) {
    HALF2(c[idx + 2]) = HALF2(a[idx + 2]);
  }
}
__global__ void add_f16x8(half *a, half *c, int N) {
  int idx = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  half pack[8];
  if ((idx + 7) < N) {
    LD128(pack[0]) = LD128(a[idx]);
    LD128(c[idx]) = LD128(pack[0]);
  }
}
"""


def test_offset_lane_guard_of_a_packed_access():
    assert findings(PACKED) == []
    # `(idx + 2) + 1 <= N` lets the pair at idx + 2 end at N
    assert (9, "BC104") in findings(PACKED.replace("(idx + 2) + 1 < N", "(idx + 2) + 1 <= N"))
    # `(idx + 7) <= N` lets the last of 8 lanes reach N
    assert (16, "BC104") in findings(PACKED.replace("(idx + 7) < N", "(idx + 7) <= N"))
    # the guard names the first lane of the pair only
    assert findings(PACKED.replace("(idx + 2) + 1 < N", "(idx + 2) < N")) == [(10, "BC106"), (10, "BC106")]


def test_row_pointer_one_past_the_guarded_row_is_no_off_by_one():
    src = """\
__global__ void row_len(const int *row_ptr, int *len, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    len[row] = row_ptr[row + 1] - row_ptr[row];
  }
}
"""
    assert findings(src) == []
