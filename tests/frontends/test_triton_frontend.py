"""The Triton frontend reads what makes real kernels safe; each test pairs the safe form with the
unsafe one it must still report."""

from __future__ import annotations

import pytest

from tests.checking import findings, line_of

# A [T, H, D] tensor: head `pid_h` occupies D of the H * D elements of a row, so the head lane
# `pid_h * D + arange(0, D)` never leaves the row.
HEADS = """\
import triton
import triton.language as tl


@triton.jit
def heads(x_ptr, y_ptr, T, H, D: tl.constexpr, BLOCK_T: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_h = tl.program_id(1)
    o_t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    o_d = tl.arange(0, D)
    offs = o_t[:, None] * ({pitch}) + pid_h * D + o_d[None, :]
    x = tl.load(x_ptr + offs, mask=o_t[:, None] < T, other=0.0)
    tl.store(y_ptr + offs, x, mask=o_t[:, None] < T)
"""


def test_a_row_of_whole_tiles_needs_no_bound_on_the_tile_lane() -> None:
    assert findings(HEADS.format(pitch="H * D")) == []


def test_a_row_pitch_that_is_not_a_multiple_of_the_tile_is_still_partial() -> None:
    src = HEADS.format(pitch="H * 96")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC103"), (line_of(src, "tl.store"), "BC103")]


def test_a_grouped_program_order_is_not_a_pitch() -> None:
    """``(pid // width) * GROUP_M * BLOCK_M`` is a tile offset in grouped order, not the stride
    of another dimension: the unmasked row tile is still reported."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def rows(x_ptr, y_ptr, M, GROUP_M: tl.constexpr, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = (pid // 8) * GROUP_M + pid % GROUP_M
    offs = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))
"""
    line = line_of(src, "tl.store")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


def test_the_else_branch_starts_from_the_state_before_the_if() -> None:
    """``x_ptr = x_ptr + …`` in both branches offsets the pointer once: the else branch does not
    see the half-width columns of the body."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def copy(x_ptr, y_ptr, n, n_cols, HALF: tl.constexpr, BLOCK: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    half = tl.arange(0, BLOCK_C // 2)
    cols = tl.arange(0, BLOCK_C)
    if HALF:
        x_ptr = x_ptr + rows[:, None] * n_cols + half[None, :]
        x = tl.load(x_ptr, mask=(rows[:, None] < n) & (half[None, :] < n_cols // 2), other=0.0)
        tl.store(y_ptr + rows[:, None] * n_cols + half[None, :], x,
                 mask=(rows[:, None] < n) & (half[None, :] < n_cols // 2))
    else:
        x_ptr = x_ptr + rows[:, None] * n_cols + cols[None, :]
        x = tl.load(x_ptr, mask=(rows[:, None] < n) & (cols[None, :] < n_cols), other=0.0)
        tl.store(y_ptr + rows[:, None] * n_cols + cols[None, :], x,
                 mask=(rows[:, None] < n) & (cols[None, :] < n_cols))
"""
    assert findings(src) == []


BIAS = """\
import triton
import triton.language as tl


@triton.jit
def add_bias(b_ptr, y_ptr, M, N, BIAS_TYPE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    if BIAS_TYPE == "vector":
        b_ptrs = b_ptr + offs_n
    elif BIAS_TYPE == "matrix":
        b_ptrs = b_ptr + offs_m[:, None] * N + offs_n[None, :]
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    if BIAS_TYPE == "vector":
        acc += tl.load(b_ptrs, mask=offs_n < N, other=0.0)[None, :]
    elif BIAS_TYPE == "matrix":
        acc += tl.load(b_ptrs, mask={matrix_mask}, other=0.0)
    tl.store(y_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
"""


