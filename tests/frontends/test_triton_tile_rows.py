"""``s * D + arange(0, D)`` masked by ``s < S``: each lane tile is one whole row of the tile's width,
and the mask bounds the row, so the access stays inside the ``S * D`` elements. A mask on part of
the row alone (``i < rows_per_prog``, the loop's own count, with ``s = s0 + i``) bounds no row."""

from __future__ import annotations

import textwrap

from tests.checking import at, findings

_KERNEL = "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent('''\
    @triton.jit
    def copy_rows(src, dst, S, rows_per_prog, D: tl.constexpr):
        d = tl.arange(0, D)
        s0 = tl.program_id(0) * rows_per_prog
        for i in range(rows_per_prog):
            s = s0 + i
            v = tl.load(src + s * D + d, mask=MASK, other=0.0)
            tl.store(dst + s * D + d, v, mask=MASK)
    ''')


def test_rows_as_wide_as_the_tile_are_bounded_by_the_row_mask() -> None:
    assert findings(_KERNEL.replace("MASK", "s < S")) == []


def test_a_bound_on_part_of_the_row_bounds_no_row() -> None:
    src = _KERNEL.replace("MASK", "i < rows_per_prog")
    assert findings(src) == [*at(src, "v = tl.load", "BC103"), *at(src, "tl.store(dst", "BC103")]
