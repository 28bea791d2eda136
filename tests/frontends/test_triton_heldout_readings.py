"""Readings that held-out historical fixes (bugs projects shipped and later fixed, collected
without regard to boundcheck) showed missing, each beside a near variant that stays silent:

- a block pointer's axis checked on one pointer can be partial on another of the same shape and
  block (native-sparse-attention 3c7858e: the output stored with ``boundary_check=(0,)`` while
  the loads check the head dimension, whose block is ``next_power_of_2(head_dim)``);
- a lane's lower bound alone (``mask=t > 0`` before reading at ``t - 1``) leaves its top unbounded
  (accelerated-scan 2b12915);
- tiles laid down from the rounded-up end ``cdiv(n, B) * B`` have their partial tile on top;
- ``if B != n: m = offs < n else: m = tl.full(.., 1)`` is the bound (aiter d7caa3d)."""

from __future__ import annotations

from tests.checking import findings, line_of

BLOCKS = '''\
import triton
import triton.language as tl


@triton.jit
def fwd(q_ptr, o_ptr, M, HEAD_DIM, BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    q_ptrs = tl.make_block_ptr(q_ptr, (M, HEAD_DIM), (HEAD_DIM, 1), (pid * BLOCK_M, 0), (BLOCK_M, BLOCK_D), (1, 0))
    q = tl.load(q_ptrs, boundary_check=(0, 1), padding_option="zero")
    o_ptrs = tl.make_block_ptr(o_ptr, (M, {o_dim}), ({o_dim}, 1), (pid * BLOCK_M, 0), (BLOCK_M, BLOCK_D), (1, 0))
    tl.store(o_ptrs, q * 2, boundary_check={check})
'''


def test_an_axis_checked_on_one_block_pointer_can_be_partial_on_another() -> None:
    src = BLOCKS.format(o_dim="HEAD_DIM", check="(0,)")
    assert findings(src) == [(line_of(src, "tl.store(o_ptrs"), "BC103")]


def test_both_axes_checked_or_another_extent_are_silent() -> None:
    assert findings(BLOCKS.format(o_dim="HEAD_DIM", check="(0, 1)")) == []
    assert findings(BLOCKS.format(o_dim="OTHER_DIM", check="(0,)").replace("M, HEAD_DIM,", "M, HEAD_DIM, OTHER_DIM,")) == []


def test_a_block_as_wide_as_its_shape_is_whole() -> None:
    # the loads check an axis whose block is the whole shape (`(M, D)` in blocks of D): no tail
    src = BLOCKS.format(o_dim="HEAD_DIM", check="(0,)").replace("(BLOCK_M, BLOCK_D)", "(BLOCK_M, HEAD_DIM)")
    assert "(BLOCK_M, HEAD_DIM), (1, 0))\n    tl.store" in src
    assert findings(src) == []


SCAN = '''\
import triton
import triton.language as tl


@triton.jit
def backward(states, d_out, d_forget, seqlen, BLOCK: tl.constexpr):
    idx = tl.arange(0, BLOCK)
    nblocks = tl.cdiv(seqlen, BLOCK)
    for block_id in tl.range(0, nblocks):
        t = {top} - 1 - block_id) * BLOCK + idx
        do = tl.load(d_out + t, mask=t < seqlen, other=0.0)
        shifted = tl.load(states + t - 1, mask={mask}, other=0.0)
        tl.store(d_forget + t, shifted * do, mask=t < seqlen)
'''


def test_a_lower_bound_alone_leaves_the_top_of_a_rounded_up_walk_unbounded() -> None:
    src = SCAN.format(top="(nblocks", mask="t > 0")
    assert findings(src) == [(line_of(src, "shifted = tl.load"), "BC101")]


def test_a_ceiling_written_out_is_a_rounded_up_end_too() -> None:
    src = SCAN.format(top="(nblocks", mask="t > 0").replace("tl.cdiv(seqlen, BLOCK)", "(seqlen + BLOCK - 1) // BLOCK")
    assert findings(src) == [(line_of(src, "shifted = tl.load"), "BC101")]


def test_both_bounds_are_silent() -> None:
    assert findings(SCAN.format(top="(nblocks", mask="(t > 0) & (t < seqlen)")) == []


MERGED = '''\
import triton
import triton.language as tl


@triton.jit
def reduce_splits(acc_ptr, out_ptr, M, stride_k, ACTUAL_KSPLIT: tl.constexpr, KSPLIT_POW2: tl.constexpr,
                  BLOCK_M: tl.constexpr):
    ks_offs = tl.arange(0, KSPLIT_POW2)
    if KSPLIT_POW2 != ACTUAL_KSPLIT:
        ks_mask = ks_offs < ACTUAL_KSPLIT
    else:
        ks_mask = tl.full((1,), 1, dtype=tl.int1)
    m_offs = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = m_offs < M
    a = tl.load(acc_ptr + ks_offs[:, None] * stride_k + m_offs[None, :], mask=ks_mask[:, None] & m_mask[None, :],
                other=0.0)
    b = tl.load(acc_ptr + ks_offs[:, None] * stride_k + m_offs[None, :], mask={mask}, other=0.0)
    tl.store(out_ptr + m_offs, tl.sum(a, 0) + tl.sum(b, 0), mask=m_mask)
'''


