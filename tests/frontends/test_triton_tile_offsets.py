"""Tile offsets the frontend read as whole tiles: a chunk index loaded from memory (varlen
kernels), and a tile named by a compile-time alias (``PAIRED: tl.constexpr = SPLIT * 2``). Each
unmasked access is paired with its masked twin, and the rule code and line are asserted."""

from __future__ import annotations

from tests.checking import findings, line_of

VARLEN = """\
import triton
import triton.language as tl


@triton.jit
def add_rows(dg, chunk_indices, b_ptr, T, HQ: tl.constexpr, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t = tl.program_id(0)
    if IS_VARLEN:
        i_t = tl.load(chunk_indices + i_t * 2 + 1).to(tl.int32)
    o_t = i_t * BT + tl.arange(0, BT)
    b = tl.load(b_ptr + o_t, mask=o_t < T, other=0.0)
    tl.atomic_add(dg + o_t * HQ, b{mask})
"""


def test_a_loaded_chunk_index_walks_its_dimension_in_tiles() -> None:
    """fla path_attn before fla-org/flash-linear-attention@a9dac8b: the last chunk's atomic add
    ran past T."""
    src = VARLEN.format(mask="")
    assert findings(src) == [(line_of(src, "tl.atomic_add"), "BC102")]


def test_the_masked_atomic_add_is_clean() -> None:
    assert findings(VARLEN.format(mask=", mask=o_t < T")) == []


ALIAS = """\
import triton
import triton.language as tl


@triton.jit
def absmax(a_ptr, absmax_ptr, n, n_blocks, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    PAIRED: tl.constexpr = SPLIT * 2
    start = tl.program_id(0) * PAIRED
    offs = start * BLOCK + tl.arange(0, PAIRED * BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n, other=0.0)
    m = tl.max(tl.abs(tl.reshape(a, (PAIRED, BLOCK))), axis=1)
    rows = start + tl.arange(0, PAIRED)
    tl.store(absmax_ptr + rows, m{mask})
"""


def test_a_tile_named_by_an_alias_is_stepped_by_the_program() -> None:
    """bitsandbytes before bitsandbytes-foundation/bitsandbytes@d8ccdd9: the absmax store wrote
    past the block count."""
    src = ALIAS.format(mask="")
    assert findings(src) == [(line_of(src, "tl.store"), "BC102")]


def test_the_masked_alias_store_is_clean() -> None:
    assert findings(ALIAS.format(mask=", mask=rows < n_blocks")) == []


def test_a_tile_named_by_a_quotient_is_left_to_the_packed_tile_reading() -> None:
    """``NUM_QUANT_BLOCKS: tl.constexpr = BLOCK_N // QUANT`` (aiter's mxfp4 scales, one per
    QUANT columns): whether those tiles are whole follows N's, which the alias does not carry."""
    src = ALIAS.format(mask="").replace("PAIRED: tl.constexpr = SPLIT * 2", "PAIRED: tl.constexpr = BLOCK // SPLIT")
    assert findings(src) == []
