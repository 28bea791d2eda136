"""Boundary bugs the Triton frontend used to miss in real kernels; each test pairs the unsafe kernel
with its correctly guarded twin, and asserts the rule code and the line."""

from __future__ import annotations

from tests.checking import findings, line_of


# A [T, BT] matrix per chunk, read transposed: `o_a < BT` holds on every lane (a tautology), so
# only `m_t` bounds the chunk's rows along T.
CHUNK_T = """\
import triton
import triton.language as tl


@triton.jit
def chunk_t(a_ptr, y_ptr, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o_t = i_t * BT + tl.arange(0, BT)
    o_a = tl.arange(0, BT)
    m_t = o_t < T
    m_a = {mask}
    b_a = tl.load(a_ptr + o_a[:, None] + o_t[None, :] * BT, mask=m_a, other=0.0)
    tl.store(y_ptr + o_t, tl.sum(b_a, 0), mask=m_t)
"""


def test_a_mask_left_with_only_an_own_tile_test_does_not_hide_the_tiled_dimension() -> None:
    src = CHUNK_T.format(mask="(o_a[:, None] < BT)")  # a mask, bounding one dimension: a partial guard
    assert findings(src) == [(line_of(src, "b_a = tl.load"), "BC103")]


def test_the_own_tile_test_beside_the_row_bound_is_safe() -> None:
    assert findings(CHUNK_T.format(mask="(o_a[:, None] < BT) & m_t[None, :]")) == []


def test_an_own_tile_mask_alone_says_the_row_holds_one_tile() -> None:
    """``prev`` holds one chunk of BT per sequence: ``o_i < BT`` is the author's whole bound."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def prev_chunk(prev_ptr, y_ptr, H, BT: tl.constexpr):
    i_n = tl.program_id(0)
    o_i = tl.arange(0, BT)
    b = tl.load(prev_ptr + i_n * BT * H + o_i * H, mask=o_i < BT, other=0.0)
    tl.store(y_ptr + i_n * BT * H + o_i * H, b, mask=o_i < BT)
"""
    assert findings(src) == []


# A split of BS elements holds whole chunks of BT (`BS % BT == 0`); that says nothing about T.
SPLITS = """\
import torch
import triton
import triton.language as tl


@triton.jit
def splits(k_ptr, h_ptr, T, K, BT: tl.constexpr, BS: tl.constexpr, BK: tl.constexpr):
    i_k, i_n = tl.program_id(0), tl.program_id(1)
    NT, NS = tl.cdiv(T, BT), tl.cdiv(T, BS)
    o_k = i_k * BK + tl.arange(0, BK)
    b_h = tl.zeros([BK], dtype=tl.float32)
    for i_t in range(NT):
        o_t = i_t * BT + tl.arange(0, BT)
        m_t = o_t < T
        b_k = tl.load(k_ptr + o_k[:, None] + o_t[None, :] * K, mask={mask}, other=0.0)
        b_h += tl.sum(b_k, 1)
    tl.store(h_ptr + (i_n * NS) * K + o_k, b_h, mask=o_k < K)


def run(k, T, K, BT=64, BS=128, BK=32):
    assert BS % BT == 0, "a split holds whole chunks"
    h = torch.empty(triton.cdiv(T, BS), K, device=k.device)
    splits[(triton.cdiv(K, BK), 1)](k, h, T, K, BT=BT, BS=BS, BK=BK)
    return h
"""


def test_a_fact_between_two_tiles_is_no_contract_on_the_extent() -> None:
    src = SPLITS.format(mask="(o_k[:, None] < K)")
    assert findings(src) == [(line_of(src, "b_k = tl.load"), "BC103")]


def test_the_chunk_loop_masked_on_both_dimensions_is_safe() -> None:
    assert findings(SPLITS.format(mask="(o_k[:, None] < K) & m_t[None, :]")) == []


DEVICE_ASSERT = """\
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
{check}
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2.0)
"""


