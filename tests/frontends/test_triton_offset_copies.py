"""A whole tile ``arange(0, C)`` can be partial where the kernel compares that lane itself with an
extent (``cols < N`` beside an unmasked ``w + cols``: C is N rounded up). A comparison of an
offset copy of it (``seq = chunk_start + offs_c``, a position in a sequence) bounds the copy's
walk, not the whole tile: a ``[C, C]`` block read with ``offs_c`` alone stays whole."""

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
        block = tl.load(blocks + pid * stride_b + offs_c[:, None] * C + offs_c[None, :])
        tl.store(seq_out + offs_seq, tl.sum(block, 1), mask=MASK)
    ''')


def test_a_bound_on_an_offset_copy_leaves_the_whole_tile_whole() -> None:
    assert findings(_KERNEL.replace("MASK", "offs_seq < end")) == []


def test_a_bound_on_the_lane_itself_makes_the_whole_tile_partial() -> None:
    src = _KERNEL.replace("MASK", "(offs_seq < end) & (offs_c < end - start)")
    assert findings(src) == at(src, "block = tl.load", "BC101")