def test_a_compile_time_test_seen_again_selects_the_value_set_under_it() -> None:
    """Under ``BIAS_TYPE == "vector"`` the pointer is the vector one, whatever the matrix branch
    assigned after it."""
    assert findings(BIAS.format(matrix_mask="(offs_m[:, None] < M) & (offs_n[None, :] < N)")) == []


def test_the_branch_it_selects_is_still_checked() -> None:
    src = BIAS.format(matrix_mask="offs_n[None, :] < N")
    assert findings(src) == [(line_of(src, "mask=offs_n[None, :] < N"), "BC103")]


ROUNDED = """\
import math

import triton
import triton.language as tl


@triton.heuristics({{"EVEN_M": lambda args: args["seqlen"] % args["BLOCK_M"] == 0}})
@triton.jit
def stats(x_ptr, lse_ptr, *strides, seqlen, seqlen_rounded, EVEN_M: tl.constexpr, BLOCK_M: tl.constexpr):
    pid_m = tl.program_id(0)
    off_hb = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    x = tl.load(x_ptr + off_hb * seqlen + offs_m, mask=offs_m < seqlen, other=0.0)
    tl.store(lse_ptr + off_hb * {pitch} + offs_m, x)


def launch(x, batch_heads, seqlen):
    seqlen_rounded = {rounding}
    lse = x.new_empty((batch_heads, seqlen_rounded))
    BLOCK = 128
    grid = (triton.cdiv(seqlen, BLOCK), batch_heads)
    stats[grid](x, lse, *x.stride(), seqlen, seqlen_rounded, BLOCK_M=BLOCK)
    return lse
"""


def test_rows_padded_to_a_multiple_of_the_tile_hold_whole_tiles() -> None:
    """``lse`` rows are ``ceil(seqlen / 128) * 128`` long and the tile is 128: the unmasked store
    stays in its row. The heuristics flag is not a launch argument, so ``seqlen_rounded`` is found
    by position past ``*strides``."""
    for rounding in ("math.ceil(seqlen / 128) * 128", "triton.cdiv(seqlen, BLOCK) * BLOCK",
                     "(seqlen + 127) // 128 * 128"):
        assert findings(ROUNDED.format(pitch="seqlen_rounded", rounding=rounding)) == [], rounding


def test_padding_to_less_than_the_tile_or_a_row_of_the_true_length_is_still_partial() -> None:
    for pitch, rounding in (("seqlen_rounded", "math.ceil(seqlen / 64) * 64"),
                            ("seqlen", "math.ceil(seqlen / 128) * 128"),
                            ("seqlen", "triton.cdiv(seqlen, BLOCK) * BLOCK")):
        src = ROUNDED.format(pitch=pitch, rounding=rounding)
        assert findings(src) == [(line_of(src, "tl.store(lse_ptr"), "BC102")], (pitch, rounding)


def test_every_autotune_config_must_divide_the_padding() -> None:
    config = '@triton.autotune(configs=[triton.Config({{"BLOCK_M": 64}}), triton.Config({{"BLOCK_M": {m}}})], key=[])\n'
    for m, expected in (("128", []), ("256", ["BC102"])):
        src = ROUNDED.format(pitch="seqlen_rounded", rounding="math.ceil(seqlen / 128) * 128")
        src = src.replace("@triton.heuristics", config.format(m=m) + "@triton.heuristics") \
            .replace(", BLOCK_M=BLOCK)", ")")
        assert [code for _, code in findings(src)] == expected, m


def test_a_buffer_shown_to_hold_whole_tile_rows_keeps_them_in_one_row_accesses() -> None:
    """The 2-D store shows ``a``'s rows hold H tiles of BC; the row-by-row reload of ``a`` stays
    in its row too. ``b``, never shown with that pitch, is still reported."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def rows(a, b, T, H: tl.constexpr, BC: tl.constexpr):
    i_t = tl.program_id(0)
    i_h = tl.program_id(1)
    o_c = i_t * BC + tl.arange(0, BC)
    o_i = tl.arange(0, BC)
    a += i_h * BC
    b += i_h * BC
    tl.store(a + o_c[:, None] * (H * BC) + o_i[None, :], tl.zeros([BC, BC], dtype=tl.float32),
             mask=o_c[:, None] < T)
    for i in range(0, tl.minimum(BC, T - i_t * BC)):
        x = tl.load(a + (i_t * BC + i) * H * BC + o_i)
        tl.store(b + (i_t * BC + i) * H * BC + o_i, x)
"""
    assert findings(src) == [(line_of(src, "tl.store(b"), "BC102")]


