"""A helper whose tile parameter its caller binds to a number (``copy_tiles(dst, src, n, 8192)``
through ``COPY_BLOCK_SIZE: tl.constexpr = 8192``) steps by that tile where its offsets read
``tile_id * 8192``: a grid-stride loop over ``n // BLOCK_SIZE`` whole tiles with a masked tail after
it is in bounds, as it is where the tile stays a name. The same loop over ``cdiv(n, BLOCK_SIZE)``
tiles reads past the end and stays reported."""

from __future__ import annotations

from tests.checking import at, findings

COPY = """\
import triton
import triton.language as tl


@triton.jit
def copy_tiles(dst_ptr, src_ptr, nelems, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    NUM_COPY_SMS = tl.num_programs(0)
    num_tiles = TILES
    for tile_id in range(pid, num_tiles, NUM_COPY_SMS):
        offs = tile_id * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        tl.store(dst_ptr + offs, tl.load(src_ptr + offs))
    if nelems % BLOCK_SIZE:
        if pid == NUM_COPY_SMS - 1:
            offs = num_tiles * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
            mask = offs < nelems
            tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


@triton.jit
def exchange(dst, src, nnodes, max_tokens, topk):
    COPY_BLOCK_SIZE: tl.constexpr = 8192
    copy_tiles(dst, src, nnodes * max_tokens * topk, COPY_BLOCK_SIZE)
"""


def test_a_tile_bound_to_a_number_steps_the_whole_tile_loop() -> None:
    assert findings(COPY.replace("TILES", "nelems // BLOCK_SIZE")) == []


def test_a_loop_over_the_partial_tile_stays_reported() -> None:
    src = COPY.replace("TILES", "tl.cdiv(nelems, BLOCK_SIZE)")
    assert findings(src) == at(src, "tl.store(dst_ptr + offs, tl.load(src_ptr + offs))", "BC101", "BC102")
