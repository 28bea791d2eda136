"""A reversed lane (``pos = 2 * K - 1 - arange(0, K)``) guarded by a mask on that same position is
bounded exactly: the constant belongs to the position's base, not to an index one past the mask.
A descending index's constants are never read as a lane offset; ``<=`` still admits the end."""

from __future__ import annotations

from tests.checking import findings, line_of

KERNEL = '''\
import triton
import triton.language as tl


@triton.jit
def tail_top(x_ptr, out_ptr, n, K: tl.constexpr):
    offs = tl.arange(0, K)
    pos = 2 * K - 1 - offs
    x = tl.load(x_ptr + @INDEX@, mask=pos < n, other=0.0)
    tl.store(out_ptr + pos, x, mask=pos < n)
'''


def test_a_reversed_lane_under_its_own_mask_is_bounded() -> None:
    assert findings(KERNEL.replace("@INDEX@", "pos")) == []


def test_an_inclusive_mask_on_a_reversed_lane_is_an_off_by_one() -> None:
    src = KERNEL.replace("@INDEX@", "pos").replace("mask=pos < n, other=0.0", "mask=pos <= n, other=0.0")
    assert (line_of(src, "mask=pos <= n"), "BC104") in findings(src)