def test_a_pointer_chosen_by_a_compile_time_test_keeps_its_choice_as_it_advances() -> None:
    """``p_beta`` is a scalar pointer when HEADWISE and a vector one otherwise; both advance by
    a row each step, and the HEADWISE load stays a scalar load."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def recurrent(beta, o, T, V, HEADWISE: tl.constexpr, BV: tl.constexpr):
    o_v = tl.program_id(0) * BV + tl.arange(0, BV)
    if HEADWISE:
        p_beta = beta
    else:
        p_beta = beta + o_v
    p_o = o + o_v
    for _ in range(0, T):
        if HEADWISE:
            b = tl.load(p_beta)
        else:
            b = tl.load(p_beta, mask=o_v < V, other=0)
        tl.store(p_o, b, mask=o_v < V)
        p_beta += 1 if HEADWISE else V
        p_o += V
"""
    assert findings(src) == []


SPLIT_LOOPS = """\
import triton
import triton.language as tl


@triton.jit
def rowsum(x_ptr, y_ptr, n, first, BS: tl.constexpr):
    full = n // BS
    acc = tl.zeros([BS], dtype=tl.float32)
    for b in range(0, full):
        acc += tl.load(x_ptr + b * BS + tl.arange(0, BS))
    for b in range({tail_start}, tl.cdiv(n, BS)):
        offs = b * BS + tl.arange(0, BS)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + tl.arange(0, BS), acc)
"""


def test_a_tail_loop_starting_at_the_larger_of_a_start_and_the_floor_covers_the_tail() -> None:
    assert findings(SPLIT_LOOPS.format(tail_start="tl.maximum(first, full)")) == []


def test_a_tail_loop_starting_elsewhere_leaves_the_floor_reported() -> None:
    src = SPLIT_LOOPS.format(tail_start="first")
    assert findings(src) == [(line_of(src, "for b in range(0, full)"), "BC301")]


SHIFTED = """\
import triton
import triton.language as tl


@triton.jit
def previous(x_ptr, y_ptr, T, BT: tl.constexpr):
    o_t = tl.program_id(0) * BT + tl.arange(0, BT)
    o_to = tl.program_id(0) * BT - 1 + tl.arange(0, BT)
    x = tl.load(x_ptr + {index}, mask=(o_to >= 0) & (o_to < T), other=0.0)
    tl.store(y_ptr + o_t, x, mask=o_t < T)
"""


def test_a_bound_on_the_shifted_index_the_access_reads_admits_no_extent() -> None:
    """``o_to < T`` bounds ``o_to``, the index read: not an off-by-one."""
    assert findings(SHIFTED.format(index="o_to")) == []


def test_a_bound_on_the_shifted_index_guarding_the_unshifted_read_is_off_by_one() -> None:
    src = SHIFTED.format(index="o_to + 1")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC104")]


def test_reading_one_past_a_strict_bound_is_left_to_the_buffer_length() -> None:
    """``cu_seqlens + i + 1`` under ``i < batch`` reads a table of batch + 1 entries: the model
    knows no buffer lengths, so the shift the access alone carries reports nothing."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def lengths(cu_seqlens, out, batch, BLOCK_B: tl.constexpr):
    b = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    end = tl.load(cu_seqlens + b + 1, mask=b < batch, other=0)
    start = tl.load(cu_seqlens + b, mask=b < batch, other=0)
    tl.store(out + b, end - start, mask=b < batch)
"""
    assert findings(src) == []


