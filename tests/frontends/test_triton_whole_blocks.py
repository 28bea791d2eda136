"""A block pointer whose block is as wide as the shape it names along an axis, from offset 0,
covers that axis whole: ``shape=(T, D)`` in blocks of ``(BLOCK_C, D)`` needs ``boundary_check``
along T only, even where another block pointer over the same base checks its own second axis."""

from __future__ import annotations

from tests.checking import findings, line_of

HEADS = """\
import triton
import triton.language as tl


@triton.jit
def rows(q_ptr, o_ptr, T, H, D: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_c = tl.program_id(0)
    p = tl.make_block_ptr(base=q_ptr, shape=(T, D), strides=(H * D, 1), offsets=(pid_c * BLOCK_C, OFFSET),
                          block_shape=(BLOCK_C, WIDTH), order=(1, 0))
    x = tl.load(p, boundary_check=(0,))
    pt = tl.make_block_ptr(base=q_ptr, shape=(D, T), strides=(1, H * D), offsets=(0, pid_c * BLOCK_C),
                           block_shape=(D, BLOCK_C), order=(0, 1))
    y = tl.load(pt, boundary_check=(1,))
    offs = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    tl.store(o_ptr + offs, tl.sum(x, 1) + tl.sum(y, 0), mask=offs < T)
"""


def test_a_block_as_wide_as_its_shape_needs_no_check_along_it() -> None:
    assert findings(HEADS.replace("OFFSET", "0").replace("WIDTH", "D")) == []


def test_a_block_as_wide_as_its_shape_but_shifted_reads_past_the_row() -> None:
    # the same block from column 16 reads 16 columns past D
    src = HEADS.replace("OFFSET", "16").replace("WIDTH", "D")
    assert findings(src) == [(line_of(src, "x = tl.load(p"), "BC103")]


def test_a_narrower_block_over_the_row_still_needs_its_check() -> None:
    src = HEADS.replace("OFFSET", "0").replace("WIDTH", "BLOCK_D").replace("BLOCK_C: tl.constexpr",
                                                                          "BLOCK_C: tl.constexpr, BLOCK_D: tl.constexpr")
    assert findings(src) == [(line_of(src, "x = tl.load(p"), "BC103")]
