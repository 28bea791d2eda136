"""A vector guarded on its first lane against a limit that moves with the block (a causal row's
length ``blockIdx.x + 1``) reads across the end of a window, not of the data: the elements past it
are there, and masking their values is the kernel's business (BC106 is about the data's end). A
window clamped to the row's length (``min(seq, width)``) can end at the data."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

_CAUSAL = """
__global__ void causal_copy(float *y, const float *x, int width) {
  int row = blockIdx.x;
  int seq = blockIdx.x + 1;  // a causal row: its first blockIdx.x + 1 elements count
  int c = 4 * threadIdx.x;
  if (c < LIMIT) {
    float4 v = *reinterpret_cast<const float4 *>(x + row * width + c);
    *reinterpret_cast<float4 *>(y + row * width + c) = v;
  }
}
"""


def test_a_limit_that_moves_with_the_block_ends_a_window_not_the_data() -> None:
    """Past the causal length the row's elements are still there: the lanes are the kernel's to
    mask (Megatron's fix of 3b12ab159d masks their values and keeps the vector load)."""
    assert findings(_CAUSAL.replace("LIMIT", "seq"), Language.CUDA) == []


def test_the_same_guard_on_the_row_length_is_bc106() -> None:
    src = _CAUSAL.replace("LIMIT", "width")
    assert findings(src, Language.CUDA) == [(line_of(src, "float4 v ="), "BC106"), (line_of(src, "= v;"), "BC106")]


def test_a_window_clamped_to_the_row_length_ends_at_the_data() -> None:
    """``min(seq, width)`` can be the row's end: the vector past it leaves the row."""
    src = _CAUSAL.replace("LIMIT", "min(seq, width)")
    assert findings(src, Language.CUDA) == [(line_of(src, "float4 v ="), "BC106"), (line_of(src, "= v;"), "BC106")]
