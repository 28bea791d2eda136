"""A program that takes a runtime count of tiles (``pid * (tiles_per_cta * TILE)``, walked by a loop
up to the extent) owns a group of tiles whose last one can be partial: the product of a runtime
count and the tile is no row pitch of whole tiles (a rule that read it as one, to silence
``tok * (num_heads * S) + head * S + arange(0, S)``, lost 55 benchmark catches and was reverted)."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of


def test_a_runtime_count_of_tiles_per_program_still_needs_the_mask() -> None:
    src = "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent('''\
        @triton.jit
        def k(in_ptr, out_ptr, N, tiles_per_cta, TILE: tl.constexpr):
            pid = tl.program_id(0)
            first = pid * (tiles_per_cta * TILE)
            end = tl.minimum(first + tiles_per_cta * TILE, N)
            acc = tl.zeros((TILE,), dtype=tl.float32)
            for start in range(first, end, TILE):
                offsets = start + tl.arange(0, TILE)
                acc += tl.load(in_ptr + offsets)
            tl.store(out_ptr + pid, tl.sum(acc, 0))
        ''')
    assert findings(src) == [(line_of(src, "tl.load("), "BC101")]
