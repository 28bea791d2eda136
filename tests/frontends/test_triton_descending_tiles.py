"""Tiles laid down from an end (``rows = end - (pid + 1) * BLOCK_M + arange(0, BLOCK_M)``, the last
``state_len`` tokens of a sequence) stay below ``end``; their partial tile is at the bottom, and
``rows >= start`` is its guard. Without the ``- BLOCK_M`` the first tile runs past ``end`` and the
rows stay unguarded."""

from __future__ import annotations

from tests.checking import findings, line_of

KERNEL = '''\
import triton
import triton.language as tl


@triton.jit
def last_states(X, CU, STATES, state_len, dim, stride_x, stride_s, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(2)
    end = tl.load(CU + b + 1)
    start = tl.maximum(tl.load(CU + b), end - state_len)
    rows = end - (tl.program_id(1) @TOP@) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(X + rows[:, None] * stride_x + cols[None, :], mask=(rows[:, None] >= start) & (cols[None, :] < dim),
                other=0)
    out = state_len - (tl.program_id(1) @TOP@) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(STATES + b * state_len * stride_s + out[:, None] * stride_s + cols[None, :], x,
             mask=(out[:, None] >= 0) & (cols[None, :] < dim))
'''


def test_tiles_laid_down_from_an_end_are_guarded_by_their_lower_bound() -> None:
    assert findings(KERNEL.replace("@TOP@", "+ 1")) == []


def test_tiles_that_start_at_the_end_run_past_it() -> None:
    src = KERNEL.replace("@TOP@", "+ 0")
    found = findings(src)
    assert (line_of(src, "x = tl.load("), "BC103") in found
    assert (line_of(src, "tl.store(STATES"), "BC103") in found
