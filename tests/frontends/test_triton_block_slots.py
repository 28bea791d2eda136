"""A block pointer whose block of S sits at ``(i % H) * S`` in an axis of ``H * S`` (``i_h = i_bh
% H``) writes slot ``i % H`` of H whole blocks: in bounds with no ``boundary_check``. A slot index
nothing wraps (``i_bh * S``), or one past the wrap (``(i_h + 1) * S``), can pass the last block and
stays reported."""

from __future__ import annotations

import pytest

from tests.checking import at, findings

SLOTS = """\
import triton
import triton.language as tl


@triton.jit
def topk_rows(out, x, H, S: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    p_x = tl.make_block_ptr(x + i_t * H * S, (H * S,), (1,), (OFFSET,), (S,), (0,))
    p_o = tl.make_block_ptr(out + i_t * H * S, (H * S,), (1,), (OFFSET,), (S,), (0,))
    tl.store(p_o, tl.load(p_x))
"""


def test_a_wrapped_slot_of_whole_blocks_is_in_bounds() -> None:
    assert findings(SLOTS.replace("OFFSET", "i_h * S")) == []


@pytest.mark.parametrize("offset", ["i_bh * S", "(i_h + 1) * S"])
def test_a_slot_that_can_pass_the_last_block_stays_reported(offset: str) -> None:
    src = SLOTS.replace("OFFSET", offset)
    assert findings(src) == at(src, "tl.store(p_o, tl.load(p_x))", "BC101", "BC102")
