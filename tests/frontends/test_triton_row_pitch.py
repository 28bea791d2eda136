"""A tile that steps whole rows: ``tok * (num_heads * S) + head * S + arange(0, S)`` reads one head
of a token, in bounds because a row holds a runtime count (``num_heads``) of whole tiles; the same
shape with a compile-time count (``pid * UNROLL * BLOCK``) is a group of tiles whose last can be
partial."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of

HEADER = "import triton\nimport triton.language as tl\n\n\n"


def test_runtime_count_of_whole_tiles_per_row_is_in_bounds() -> None:
    src = HEADER + textwrap.dedent('''\
        @triton.jit
        def k(out, q, num_heads, HEAD_SIZE: tl.constexpr):
            tok = tl.program_id(0)
            head = tl.program_id(1)
            offs = tok * (num_heads * HEAD_SIZE) + head * HEAD_SIZE + tl.arange(0, HEAD_SIZE)
            x = tl.load(q + offs)
            tl.store(out + offs, x * 2)
        ''')
    assert findings(src) == []


def test_compile_time_count_of_tiles_is_still_a_tile_offset() -> None:
    src = HEADER + textwrap.dedent('''\
        @triton.jit
        def k(out, x_ptr, n, UNROLL: tl.constexpr, BLOCK: tl.constexpr):
            pid = tl.program_id(0)
            u = tl.program_id(1)
            offs = pid * (UNROLL * BLOCK) + u * BLOCK + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs)
            tl.store(out + offs, x * 2)
        ''')
    assert findings(src) == [(line_of(src, "tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")]


def test_row_pitch_without_the_tile_is_no_layout_fact() -> None:
    src = HEADER + textwrap.dedent('''\
        @triton.jit
        def k(out, q, n_cols, BLOCK: tl.constexpr):
            row = tl.program_id(0)
            col = tl.program_id(1)
            offs = row * n_cols + col * BLOCK + tl.arange(0, BLOCK)
            tl.store(out + offs, tl.load(q + offs))
        ''')
    line = line_of(src, "tl.store(")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]
