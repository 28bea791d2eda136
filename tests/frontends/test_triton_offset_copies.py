"""A whole tile ``arange(0, C)`` can be partial where the kernel compares that lane itself with an
extent (``cols < N`` beside an unmasked ``w + cols``: C is N rounded up). A comparison of a copy
of it shifted by runtime data (``seq = start + offs_c``, a varlen position) bounds that copy's
walk: an access along the copy is partial without it, while a ``[C, C]`` block read with
``offs_c`` alone stays whole."""

from __future__ import annotations

import textwrap

from tests.checking import at, findings

_KERNEL = "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent('''\
    @triton.jit
    def k(blocks, seq_out, cu_seqlens, stride_b, C: tl.constexpr):
        pid = tl.program_id(0)
        start = tl.load(cu_seqlens + pid)
        end = tl.load(cu_seqlens + pid + 1)
        offs_c = tl.arange(0, C)
        offs_seq = start + offs_c
        block = tl.load(blocks + pid * stride_b + ROWS[:, None] * C + offs_c[None, :])
        tl.store(seq_out + offs_seq, tl.sum(block, 1), mask=MASK)
    ''')


def _kernel(rows: str, mask: str) -> str:
    return _KERNEL.replace("ROWS", rows).replace("MASK", mask)


def test_a_bound_on_a_shifted_copy_leaves_the_whole_tile_whole() -> None:
    assert findings(_kernel("offs_c", "offs_seq < end")) == []


def test_an_access_along_the_shifted_copy_is_partial_without_that_bound() -> None:
    src = _kernel("offs_seq", "offs_seq < end")
    assert findings(src) == at(src, "block = tl.load", "BC101")


def test_a_bound_on_the_lane_itself_makes_the_whole_tile_partial() -> None:
    src = _kernel("offs_c", "(offs_seq < end) & (offs_c < end - start)")
    assert findings(src) == at(src, "block = tl.load", "BC101")