ASSERTED = """\
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


def launch(x, n):
    PRE_BLOCK = 128
    assert n % PRE_BLOCK == 0
    BLOCK = {block}
    scale[(triton.cdiv(n, BLOCK),)](x, n, BLOCK=BLOCK)
"""


def test_a_host_assert_on_a_multiple_of_the_tile_covers_the_tile() -> None:
    """``n % 128 == 0`` holds ``n % 64 == 0`` too."""
    assert findings(ASSERTED.format(block="64")) == []


def test_a_host_assert_on_a_divisor_of_the_tile_does_not() -> None:
    src = ASSERTED.format(block="256")
    line = line_of(src, "tl.store(")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


OVERFLOW = """\
import triton
import triton.language as tl


@triton.jit
def lse(l_ptr, n, BLOCK_M: tl.constexpr):
    start = tl.program_id(0) * BLOCK_M
    offs = start + tl.arange(0, BLOCK_M)
    overflow = start + BLOCK_M - n
    if overflow {op} 0:
        tl.store(l_ptr + offs, tl.zeros([BLOCK_M], dtype=tl.float32), mask=offs < n)
    else:
        tl.store(l_ptr + offs, tl.zeros([BLOCK_M], dtype=tl.float32))
"""


def test_the_else_of_a_tile_overflow_test_holds_whole_tiles() -> None:
    assert findings(OVERFLOW.format(op=">")) == []


def test_the_else_of_the_opposite_test_does_not() -> None:
    src = OVERFLOW.format(op="<=")
    assert findings(src) == [(line_of(src, "dtype=tl.float32))"), "BC102")]


SCRATCH = """\
import torch
import triton
import triton.language as tl


@triton.jit
def partials(x_ptr, p_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0)
    rm1 = tl.arange(0, BLOCK_M)
    tl.store(p_ptr + pid * BLOCK_M * BLOCK_N + rm1[:, None] * BLOCK_N + rn[None, :], x)


def launch(x, M, N, waves):
    BLOCK_M, BLOCK_N = 64, 32
    p = torch.empty({shape}, device=x.device, dtype=torch.float32)
    partials[(waves,)](x, p, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return p
"""


def test_a_scratch_allocated_in_whole_tiles_holds_full_tiles() -> None:
    """``p`` is ``(waves, BLOCK_M, BLOCK_N)``: ``pid * BLOCK_M * BLOCK_N`` picks a tile-sized slot."""
    assert findings(SCRATCH.format(shape="(waves, BLOCK_M, BLOCK_N)")) == []


def test_a_scratch_of_the_true_row_count_is_still_partial() -> None:
    """Its columns are whole (BLOCK_N wide rows), its rows are not, and the store has no mask: the
    layout keeps one index in range, it does not guard the store."""
    src = SCRATCH.format(shape="(M, BLOCK_N)")
    assert findings(src) == [(line_of(src, "tl.store(p_ptr"), "BC102")]


# Host grids reached through a grid function, a running product, a sum of tile counts, or a
# block size computed on the host; `{grid}` is the launch grid's element.
GRIDS = """\
import triton
import triton.language as tl


@triton.jit
def copy(x_ptr, y_ptr, M, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < M), mask=offs < M)


def launch(x, y, dim, UNROLL=4):
    M = 1
    for i in range(dim):
        M *= x.shape[i]
    N = x.shape[-1]
    B = triton.next_power_of_2(N)
    rows = x.numel() // x.shape[-1]
    assert 128 % 32 == 0
    assert M == N

    def grid(meta):
        return ({grid},)

    copy[grid](x, y, M, N, BLOCK=B)
"""