def test_a_device_assert_of_the_divisibility_is_a_contract() -> None:
    src = DEVICE_ASSERT.format(check='    tl.device_assert(N % BLOCK == 0, "N must be a multiple of BLOCK")')
    assert findings(src) == []


def test_without_the_device_assert_the_tail_is_reported() -> None:
    src = DEVICE_ASSERT.format(check="    pass")
    line = line_of(src, "tl.store(")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


# A program reads columns [pid * B, pid * B + B) of V: `pid * B < V` only says the tile starts
# inside V; `(pid + 1) * B <= V` says it ends inside.
TILE_GUARD = """\
import triton
import triton.language as tl


@triton.jit
def head(v_ptr, y_ptr, V, B: tl.constexpr):
    i_v = tl.program_id(0)
    o_v = i_v * B + tl.arange(0, B)
    if {test}:
        b_v = tl.load(v_ptr + o_v)
        tl.store(y_ptr + o_v, b_v)
"""


def test_a_guard_on_the_tile_start_leaves_the_tile_partial() -> None:
    src = TILE_GUARD.format(test="i_v * B < V")
    assert findings(src) == [(line_of(src, "b_v = tl.load"), "BC101"), (line_of(src, "tl.store"), "BC102")]


def test_a_guard_on_the_tile_end_proves_it_full() -> None:
    assert findings(TILE_GUARD.format(test="(i_v + 1) * B <= V")) == []


def test_a_guard_on_a_tile_count_through_cdiv_proves_it_full() -> None:
    """``cdiv((i_v + 1) * B - V, B) <= 0`` holds only where the tile ends inside V."""
    assert findings(TILE_GUARD.format(test="tl.cdiv((i_v + 1) * B - V, B) <= 0")) == []


# Attention over keys: tiles before the query block's own start are all full (no mask needed);
# the loop over the query block's own span reaches T, so its last key tile may be partial.
KEYS = """\
import triton
import triton.language as tl


@triton.jit
def keys(q_ptr, k_ptr, o_ptr, T, K, BT: tl.constexpr, BS: tl.constexpr, BK: tl.constexpr):
    i_t = tl.program_id(0)
    o_q = i_t * BT + tl.arange(0, BT)
    o_d = tl.arange(0, BK)
    m_q = o_q < T
    b_q = tl.load(q_ptr + o_q[:, None] * K + o_d[None, :], mask=m_q[:, None] & (o_d[None, :] < K), other=0.0)
    b_o = tl.zeros([BT, BS], dtype=tl.float32)
    for i_s in range(0, i_t * BT, BS):
        o_k = i_s + tl.arange(0, BS)
        b_k = tl.load(k_ptr + o_d[:, None] + o_k[None, :] * K, mask=o_d[:, None] < K, other=0.0)
        b_o += tl.dot(b_q, b_k)
    for i_s in range(i_t * BT, {stop}, BS):
        o_k = i_s + tl.arange(0, BS)
        m_k = o_k < T
        b_k = tl.load(k_ptr + o_d[:, None] + o_k[None, :] * K, mask={mask}, other=0.0)
        b_o += tl.dot(b_q, b_k)
    tl.store(o_ptr + o_q[:, None] * BS + tl.arange(0, BS)[None, :], b_o, mask=m_q[:, None])
"""


def test_the_key_loop_up_to_the_clamped_end_of_the_query_block_needs_its_key_bound() -> None:
    src = KEYS.format(stop="min((i_t + 1) * BT, T)", mask="o_d[:, None] < K")
    assert findings(src) == [(_second(src, "b_k = tl.load"), "BC103")]


def test_the_key_loop_up_to_the_end_of_the_query_block_needs_its_key_bound() -> None:
    src = KEYS.format(stop="(i_t + 1) * BT", mask="o_d[:, None] < K")
    assert findings(src) == [(_second(src, "b_k = tl.load"), "BC103")]


def test_both_key_loops_are_safe_with_the_key_bound_in_the_second() -> None:
    assert findings(KEYS.format(stop="min((i_t + 1) * BT, T)", mask="(o_d[:, None] < K) & m_k[None, :]")) == []