def test_a_mask_true_on_every_lane_in_one_branch_is_the_other_branch_s_bound() -> None:
    src = MERGED.format(mask="m_mask[None, :]")
    assert findings(src) == [(line_of(src, "b = tl.load"), "BC103")]
    assert findings(MERGED.format(mask="ks_mask[:, None] & m_mask[None, :]")) == []


UNIT = '''\
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({{"XBLOCK": {a}, "RBLOCK": 1024}}), triton.Config({{"XBLOCK": {b}, "RBLOCK": 2048}})],
                 key=["xnumel", "rnumel"])
@triton.jit
def row_mean(x_ptr, out_ptr, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    rbase = tl.arange(0, RBLOCK)[None, :]
    acc = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        acc += tl.load(x_ptr + rindex + rnumel * xindex, mask=rindex < rnumel, other=0.0)
    tl.store(out_ptr + xindex, tl.sum(acc, 1)[:, None] / rnumel, None)
'''


def test_a_tile_every_autotune_config_sets_to_one_is_one_lane() -> None:
    # tritonbench's welford: every config has XBLOCK = 1, so the grid cdiv(xnumel, 1) has no tail
    assert findings(UNIT.format(a=1, b=1)) == []
    src = UNIT.format(a=1, b=2)
    assert (line_of(src, "tl.store(out_ptr"), "BC102") in findings(src)


def test_a_tile_every_launch_sets_to_one_is_one_lane() -> None:
    plain = UNIT[UNIT.index("@triton.jit"):].replace("{{", "{").replace("}}", "}")
    launch = "\n\ndef row_means(x, out):\n    S, D = x.shape\n    row_mean[(S,)](x, out, S, D, XBLOCK={x}, RBLOCK=1024)\n"
    src = "import triton\nimport triton.language as tl\n\n\n" + plain + launch.format(x=1)
    assert findings(src) == []
    src = "import triton\nimport triton.language as tl\n\n\n" + plain + launch.format(x=2)
    assert (line_of(src, "tl.store(out_ptr"), "BC102") in findings(src)


TILEWISE = '''\
import triton
import triton.language as tl


@triton.jit
def copy_tiles(dst_ptr, src_ptr, nelems, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    NP = tl.num_programs(0)
    num_tiles = nelems // BLOCK
    for tile_id in range(pid, num_tiles, NP):
        offs = tile_id * BLOCK + tl.arange(0, BLOCK)
        tl.store(dst_ptr + offs, tl.load(src_ptr + offs))
{tail}'''

TAIL = '''\
    if nelems % BLOCK:
        if pid == NP - 1:
            offs = num_tiles * BLOCK + tl.arange(0, BLOCK)
            mask = offs < nelems
            tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)
'''


def test_a_grid_stride_loop_over_whole_tiles_with_a_peeled_tail_is_right() -> None:
    # Triton-distributed's tile-wise copy: tiles t * BLOCK for t < nelems // BLOCK are whole, and
    # the last program copies the tile the floor leaves, masked
    assert findings(TILEWISE.format(tail=TAIL)) == []


def test_without_the_tail_the_floor_skips_it() -> None:
    src = TILEWISE.format(tail="")
    assert findings(src) == [(line_of(src, "for tile_id in range("), "BC301")]


def test_a_literal_true_in_the_other_branch_excludes_nothing_either() -> None:
    src = MERGED.replace("ks_mask = ks_offs < ACTUAL_KSPLIT", "ks_mask = ks_offs[:, None] < ACTUAL_KSPLIT") \
        .replace("ks_mask = tl.full((1,), 1, dtype=tl.int1)", "ks_mask = True") \
        .replace("mask=ks_mask[:, None] & m_mask[None, :],", "mask=ks_mask & m_mask[None, :],") \
        .format(mask="m_mask[None, :]")
    assert findings(src) == [(line_of(src, "b = tl.load"), "BC103")]


HELPER_IN_WALK = '''\
import triton
import triton.language as tl


@triton.jit
def _diff_tile(dst_ptr, src_ptr, tile, nelems, BLOCK: tl.constexpr):
    offs = tile * BLOCK + tl.arange(0, BLOCK)
    mask = offs < nelems
    x = tl.load(src_ptr + offs, mask=mask)
    x_next = tl.load(src_ptr + offs + 1, mask=offs + 1 < nelems)
    tl.store(dst_ptr + offs, x_next - x, mask=mask)


@triton.jit
def diff_tiles(dst_ptr, src_ptr, nelems, tiles_per_program, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    NP = tl.num_programs(0)
    for j in range(0, tiles_per_program):
        _diff_tile(dst_ptr, src_ptr, pid + j * NP, nelems, BLOCK)
'''


def test_a_masked_helper_in_a_grid_stride_walk_is_right() -> None:
    assert findings(HELPER_IN_WALK) == []