def test_a_floor_grid_is_found_behind_host_indirections() -> None:
    for grid in ('M // meta["BLOCK"]', 'triton.cdiv(N, meta["BLOCK"]) + M // meta["BLOCK"]',
                 'M // (meta["BLOCK"] * UNROLL)', "M // B", 'meta["M"] // meta["BLOCK"]', "M // 32",
                 'M // meta["BLOCK"] if N > 1 else 1', 'M // (meta["BLOCK"] * (2 if N > 1 else 4))'):
        src = GRIDS.format(grid=grid).replace("BLOCK=B", "BLOCK=32") if "32" in grid else GRIDS.format(grid=grid)
        assert (line_of(src, "return ("), "BC302") in findings(src), grid


def test_a_ceiling_grid_or_an_exact_row_count_is_not_a_floor_grid() -> None:
    for grid in ('triton.cdiv(M, meta["BLOCK"])', "rows", "x.numel() // x.shape[-1]",
                 'triton.cdiv(M, meta["BLOCK"]) + triton.cdiv(N, meta["BLOCK"])', "N // N"):
        assert findings(GRIDS.format(grid=grid)) == [], grid


# A loop over `V // BV` tiles where V is a compile-time parameter: it still varies across
# launches, so the floor skips the tail tile; a loop of HEAD_DIM // 16 steps over no lane is not
# a loop over tiles.
COMPILE_TIME_TRIP = """\
import triton
import triton.language as tl

GROUP = 32


@triton.jit
def rows(x_ptr, y_ptr, V: tl.constexpr, BV: tl.constexpr, HEAD_DIM: tl.constexpr):
    row = tl.program_id(0)
    o = tl.arange(0, BV)
    acc = tl.zeros([BV], dtype=tl.float32)
    for i in range(V // BV):
        acc += tl.load(x_ptr + row * V + i * BV + o)
    for j in range(HEAD_DIM // 16):
        acc = acc * 2.0
    tl.store(y_ptr + row * BV + o, acc, mask=o < V)
"""


def test_a_floor_over_a_compile_time_extent_is_a_floor_trip_count() -> None:
    assert findings(COMPILE_TIME_TRIP) == [(line_of(COMPILE_TIME_TRIP, "range(V // BV)"), "BC301")]


def test_a_compile_time_extent_fixed_by_the_launch_is_not() -> None:
    for value in ("32", "GROUP"):
        src = COMPILE_TIME_TRIP + f"\n\ndef launch(x, y, n):\n    rows[(n,)](x, y, V={value}, BV=16, HEAD_DIM=64)\n"
        assert findings(src) == [], value


# A whole-dimension lane bounded somewhere by a compile-time size written as an expression
# (`ROTARY_DIM // 2`) must be bounded at every access.
HALF_BOUND = """\
import triton
import triton.language as tl


@triton.jit
def rotate(x_ptr, c_ptr, n, ROTARY_DIM: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_M: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = tl.arange(0, BLOCK_K // 2)
    c = tl.load(c_ptr + rk, mask=rk < ROTARY_DIM // 2, other=0.0)
    offs = rm[:, None] * ROTARY_DIM + rk[None, :]
    x = tl.load(x_ptr + offs, mask={mask}, other=0.0)
    tl.store(x_ptr + offs, x * c[None, :], mask={mask})
"""


def test_a_lane_bounded_by_a_compile_time_expression_is_partial_where_unbounded() -> None:
    full = "(rm[:, None] < n) & (rk[None, :] < ROTARY_DIM // 2)"
    assert findings(HALF_BOUND.format(mask=full)) == []
    src = HALF_BOUND.format(mask="rm[:, None] < n")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC103"), (line_of(src, "tl.store"), "BC103")]