def _second(src: str, text: str) -> int:
    return [i for i, line in enumerate(src.splitlines(), start=1) if text in line][1]


# Row blocks of a column tile: the causal border runs up to `min(first_safe, cdiv(T, BT))`, which is
# the last, partial row block when T ends there; the masked rest of the rows is no peeled tail.
ROW_BLOCKS = """\
import triton
import triton.language as tl


@triton.jit
def row_blocks(d_ptr, y_ptr, T, BS: tl.constexpr, BT: tl.constexpr):
    i_s = tl.program_id(0)
    first_safe = tl.cdiv(i_s * BS + BS, BT)
    n_rows = tl.cdiv(T, BT)
    acc = tl.zeros([BT], dtype=tl.float32)
    for rb in range(i_s * BS // BT, tl.minimum(first_safe, n_rows)):
        o_r = rb * BT + tl.arange(0, BT)
        acc += tl.load(d_ptr + o_r{mask})
    for rb in range(first_safe, n_rows):
        o_r = rb * BT + tl.arange(0, BT)
        acc += tl.load(d_ptr + o_r, mask=o_r < T, other=0.0)
    tl.store(y_ptr + i_s, tl.sum(acc, 0))
"""


def test_a_row_loop_up_to_a_min_with_the_row_count_runs_the_partial_block() -> None:
    src = ROW_BLOCKS.format(mask="")
    assert findings(src) == [(line_of(src, "acc += tl.load(d_ptr + o_r)"), "BC101")]


def test_the_row_loop_masked_on_the_rows_is_safe() -> None:
    assert findings(ROW_BLOCKS.format(mask=", mask=o_r < T, other=0.0")) == []


# `BT % BS == 0`: a query block holds whole key tiles (BT is the tile of the program-offset
# `arange(0, BT)`); it does not make T a multiple of BS.
QUERY_BLOCK = """\
import triton
import triton.language as tl


@triton.jit
def query_block(g_ptr, o_ptr, T, BT: tl.constexpr, BS: tl.constexpr):
    tl.static_assert(BT % BS == 0)
    i_t = tl.program_id(0)
    o_q = i_t * BT + tl.arange(0, BT)
    acc = tl.zeros([BT], dtype=tl.float32)
    for i_s in range(i_t * BT, tl.minimum((i_t + 1) * BT, T), BS):
        o_k = i_s + tl.arange(0, BS)
        acc += tl.sum(tl.load(g_ptr + o_k{mask}), 0)
    tl.store(o_ptr + o_q, acc, mask=o_q < T)
"""


def test_a_fact_between_the_query_block_and_the_key_tile_is_no_contract_on_t() -> None:
    src = QUERY_BLOCK.format(mask="")
    assert findings(src) == [(line_of(src, "acc += tl.sum(tl.load("), "BC101")]


def test_the_key_tile_masked_by_t_is_safe() -> None:
    assert findings(QUERY_BLOCK.format(mask=", mask=o_k < T, other=0.0")) == []


# Padding followed to the reduction that consumes it: a -inf padding into a sum or a dot along
# the padded axis is BC202 at the load; zero is the sum's identity.
def test_a_sum_called_with_keyword_arguments_sees_the_padding() -> None:
    src = """\
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(pointer=x_ptr + row * N + cols, mask=cols < N, other={pad})
    tl.store(y_ptr + row, tl.sum(input=x, axis=0))
"""
    bad = src.format(pad='float("-inf")')
    assert findings(bad) == [(line_of(bad, "x = tl.load"), "BC202")]
    assert findings(src.format(pad="0.0")) == []


# A weight per group row, broadcast over the columns: `w[:, None]` keeps its padded rows.
GROUP_ROWS = """\
import triton
import triton.language as tl


@triton.jit
def group_rows(x_ptr, w_ptr, y_ptr, C, HW, BG: tl.constexpr, BHW: tl.constexpr):
    g = tl.program_id(0)
    rows = g * BG + tl.arange(0, BG)
    cols = tl.arange(0, BHW)
    m_r = rows < C
    w = tl.load(w_ptr + rows, mask=m_r, other={pad}).to(tl.float32)
    x = tl.load(x_ptr + rows[:, None] * HW + cols[None, :], mask=m_r[:, None] & (cols[None, :] < HW), other=0.0)
    tl.store(y_ptr + g * BHW + cols, {use}, mask=cols < HW)
"""


