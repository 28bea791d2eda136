"""BC101 (no guard at all) versus BC103 (a guard that bounds some dimensions but not all): a wrap
or clamp that keeps one index in range is not a guard, and a mask that bounds only a dimension
that needs none still makes the access partially guarded."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of


GEMM = """\
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, c_ptr, M, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    ram = rm % M
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        rk = k * BLOCK_K + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + ram[:, None] * K + rk[None, :]{mask})
        acc += a
    tl.store(c_ptr + rm[:, None] * BLOCK_K + tl.arange(0, BLOCK_K)[None, :], acc, mask=rm[:, None] < M)
"""


def test_no_mask_is_unguarded_even_when_a_wrap_keeps_the_rows_in_range() -> None:
    src = GEMM.format(mask="")
    assert findings(src) == [(line_of(src, "a = tl.load"), "BC101")]


def test_a_mask_on_rows_only_when_the_rows_need_none_is_a_partial_guard() -> None:
    src = GEMM.format(mask=", mask=ram[:, None] < M, other=0.0")
    assert findings(src) == [(line_of(src, "a = tl.load"), "BC103")]


def test_the_k_mask_completes_the_wrap() -> None:
    assert findings(GEMM.format(mask=", mask=rk[None, :] < K, other=0.0")) == []


CUDA = """\
__global__ void copy2d(const float* a, float* b, int M, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    GUARD
    b[row * N + col] = a[row * N + col];
}
"""


def test_cuda_guard_on_rows_only_is_partial() -> None:
    src = CUDA.replace("GUARD", "if (row >= M) return;")
    line = line_of(src, "b[row")
    assert findings(src, Language.CUDA) == [(line, "BC103"), (line, "BC103")]


def test_cuda_no_guard_is_unguarded() -> None:
    src = CUDA.replace("GUARD", "")
    line = line_of(src, "b[row")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


def test_cuda_guard_on_both_dimensions_is_clean() -> None:
    assert findings(CUDA.replace("GUARD", "if (row >= M || col >= N) return;"), Language.CUDA) == []


FLOAT4 = """\
__global__ void copy4(const float* a, float* c, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (GUARD) {
        reinterpret_cast<float4*>(c)[i] = reinterpret_cast<const float4*>(a)[i];
    }
}
"""


def test_a_last_lane_guard_with_le_is_an_off_by_one_not_a_first_lane_guard() -> None:
    src = FLOAT4.replace("GUARD", "4 * i + 3 <= N")
    assert findings(src, Language.CUDA) == [(line_of(src, "if ("), "BC104")]


def test_a_first_lane_guard_on_a_vector_is_a_vector_tail() -> None:
    src = FLOAT4.replace("GUARD", "4 * i < N")
    assert {code for _, code in findings(src, Language.CUDA)} == {"BC106"}


def test_the_last_lane_guard_with_lt_is_clean() -> None:
    assert findings(FLOAT4.replace("GUARD", "4 * i + 3 < N"), Language.CUDA) == []


def test_a_last_lane_guard_cancelled_by_the_same_slack_is_a_first_lane_guard() -> None:
    src = FLOAT4.replace("GUARD", "4 * i + 3 < N + 3")
    assert {code for _, code in findings(src, Language.CUDA)} == {"BC106"}


def test_dimensions_sharing_a_label_are_told_apart_by_axis() -> None:
    from boundcheck.coverage import describe_dims
    from boundcheck.model import Dim, Tiling
    rows = Dim("arange#1", "o_i", "BC", Tiling.PROGRAM, axis=0)
    cols = Dim("arange#1", "o_i", "BC", Tiling.LOOP, axis=1)
    other = Dim("arange#2", "o_k", "BK", Tiling.WHOLE, axis=1)
    assert describe_dims([rows], (rows, cols)) == "`o_i` (axis 0, tile BC)"
    assert describe_dims([other], (rows, other)) == "`o_k` (tile BK)"