# -inf padding multiplied by other masked data (`b_q[None, :] * b_k`) is +-inf or NaN in the
# padded lanes, whatever the data; a sum over them is wrong. A scalar scale keeps it -inf for a max.
TIMES_DATA = """\
import triton
import triton.language as tl


@triton.jit
def scores(q, k, o, T, K, scale, BS: tl.constexpr, BK: tl.constexpr):
    o_d = tl.arange(0, BK)
    b_q = tl.load(q + o_d, mask=o_d < K, other=0.0)
    for i_s in range(0, T, BS):
        o_k = i_s + tl.arange(0, BS)
        m_k = o_k < T
        b_k = tl.load(k + o_k[:, None] * K + o_d[None, :], mask=m_k[:, None] & (o_d[None, :] < K), other=float("-inf"))
        b_s = tl.{reduce}({product}, 1)
        tl.store(o + o_k, b_s, mask=m_k)
"""


def test_infinite_padding_times_masked_data_is_no_identity() -> None:
    src = TIMES_DATA.format(reduce="sum", product="b_q[None, :] * b_k")
    assert findings(src) == [(line_of(src, "b_k = tl.load"), "BC202")]


def test_infinite_padding_times_a_scalar_scale_stays_the_max_identity() -> None:
    assert findings(TIMES_DATA.format(reduce="max", product="b_k * scale")) == []


# The padding of a transposed tile reaches the dot along the tile's own axes.
TRANSPOSED = """\
import triton
import triton.language as tl


@triton.jit
def grad(x_ptr, g_ptr, o_ptr, N, K, BN: tl.constexpr, BK: tl.constexpr):
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    kk = tl.program_id(1) * BK + tl.arange(0, BK)
    x = tl.load(x_ptr + n[:, None] * K + kk[None, :], mask={mask}, other=float("-inf"))
    g = tl.load(g_ptr + n[:, None] * K + kk[None, :], mask=(n[:, None] < N) & (kk[None, :] < K), other=0.0)
    d = tl.dot(tl.trans(x), g)
    tl.store(o_ptr + kk[:, None] * K + kk[None, :], d, mask=(kk[:, None] < K) & (kk[None, :] < K))
"""


def test_padding_of_a_transposed_tile_reaches_the_dot_along_the_contracted_axis() -> None:
    src = TRANSPOSED.format(mask="(n[:, None] < N) & (kk[None, :] < K)")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC202")]


def test_padding_of_a_transposed_tile_on_an_axis_the_dot_keeps_is_harmless() -> None:
    src = TRANSPOSED.format(mask="kk[None, :] < K")
    assert [c for _, c in findings(src) if c == "BC202"] == []  # the rows it leaves unmasked are BC103's


# `tl.min(x, 1)` names its axis positionally: a reduction, not the elementwise min of x and 1.
ROW_MIN = """\
import triton
import triton.language as tl


@triton.jit
def row_min(x_ptr, o_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + m[:, None] * N + n[None, :], mask=(m[:, None] < M) & (n[None, :] < N){other})
    tl.store(o_ptr + m, tl.min(x, 1), mask=m < M)
"""


def test_a_positional_axis_makes_min_a_reduction() -> None:
    src = ROW_MIN.format(other="")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC201")]
    assert findings(ROW_MIN.format(other=", other=float('inf')")) == []


def test_a_cast_method_keeps_the_padding() -> None:
    src = ROW_MIN.format(other="").replace("{other})", "").replace(
        "(n[None, :] < N))", "(n[None, :] < N)).cast(tl.float32)")
    assert ".cast(tl.float32)" in src
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC201")]


# Two passes over the same column tiles: a masked read in one pass is no peeled tail for the
# other, which runs the partial tile itself. A loop that stops before the tail still has one.
TWO_PASSES = """\
import triton
import triton.language as tl


@triton.jit
def norm(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for b in {first}:
        cols = b * BLOCK + offs
        acc += tl.load(x_ptr + row * n_cols + cols)
    total = tl.sum(acc, 0)
    for b in range(tl.cdiv(n_cols, BLOCK)):
        cols = b * BLOCK + offs
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, x / total, mask=cols < n_cols)
"""