def test_a_broadcast_row_reduced_along_its_lanes_sees_the_padding() -> None:
    bad = GROUP_ROWS.format(pad='float("-inf")', use="tl.sum(w[:, None] * x, axis=0)")
    assert findings(bad) == [(line_of(bad, "w = tl.load"), "BC202")]
    assert findings(GROUP_ROWS.format(pad="0.0", use="tl.sum(w[:, None] * x, axis=0)")) == []


def test_a_broadcast_row_reduced_across_the_other_axis_keeps_its_padding_in_masked_lanes() -> None:
    """Summing ``w[None, :]`` over axis 0 gives one result per padded lane: the store masks those."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def group_cols(x_ptr, w_ptr, y_ptr, C, HW, BG: tl.constexpr, BHW: tl.constexpr):
    g = tl.program_id(0)
    rows = g * BG + tl.arange(0, BG)
    cols = tl.arange(0, BHW)
    m_r = rows < C
    w = tl.load(w_ptr + rows, mask=m_r, other=float("-inf")).to(tl.float32)
    x = tl.load(x_ptr + cols[:, None] * C + rows[None, :], mask=(cols[:, None] < HW) & m_r[None, :], other=0.0)
    tl.store(y_ptr + rows, tl.sum(w[None, :] * x, axis={axis}), mask=m_r)
"""
    assert findings(src.format(axis=0)) == []
    along = src.format(axis=1)
    assert findings(along) == [(line_of(along, "w = tl.load"), "BC202")]


def test_a_padding_scaled_by_an_unknown_factor_stays_infinite() -> None:
    src = """\
import triton
import triton.language as tl


@triton.jit
def scaled(q_ptr, h_ptr, o_ptr, K, scale, BK: tl.constexpr, BV: tl.constexpr):
    o_k = tl.arange(0, BK)
    o_v = tl.arange(0, BV)
    m_k = o_k < K
    b_q = tl.load(q_ptr + o_k, mask=m_k, other={pad}) * scale
    b_h = tl.load(h_ptr + o_k[:, None] * BV + o_v[None, :], mask=m_k[:, None], other=0.0)
    tl.store(o_ptr + o_v, tl.sum(b_q[:, None] * b_h, axis=0))
"""
    bad = src.format(pad='float("-inf")')
    assert findings(bad) == [(line_of(bad, "b_q = tl.load"), "BC202")]
    assert findings(src.format(pad="0.0")) == []


# `tl.swizzle2d` returns the program's tile indices in another order; names unpacked from it (or
# from any call the frontend does not open) still index the accesses that follow.
SWIZZLED = """\
import triton
import triton.language as tl


@triton.jit
def swizzled(a_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, G: tl.constexpr):
    i_m, i_n = tl.swizzle2d(tl.program_id(0), tl.program_id(1), tl.num_programs(0), tl.num_programs(1), G)
    o_m = i_m * BM + tl.arange(0, BM)
    o_n = i_n * BN + tl.arange(0, BN)
    o_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptr + o_m[:, None] * K + (k * BK + o_k)[None, :],
                    mask=(o_m[:, None] < M) & ((k * BK + o_k)[None, :] < K), other={pad})
        acc = tl.dot(a, tl.trans(a), acc=acc)
    tl.store(c_ptr + o_m[:, None] * N + o_n[None, :], acc, mask={mask})
"""


def test_accesses_indexed_by_swizzled_program_ids_are_checked() -> None:
    bad = SWIZZLED.format(pad='float("-inf")', mask="o_m[:, None] < M")
    assert findings(bad) == [(line_of(bad, "a = tl.load"), "BC202"), (line_of(bad, "tl.store("), "BC103")]
    assert findings(SWIZZLED.format(pad="0.0", mask="(o_m[:, None] < M) & (o_n[None, :] < N)")) == []


