"""Masks held in names that bound one dimension of a tile and not another (BC103): a lane that
indexes both the rows and the columns of a block, and the sub-tiles a loop walks below the
program's own sub-tile of a chunk. Each unsafe kernel is paired with its guarded twin; rule code and
line asserted."""

from __future__ import annotations

from tests.checking import findings, line_of

# One lane indexes the rows (a sub-chunk of the sequence) and the columns (a block of a BT-wide
# matrix) of the same buffer; the columns are bounded by BT where the block can run past it.
SAME_LANE = """\
import triton
import triton.language as tl


@triton.jit
def solve(a_ptr, chunk_indices, T, BT: tl.constexpr, BC: tl.constexpr):
    i_t = tl.load(chunk_indices + tl.program_id(0))
    o_i = tl.arange(0, BC)
    i_tc1 = i_t * BT + BC
    m_tc1 = (i_tc1 + o_i) < T
    x = tl.zeros([BC, BC], dtype=tl.float32)
    tl.store(a_ptr + (i_tc1 + o_i)[:, None] * BT + o_i[None, :], x, mask=m_tc1[:, None] & (o_i[None, :] < BT))
    m_A11 = {mask}
    tl.store(a_ptr + (i_tc1 + o_i)[:, None] * BT + (BC + o_i)[None, :], x, mask=m_A11)
"""


def test_row_bound_is_no_stand_in_for_the_columns_of_the_same_lane() -> None:
    src = SAME_LANE.format(mask="m_tc1[:, None]")
    assert findings(src) == [(line_of(src, "mask=m_A11)"), "BC103")]


def test_columns_of_the_same_lane_bounded_too() -> None:
    assert findings(SAME_LANE.format(mask="m_tc1[:, None] & ((BC + o_i)[None, :] < BT)")) == []


def test_columns_the_buffer_never_bounds_stay_whole() -> None:
    """Without any column bound on the buffer, the block's columns are one whole tile of the
    compile-time width (a 16 x 16 block of a BT-wide matrix): nothing says they can be partial."""
    src = SAME_LANE.format(mask="m_tc1[:, None]").replace(" & (o_i[None, :] < BT)", "")
    assert findings(src) == []


# Sub-chunks before the program's own sub-chunk i_i of chunk i_t; the grid runs every sub-chunk of
# every chunk, so in the last, partial chunk the earlier sub-chunks of a sub-chunk past T are past
# T as well.
SUBCHUNKS = """\
import triton
import triton.language as tl


@triton.jit
def intra(v_ptr, y_ptr, T, V: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr, BV: tl.constexpr,
          NC: tl.constexpr):
    i_v, i_c = tl.program_id(0), tl.program_id(1)
    i_t, i_i = i_c // NC, i_c % NC
    o_r = i_t * BT + i_i * BC + tl.arange(0, BC)
    o_v = i_v * BV + tl.arange(0, BV)
    acc = tl.zeros([BC, BV], dtype=tl.float32)
    for i_j in range(0, i_i):
        o_j = i_t * BT + i_j * BC + tl.arange(0, BC)
        m_j = {mask}
        acc += tl.load(v_ptr + o_j[:, None] * V + o_v[None, :], mask=m_j, other=0.0)
    tl.store(y_ptr + o_r[:, None] * V + o_v[None, :], acc, mask=(o_r[:, None] < T) & (o_v[None, :] < V))
"""


def test_subchunks_below_the_own_one_in_a_partial_chunk_need_their_row_bound() -> None:
    src = SUBCHUNKS.format(mask="o_v[None, :] < V")
    assert findings(src) == [(line_of(src, "acc += tl.load"), "BC103")]


def test_subchunks_below_the_own_one_bounded() -> None:
    assert findings(SUBCHUNKS.format(mask="(o_j[:, None] < T) & (o_v[None, :] < V)")) == []


# Key tiles below the program's own query tile, which the grid (cdiv(T, BTL)) starts inside T.
KEYS_BELOW = """\
import triton
import triton.language as tl


@triton.jit
def parallel(k_ptr, y_ptr, T, K: tl.constexpr, BTL: tl.constexpr, BTS: tl.constexpr, BK: tl.constexpr):
    i_k, i_c = tl.program_id(0), tl.program_id(1)
    o_t = i_c * BTL + tl.arange(0, BTL)
    o_k = i_k * BK + tl.arange(0, BK)
    acc = tl.zeros([BK], dtype=tl.float32)
    for i_s in range(0, i_c * BTL, BTS):
        o_s = i_s + tl.arange(0, BTS)
        acc += tl.sum(tl.load(k_ptr + o_s[:, None] * K + o_k[None, :], mask=o_k[None, :] < K, other=0.0), 0)
    tl.store(y_ptr + i_c * K + o_k, acc, mask=o_k < K)
"""


def test_tiles_below_the_program_own_tile_stay_full() -> None:
    assert findings(KEYS_BELOW) == []


# The sub-chunks after the program's own one, up to the chunk's end: in the last, partial chunk
# they run past T whatever the program's own sub-chunk is; a masked read of the chunk's diagonal
# block outside the loop is no peeled tail of theirs.
AFTER_OWN = """\
import triton
import triton.language as tl


@triton.jit
def intra_bwd(a_ptr, do_ptr, y_ptr, T, V: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr,
              BV: tl.constexpr, NC: tl.constexpr):
    i_v, i_c, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_t, i_i = i_c // NC, i_c % NC
    do_ptr += i_bh * BT * V
    o_r = i_t * BT + i_i * BC + tl.arange(0, BC)
    o_v = i_v * BV + tl.arange(0, BV)
    acc = tl.zeros([BC, BV], dtype=tl.float32)
    for i_j in range(i_i + 1, NC):
        o_j = i_t * BT + i_j * BC + tl.arange(0, BC)
        m_jv = {mask}
        acc += tl.load(do_ptr + o_j[:, None] * V + o_v[None, :], mask=m_jv, other=0.0)
    b_do = tl.load(do_ptr + o_r[:, None] * V + o_v[None, :], mask=(o_r[:, None] < T) & (o_v[None, :] < V), other=0.0)
    tl.store(y_ptr + o_r[:, None] * V + o_v[None, :], acc + b_do, mask=(o_r[:, None] < T) & (o_v[None, :] < V))
"""


def test_subchunks_after_the_own_one_need_their_row_bound() -> None:
    src = AFTER_OWN.format(mask="o_v[None, :] < V")
    assert findings(src) == [(line_of(src, "acc += tl.load"), "BC103")]


def test_subchunks_after_the_own_one_bounded() -> None:
    assert findings(AFTER_OWN.format(mask="(o_j[:, None] < T) & (o_v[None, :] < V)")) == []