def test_a_second_pass_is_no_peeled_tail_for_a_loop_that_runs_the_partial_tile() -> None:
    src = TWO_PASSES.format(first="range(tl.cdiv(n_cols, BLOCK))")
    assert findings(src) == [(line_of(src, "acc += tl.load"), "BC101")]


def test_a_loop_that_stops_before_the_partial_tile_has_its_tail_outside() -> None:
    assert findings(TWO_PASSES.format(first="range(tl.cdiv(n_cols, BLOCK) - 1)")) == []


# A flag a runtime test may set (`skip = False; if label == ignore: skip = True`) is either value
# afterwards: both branches of `if skip:` run, and both are checked.
RUNTIME_FLAG = """\
import triton
import triton.language as tl


@triton.jit
def loss(x_ptr, y_ptr, label_ptr, n_cols, ignore, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    skip = False
    if tl.load(label_ptr + row) == ignore:
        skip = True
    if skip:
        for i in range(0, n_cols, BLOCK):
            tl.store(y_ptr + row * n_cols + i + offs, 0.0, mask=i + offs < n_cols)
    else:
        for i in range(0, n_cols, BLOCK):
            x = tl.load(x_ptr + row * n_cols + i + offs, mask=i + offs < n_cols, other=0.0)
            tl.store(y_ptr + row * n_cols + i + offs, x{mask})
"""


def test_both_branches_of_a_runtime_flag_are_checked() -> None:
    assert findings(RUNTIME_FLAG.format(mask=", mask=i + offs < n_cols")) == []
    src = RUNTIME_FLAG.format(mask="")
    assert findings(src) == [(line_of(src, "x)"), "BC102")]


# A comparison on padded lanes tests the padding: `x != 0` counts -inf lanes, not 0.0 ones.
COUNT = """\
import triton
import triton.language as tl


@triton.jit
def count_nonzero(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other={other})
    tl.atomic_add(out_ptr, tl.sum((x != 0).to(tl.int64), axis=0))
"""


def test_a_comparison_counts_the_padding_it_is_true_on() -> None:
    src = COUNT.format(other='float("-inf")')
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC202")]
    assert findings(COUNT.format(other="0.0")) == []


STASH = """\
import torch
import triton
import triton.language as tl


@triton.jit
def stash(x_ptr, ws_ptr, T, C: tl.constexpr, K: tl.constexpr):
    i_t = tl.program_id(0)
    o_c = tl.arange(0, C)
    o_k = tl.arange(0, K)
    rows = i_t * C + o_c
    x = tl.load(x_ptr + rows[:, None] * K + o_k[None, :], mask=(rows < T)[:, None], other=0.0)
    tl.store(ws_ptr + {slot} + o_c[:, None] * K + o_k[None, :], x)


def launch(x, C=64):
    T, K = x.shape
    NT = triton.cdiv(T, C)
    shape = {shape}
    ws = torch.empty(shape, device=x.device, dtype=x.dtype)
    stash[(NT,)](x, ws, T, C=C, K=K)
    return ws
"""


@pytest.mark.parametrize(("slot", "shape"), [("i_t * C * K", "(NT, C, K)"),
                                             ("i_t * 2 * C * K + C * K", "(NT, 2 * C, K)")])
def test_a_workspace_shaped_by_a_named_tuple_holds_whole_tiles(slot: str, shape: str) -> None:
    """``ws_shape = (NT, C, K); torch.empty(ws_shape)``: the shape is read through the name, and a
    dimension of ``2 * C`` rows holds whole tiles of C as one of C does."""
    assert findings(STASH.format(slot=slot, shape=shape)) == []


def test_a_workspace_of_the_true_row_count_is_still_partial() -> None:
    src = STASH.format(slot="i_t * C * K", shape="(T, K)")
    assert findings(src) == [(line_of(src, "tl.store(ws_ptr"), "BC102")]