# A second pass over x beside a masked first one: the first pass is no peeled tail when the second
# loop itself reaches the last, partial tile (from the last tile down, or up to T rounded up to
# whole tiles under either branch of a compile-time choice).
PASSES = """\
import triton
import triton.language as tl


@triton.jit
def passes(x_ptr, y_ptr, T, W, USE_W: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    NT = tl.cdiv(T, BT)
    acc = tl.zeros([BT], dtype=tl.float32)
    for i_s in range(0, i_t * BT, BT):
        o = i_s + tl.arange(0, BT)
        acc += tl.load(x_ptr + o, mask=o < T, other=0.0)
    i_end = tl.minimum(tl.cdiv(T, BT) * BT, (i_t + 1) * BT + W) if USE_W else tl.cdiv(T, BT) * BT
    for {loop}:
        o = {offset} + tl.arange(0, BT)
        acc += tl.load(x_ptr + o{mask})
    o_t = i_t * BT + tl.arange(0, BT)
    tl.store(y_ptr + o_t, acc, mask=o_t < T)
"""
LOOPS = [("i in range(NT - 1, -1, -1)", "i * BT"), ("i_s in range((i_t + 1) * BT, i_end, BT)", "i_s")]


def test_a_second_pass_reaching_the_last_tile_needs_its_own_mask() -> None:
    for loop, offset in LOOPS:
        src = PASSES.format(loop=loop, offset=offset, mask="")
        assert findings(src) == [(line_of(src, "acc += tl.load(x_ptr + o)"), "BC101")], loop


def test_the_second_pass_masked_is_safe() -> None:
    for loop, offset in LOOPS:
        assert findings(PASSES.format(loop=loop, offset=offset, mask=", mask=o < T, other=0.0")) == [], loop


# Block pointers in a loop over the K tiles of a compile-time head size K: a floor trip count skips
# the K tail even though K is a tl.constexpr (it differs from launch to launch).
HEAD_LOOP = """\
import triton
import triton.language as tl


@triton.jit
def head_loop(q, k, o, T, H, K: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr):
    i_t, i_h = tl.program_id(0), tl.program_id(1)
    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range({trip}):
        p_q = tl.make_block_ptr(q + i_h * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_k = tl.make_block_ptr(k + i_h * K, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        b_A += tl.dot(tl.load(p_q, boundary_check=(0, 1)), tl.load(p_k, boundary_check=(0, 1)))
    p_o = tl.make_block_ptr(o + i_h * BT, (T, BT), (H * BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    tl.store(p_o, b_A, boundary_check=(0, 1))
"""


def test_a_floor_trip_over_a_compile_time_extent_of_block_pointers_skips_the_tail() -> None:
    src = HEAD_LOOP.format(trip="K // BK")
    assert findings(src) == [(line_of(src, "for i_k in range("), "BC301")]
    assert findings(HEAD_LOOP.format(trip="tl.cdiv(K, BK)")) == []


def test_sub_chunks_of_a_chunk_along_t_are_no_floor_of_the_extent() -> None:
    """``BT // BC`` sub-chunks walk a chunk of T: the floor is of the chunk size, not of T (the
    block pointers bound T themselves)."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def sub_chunks(g, o, T, BT: tl.constexpr, BC: tl.constexpr):
    i_t = tl.program_id(0)
    acc = tl.zeros([BC], dtype=tl.float32)
    for r in range(BT // BC):
        p_g = tl.make_block_ptr(g, (T,), (1,), (i_t * BT + r * BC,), (BC,), (0,))
        acc += tl.load(p_g, boundary_check=(0,))
    tl.store(o + i_t, tl.sum(acc, 0))
"""
    assert findings(src) == []