def test_a_helper_s_access_in_the_walk_is_no_peeled_tail_of_its_neighbour() -> None:
    # FlagGems unique's `pid + j * ctas_num` walks: the helper's lines lie outside the loop's, but
    # its accesses are made in the walk, so the masked read beside the unmasked one is no tail the
    # walk leaves to it (reading by line ranges took it for one, and missed the dropped mask)
    src = HELPER_IN_WALK.replace("x = tl.load(src_ptr + offs, mask=mask)", "x = tl.load(src_ptr + offs)")
    assert findings(src) == [(line_of(src, "x = tl.load(src_ptr + offs)"), "BC101")]


CAUSAL_KEYS = '''\
import triton
import triton.language as tl


@triton.jit
def causal_rows(k_ptr, out_ptr, N_CTX: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M], tl.float32)
    hi = min((N_CTX + BLOCK_N - 1) // BLOCK_N, ((pid + 1) * BLOCK_M + BLOCK_N - 1) // BLOCK_N) * BLOCK_N
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + offs_n{mask})
        acc += tl.sum(k, 0)
    tl.store(out_ptr + offs_m, acc, mask=offs_m < N_CTX)
'''


def test_keys_up_to_the_end_of_the_own_block_can_hold_a_partial_tile() -> None:
    # the loop runs to the ceiling of the sequence or of the program's own block, whichever is
    # lower: a program id inside min(...) is no start of the own tile, below which tiles are whole
    src = CAUSAL_KEYS.format(mask="")
    assert findings(src) == [(line_of(src, "k = tl.load"), "BC101")]
    assert findings(CAUSAL_KEYS.format(mask=", mask=offs_n < N_CTX, other=0.0")) == []


FIXED_SHAPE = '''\
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({{"BLOCK_M": {m}}}), triton.Config({{"BLOCK_M": 64}})], key=[])
@triton.jit
def scale_rows(q_ptr, o_ptr, {param}BLOCK_M: tl.constexpr, D: tl.constexpr):
    {local}
    q_blk = tl.make_block_ptr(q_ptr, (N_CTX, D), (D, 1), (tl.program_id(0) * BLOCK_M, 0), (BLOCK_M, D), (1, 0))
    o_blk = tl.make_block_ptr(o_ptr, (N_CTX, D), (D, 1), (tl.program_id(0) * BLOCK_M, 0), (BLOCK_M, D), (1, 0))
    tl.store(o_blk, tl.load(q_blk) * 2.0)
'''


def test_a_fixed_extent_cut_by_tiles_that_all_divide_it_has_no_partial_tile() -> None:
    # inductor's template kernels: N_CTX = 4096 written in the kernel, every config's BLOCK_M divides it
    assert findings(FIXED_SHAPE.format(m=128, param="", local="N_CTX = 4096")) == []


def test_a_config_that_does_not_divide_it_or_a_runtime_extent_leaves_the_tile_partial() -> None:
    for src in (FIXED_SHAPE.format(m=96, param="", local="N_CTX = 4096"),
                FIXED_SHAPE.format(m=128, param="N_CTX, ", local="pass")):
        assert [c for _, c in findings(src)] == ["BC101", "BC102"]


SEGMENTS = '''\
import triton
import triton.language as tl


@triton.jit
def first_head(x_ptr, out_ptr, HEAD: tl.constexpr, HV: tl.constexpr):
    i_seq = tl.program_id(0)
    SEG: tl.constexpr = {seg}
    for i in tl.static_range(2):
        base = x_ptr + i_seq * 2 * SEG + i * SEG
        q = tl.load(base + tl.arange(0, HEAD))
        tl.store(out_ptr + i_seq * 2 * HEAD + i * HEAD + tl.arange(0, HEAD), q, mask=tl.arange(0, HEAD) < HEAD)
'''


def test_a_program_stepping_by_a_sum_of_sizes_walks_segments_not_tiles() -> None:
    # aiter's fused_qkvzba_split: i * (2 * HEAD + HV) + arange(0, HEAD) is the head at the start of
    # segment i, not the i-th tile of HEAD lanes
    assert findings(SEGMENTS.format(seg="HEAD * 2 + HV")) == []


def test_a_sum_of_multiples_of_the_tile_still_steps_by_it() -> None:
    src = SEGMENTS.format(seg="HEAD * 2 + HEAD")
    assert findings(src) == [(line_of(src, "q = tl.load"), "BC101")]


def test_a_fixed_axis_says_nothing_of_another_axis_with_the_same_tile() -> None:
    # fla solve_tril: a (T, 16) block pointer in blocks of (16, 16); the 16 columns are whole, the
    # T rows are not (a first version stated the fact by tile, and so for both axes)
    src = FIXED_SHAPE.format(m=128, param="T, ", local="pass").replace(
        "(N_CTX, D), (D, 1), (tl.program_id(0) * BLOCK_M, 0), (BLOCK_M, D)",
        "(T, 16), (16, 1), (tl.program_id(0) * 16, 0), (16, 16)")
    assert [c for _, c in findings(src)] == ["BC101", "BC102"]
