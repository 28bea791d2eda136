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


# vllm flint's RMSNorm: one program per row of x, the tile x's last dimension; the residual and
# the output are read and written as rows of that length too
_ROWS_OF_AN_OPERAND = _HEAD + textwrap.dedent('''\
    @triton.jit
    def k(x_ptr, res_ptr, out_ptr, x_stride, H: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        offs = tl.arange(0, H)
        s = tl.load(x_ptr + row * x_stride + offs) + tl.load(res_ptr + row * H + offs)
        tl.store(out_ptr + row * H + offs, s)


    def launch(x, residual, out, other):
        SIZES
        k[GRID](x, residual, out, x.stride(0), H=h)
    ''')


def _rows_of_an_operand(sizes: str = "m, h = x.shape", grid: str = "(m,)") -> str:
    return _ROWS_OF_AN_OPERAND.replace("SIZES", sizes).replace("GRID", grid)


def test_rows_as_long_as_an_operands_last_dimension_are_whole_in_every_operand() -> None:
    for sizes in ("m, h = x.shape", "m = x.shape[0]; h = x.shape[-1]", "m, h = *x.shape,"):
        assert findings(_rows_of_an_operand(sizes)) == [], sizes


def test_a_middle_dimension_or_one_of_a_tensor_the_kernel_never_sees_is_still_reported() -> None:
    for sizes in ("m, h, w = x.shape", "m, h = other.shape"):
        src = _rows_of_an_operand(sizes)
        assert findings(src) == [(line_of(src, "s = tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")], sizes


def test_rows_of_an_operands_last_dimension_under_a_ceiling_grid_are_still_reported() -> None:
    src = _rows_of_an_operand(grid="(triton.cdiv(m * h, h),)")
    assert findings(src) == [(line_of(src, "s = tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")]


# vllm inkling's qkv preparation: one program per (token, head), the head taken modulo the head
# count the host passes, read whole inside a token's row of runtime stride
_HEADS_MODULO = _HEAD + textwrap.dedent('''\
    @triton.jit
    def k(x_ptr, o_ptr, stride_t, NH: tl.constexpr, HEAD_DIM: tl.constexpr):
        block = tl.program_id(0)
        dims = tl.arange(0, HEAD_DIM)
        token = block // NH
        head = block % NH
        x = tl.load(x_ptr + token * stride_t + head * HEAD_DIM + dims)
        tl.store(o_ptr + token * stride_t + head * HEAD_DIM + dims, x)


    def launch(x, out, num_heads, head_dim):
        k[(x.shape[0] * num_heads,)](x, out, x.stride(0), NH=COUNT, HEAD_DIM=SIZE)
    ''')


def test_a_head_taken_modulo_the_host_head_count_is_one_whole_item() -> None:
    src = _HEADS_MODULO.replace("COUNT", "num_heads").replace("SIZE", "head_dim")
    assert findings(src) == []


def test_a_remainder_item_of_a_tile_the_host_cuts_an_extent_into_is_still_reported() -> None:
    # aiter's lean attention: `q_idx = tile_idx % batch_size` rows of BLOCK_M per batch, while the
    # host counts `num_m_blocks = cdiv(max_seqlen_q, BLOCK_M)`: BLOCK_M tiles the query length
    src = _HEADS_MODULO.replace("COUNT", "num_heads").replace("SIZE", "head_dim")
    src = src.replace("stride_t, NH", "stride_t, n_blocks, NH").replace("x.stride(0), NH", "x.stride(0), triton.cdiv(x.shape[1], head_dim), NH")
    assert findings(src) == [(line_of(src, "x = tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")]


def test_a_head_modulo_a_ceiling_or_a_rounded_head_size_is_still_reported() -> None:
    for count, size in (("triton.cdiv(x.shape[1], head_dim)", "head_dim"), ("x.shape[1] // head_dim", "head_dim"),
                        ("num_heads", "triton.next_power_of_2(head_dim)"), ("num_heads", "64")):
        src = _HEADS_MODULO.replace("COUNT", count).replace("SIZE", size)
        assert findings(src) == [(line_of(src, "x = tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")], count