# Floor divisions that set where a loop over tiles starts or stops, not its trip count.
FLOOR_LOOPS = """\
import triton
import triton.language as tl


@triton.jit
def floor_loops(x_ptr, y_ptr, T, W, USE_W: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    acc = tl.zeros([BT], dtype=tl.float32)
    i_end = tl.minimum({end}, (i_t + 1) * BT + W) if USE_W else {end}
    for i_s in range((i_t + 1) * BT, i_end, BT):
        o = i_s + tl.arange(0, BT)
        acc += tl.load(x_ptr + o, mask=o < T, other=0.0)
    for i in range({start}, -BT, -BT):
        o = i + tl.arange(0, BT)
        acc += tl.load(x_ptr + o, mask=o < T, other=0.0)
    o_t = i_t * BT + tl.arange(0, BT)
    tl.store(y_ptr + o_t, acc, mask=o_t < T)
"""


def test_a_floored_stop_under_a_compile_time_choice_skips_the_tail() -> None:
    src = FLOOR_LOOPS.format(end="(T // BT) * BT", start="tl.cdiv(T, BT) * BT - BT")
    assert findings(src) == [(line_of(src, "for i_s in range("), "BC301")]


def test_a_reverse_walk_from_a_floored_start_skips_the_tail() -> None:
    src = FLOOR_LOOPS.format(end="tl.cdiv(T, BT) * BT", start="(T // BT) * BT - BT")
    assert findings(src) == [(line_of(src, "for i in range("), "BC301")]


def test_ceiling_starts_and_stops_walk_every_tile() -> None:
    assert findings(FLOOR_LOOPS.format(end="tl.cdiv(T, BT) * BT", start="tl.cdiv(T, BT) * BT - BT")) == []


# The second 64 columns of a head: `o_k2 = 64 + o_k1` is both the index read and the one bounded.
SECOND_HALF = """\
import triton
import triton.language as tl


@triton.jit
def second_half(x_ptr, y_ptr, K):
    o_k1 = tl.arange(0, 64)
    o_k2 = 64 + o_k1
    m_k2 = o_k2 {op} K
    tl.store(y_ptr + o_k2, tl.load(x_ptr + o_k2, mask=m_k2, other=0.0), mask=m_k2)
"""


def test_a_bound_admitting_the_extent_on_an_offset_lane_is_off_by_one() -> None:
    src = SECOND_HALF.format(op="<=")
    assert findings(src) == [(line_of(src, "m_k2 = o_k2 <= K"), "BC104")]
    assert findings(SECOND_HALF.format(op="<")) == []


# The second pass of a two-stage reduction: one program reads all MID_SIZE partial sums through a
# whole-dimension arange; the kernel computes the mask against MID_SIZE, so the lane can pass it.
PARTIALS = """\
import triton
import triton.language as tl


@triton.jit
def finish(mid_ptr, out_ptr, MID_SIZE, BLOCK_MID: tl.constexpr):
    offset = tl.arange(0, BLOCK_MID)
    mask = offset < MID_SIZE
    mid = tl.load(mid_ptr + offset{mask})
    tl.store(out_ptr, tl.sum(mid))
"""


def test_a_mask_computed_and_never_used_says_the_whole_lane_can_pass_its_extent() -> None:
    src = PARTIALS.format(mask="")
    assert findings(src) == [(line_of(src, "mid = tl.load"), "BC101")]
    assert findings(PARTIALS.format(mask=", mask=mask, other=0.0")) == []


def test_a_whole_lane_the_kernel_never_compares_needs_no_mask() -> None:
    assert findings(PARTIALS.format(mask="").replace("    mask = offset < MID_SIZE\n", "")) == []


def test_a_selection_test_in_tl_where_is_no_extent_bound() -> None:
    """`tl.where(offset < SPLIT, a, b)` picks between values; it does not say the lane passes an
    extent, so the unmasked whole-lane load stays silent."""
    src = PARTIALS.format(mask="").replace("    mask = offset < MID_SIZE\n", "").replace(
        "tl.store(out_ptr, tl.sum(mid))", "tl.store(out_ptr, tl.sum(tl.where(offset < MID_SIZE, mid, 0.0)))")
    assert findings(src) == []
