"""``head * S + arange(0, S)`` with one program per head (a grid dimension that counts heads) and S
the head size the host holds: each program runs one whole item, and no tile is partial. The same
text under a grid that is a ceiling of an extent by the tile, or with a tile that is a tuning or
rounded size, or one the kernel masks against an extent elsewhere, is a block of a longer extent
and stays reported."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of
from tests.frontends.test_triton_stated_shapes import FUSED_QKV

_HEAD = "import torch\nimport triton\nimport triton.language as tl\n\n\n"

# applied-ai's paged attention: one program per (sequence, head), the query's head read whole
_PER_HEAD = _HEAD + textwrap.dedent('''\
    @triton.jit
    def k(q_ptr, k_ptr, o_ptr, stride_seq, stride_block, BLOCK_SIZE: tl.constexpr, HEAD_SIZE: tl.constexpr):
        seq = tl.program_id(0)
        head = tl.program_id(1).to(tl.int64)
        q = tl.load(q_ptr + seq * stride_seq + head * HEAD_SIZE + tl.arange(0, HEAD_SIZE))
        blk = tl.load(k_ptr + seq * stride_block + head * HEAD_SIZE * BLOCK_SIZE
                      + BLOCK_SIZE * tl.arange(0, HEAD_SIZE) + seq % BLOCK_SIZE)
        EXTRA
        tl.store(o_ptr + seq * stride_seq + head * HEAD_SIZE + tl.arange(0, HEAD_SIZE), q * blk)


    def launch(q, key_cache, out, num_seqs, num_heads, head_size):
        k[GRID](q, key_cache, out, q.stride(0), key_cache.stride(0), BLOCK_SIZE=16, HEAD_SIZE=SIZE)
    ''')


def _per_head(grid: str = "(num_seqs, num_heads)", size: str = "head_size", extra: str = "") -> str:
    return _PER_HEAD.replace("GRID", grid).replace("SIZE=SIZE", f"SIZE={size}").replace("EXTRA", extra or "pass")


def _all_reported(src: str) -> list[tuple[int, str]]:
    return [(line_of(src, "q = tl.load("), "BC101"), (line_of(src, "blk = tl.load("), "BC101"),
            (line_of(src, "tl.store(o_ptr + seq"), "BC102")]


def test_a_head_per_program_of_the_host_head_size_is_one_whole_item() -> None:
    assert findings(_per_head()) == []


def test_a_grid_that_is_a_ceiling_by_the_tile_is_still_reported() -> None:
    src = _per_head(grid="(num_seqs, triton.cdiv(num_heads * head_size, head_size))")
    assert findings(src) == _all_reported(src)


def test_a_grid_that_counts_by_the_tiles_value_is_still_reported() -> None:
    src = _per_head(grid="(num_seqs, num_heads * head_size)")
    assert findings(src) == _all_reported(src)


def test_a_rounded_or_literal_tile_is_still_reported() -> None:
    for size in ("triton.next_power_of_2(head_size)", "64"):
        src = _per_head(size=size)
        assert findings(src) == _all_reported(src), size


def test_a_tile_the_kernel_masks_against_an_extent_elsewhere_is_still_reported() -> None:
    extra = "tl.store(o_ptr + head * HEAD_SIZE + tl.arange(0, HEAD_SIZE), q, mask=tl.arange(0, HEAD_SIZE) < stride_seq)"
    src = _per_head(extra=extra)
    assert findings(src) == _all_reported(src)


def test_a_kernel_with_no_launch_in_the_run_is_still_reported() -> None:
    src = _per_head()
    src = src[:src.index("def launch")]
    assert findings(src) == _all_reported(src)


def test_a_head_of_a_fused_row_is_read_whole_whatever_the_row_holds_after_it() -> None:
    # aiter's fused_qkv_split: q heads at the front of a qkv row; with `qh` programs on the head
    # axis and the head size as the tile, only the first qh * head_dim columns are read, so even a
    # row asserted as no multiple of the head size holds them
    src = FUSED_QKV.replace("triton.cdiv(q_size, BLOCK_D)", "qh").replace("CHECK", "assert qkv.shape[-1] == q_size + 2 * kvh")
    assert findings(src) == []
