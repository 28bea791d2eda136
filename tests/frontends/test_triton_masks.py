"""Masks that bound some of an access's dimensions but not all (BC103): which masked accesses
elsewhere are a peeled tail of a loop, and which masks make an access partially guarded rather
than unguarded. Each unsafe kernel is paired with its guarded twin; rule code and line asserted."""

from __future__ import annotations

import pytest

from tests.checking import findings, line_of

# Sub-chunks of a chunk: the ones before the program's own (all inside T) and the ones after it,
# up to the last, partial one. The masked reads of the earlier ones are no peeled tail of the later
# loop, which still needs its row bound.
SUBCHUNKS = """\
import triton
import triton.language as tl


@triton.jit
def subchunks(k_ptr, y_ptr, T, K, BT: tl.constexpr, BC: tl.constexpr, BK: tl.constexpr, NC: tl.constexpr):
    i_t, i_i = tl.program_id(0), tl.program_id(1)
    o_k = tl.arange(0, BK)
    m_k = o_k < K
    o_r = i_t * BT + i_i * BC + tl.arange(0, BC)
    m_r = o_r < T
    acc = tl.zeros([BC, BK], dtype=tl.float32)
    for i_j in range(0, i_i):
        o_j = i_t * BT + i_j * BC + tl.arange(0, BC)
        acc += tl.load(k_ptr + o_j[:, None] * K + o_k[None, :], mask=(o_j[:, None] < T) & m_k[None, :], other=0.0)
    n = min(NC, tl.cdiv(T - i_t * BT, BC))
    for i_j in range(i_i + 1, n):
        o_j = i_t * BT + i_j * BC + tl.arange(0, BC)
        acc += tl.load(k_ptr + o_j[:, None] * K + o_k[None, :], mask={mask}, other=0.0)
    tl.store(y_ptr + o_r[:, None] * K + o_k[None, :], acc, mask=m_r[:, None] & m_k[None, :])
"""


def test_masked_earlier_subchunks_are_no_peeled_tail() -> None:
    src = SUBCHUNKS.format(mask="m_k[None, :]")
    assert findings(src) == [(line_of(src, "mask=m_k[None, :], other"), "BC103")]


def test_the_later_subchunks_masked_on_rows_are_safe() -> None:
    assert findings(SUBCHUNKS.format(mask="(o_j[:, None] < T) & m_k[None, :]")) == []


# Key blocks inside a chunk, walked down from its end, then the blocks below the chunk, walked
# down to 0 (all full). The second loop's masked reads are no tail of the first, which reaches past
# T when the chunk is the last, partial one; so with `i_t` a loaded chunk index, where the model
# cannot tell the second loop's tiles full.
KEY_BLOCKS = """\
import triton
import triton.language as tl


@triton.jit
def key_blocks(k_ptr, y_ptr, idx_ptr, T, K, BT: tl.constexpr, BS: tl.constexpr, BK: tl.constexpr):
    i_t = {chunk}
    o_d = tl.arange(0, BK)
    acc = tl.zeros([BS, BK], dtype=tl.float32)
    for off in range((i_t + 1) * BT - 2 * BS, i_t * BT - BS, -BS):
        o_s = off + tl.arange(0, BS)
        acc += tl.load(k_ptr + o_s[:, None] * K + o_d[None, :], mask={mask}, other=0.0)
    for off in range(i_t * BT - BS, -BS, -BS):
        o_s = off + tl.arange(0, BS)
        acc += tl.load(k_ptr + o_s[:, None] * K + o_d[None, :], mask=(o_s[:, None] < T) & (o_d[None, :] < K), other=0.0)
    tl.store(y_ptr + tl.arange(0, BS)[:, None] * K + o_d[None, :], acc, mask=o_d[None, :] < K)
"""
CHUNKS = ["tl.program_id(0)", "tl.load(idx_ptr + tl.program_id(0))"]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_blocks_walked_down_to_zero_are_no_tail_of_the_chunk_loop(chunk: str) -> None:
    src = KEY_BLOCKS.format(chunk=chunk, mask="(o_d[None, :] < K)")
    assert findings(src) == [(line_of(src, "mask=(o_d[None, :] < K), other"), "BC103")]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_the_chunk_loop_masked_on_keys_is_safe(chunk: str) -> None:
    assert findings(KEY_BLOCKS.format(chunk=chunk, mask="(o_s[:, None] < T) & (o_d[None, :] < K)")) == []


# One row of a sub-chunk per iteration: `active` bounds the row (a loop variable, no lane), `m_k`
# the columns. The row is a dimension of every access that steps by it: a mask that keeps only one
# of the two bounds is a partial guard.
ROWS = """\
import triton
import triton.language as tl


@triton.jit
def rows(k_ptr, y_ptr, T, K, BC: tl.constexpr, BK: tl.constexpr):
    i_t, i_k = tl.program_id(0), tl.program_id(1)
    o_k = i_k * BK + tl.arange(0, BK)
    m_k = o_k < K
    max_j = min(BC, T - i_t * BC)
    for j in tl.static_range(BC):
        active = j < max_j
        x = tl.load(k_ptr + (i_t * BC + j) * K + o_k, mask={mask}, other=0.0)
        tl.store(y_ptr + (i_t * BC + j) * K + o_k, x * 2.0, mask=m_k & active)
"""


@pytest.mark.parametrize("mask", ["active", "m_k"])
def test_a_mask_bounding_the_row_or_the_columns_alone_is_a_partial_guard(mask: str) -> None:
    src = ROWS.format(mask=mask)
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC103")]


def test_the_row_and_column_bounds_together_are_safe() -> None:
    assert findings(ROWS.format(mask="m_k & active")) == []


# Rows gathered through loaded token ids: the row mask bounds a lane the index reaches only
# through the gather. A mask left with it alone is a partial guard of the K tile.
GATHER = """\
import triton
import triton.language as tl


@triton.jit
def gather(x_ptr, idx_ptr, y_ptr, n_rows, K, BM: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    row_mask = rows < n_rows
    tok = tl.load(idx_ptr + rows, mask=row_mask, other=0)
    acc = tl.zeros([BM], dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + tl.arange(0, BK)
        x = tl.load(x_ptr + tok[:, None] * K + ks[None, :], mask={mask}, other=0.0)
        acc += tl.sum(x, 1)
    tl.store(y_ptr + rows, acc, mask=row_mask)
"""


def test_a_mask_bounding_only_the_gathered_rows_is_a_partial_guard() -> None:
    src = GATHER.format(mask="row_mask[:, None]")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC103")]


def test_the_gathered_rows_and_the_k_tile_bounded_are_safe() -> None:
    assert findings(GATHER.format(mask="row_mask[:, None] & (ks[None, :] < K)")) == []


def test_the_partial_guard_message_names_what_the_mask_tests() -> None:
    from boundcheck.engine import check_source
    from boundcheck.model import Language
    from boundcheck.settings import Settings

    found, _ = check_source("k.py", Language.TRITON, GATHER.format(mask="row_mask[:, None]"), Settings())
    assert "is masked by `rows < n_rows` but not along `ks`" in found[0].message


# Chunks of a split walked from its last chunk down: `cdiv(s, BT) - 1` is where the loop stops
# going down, not a stop before the tail; the first chunk it runs may be the partial one.
SPLIT_DOWN = """\
import triton
import triton.language as tl


@triton.jit
def split_down(q_ptr, y_ptr, T, K, S: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr):
    i_s, i_k = tl.program_id(0), tl.program_id(1)
    o_k = i_k * BK + tl.arange(0, BK)
    acc = tl.zeros([BK], dtype=tl.float32)
    for i_t in range(tl.cdiv(min(i_s * S + S, T), BT) - 1, tl.cdiv(i_s * S, BT) - 1, -1):
        o_t = i_t * BT + tl.arange(0, BT)
        b_q = tl.load(q_ptr + o_k[:, None] + o_t[None, :] * K, mask={mask}, other=0.0)
        acc += tl.sum(b_q, 1)
    tl.store(y_ptr + i_s * K + o_k, acc, mask=o_k < K)
"""


def test_a_loop_walking_down_from_the_last_chunk_runs_the_partial_one() -> None:
    src = SPLIT_DOWN.format(mask="(o_k[:, None] < K)")
    assert findings(src) == [(line_of(src, "b_q = tl.load"), "BC103")]


def test_the_chunks_walked_down_with_their_rows_bounded_are_safe() -> None:
    assert findings(SPLIT_DOWN.format(mask="(o_k[:, None] < K) & (o_t[None, :] < T)")) == []


TOKENS = """\
import triton
import triton.language as tl


@triton.jit
def conv(x_ptr, y_ptr, dim, stride_t, seqlen, t_max, BLOCK_N: tl.constexpr):
    feats = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for t in range(STOP):
        acc += tl.load(x_ptr + t * stride_t + feats, mask=feats < dim)
        tl.store(y_ptr + t * stride_t + feats, acc, mask=(t < seqlen) & (feats < dim))
"""


def test_a_row_test_its_own_range_makes_true_bounds_no_row() -> None:
    # `t < seqlen` inside `for t in range(seqlen)` holds on every row: the load needs no such test
    assert findings(TOKENS.replace("STOP", "seqlen")) == []


def test_a_row_test_on_another_extent_than_the_range_still_bounds_the_row() -> None:
    # rows up to t_max, stores up to seqlen: the rows past seqlen are read unmasked
    src = TOKENS.replace("STOP", "t_max")
    assert findings(src) == [(line_of(src, "acc += tl.load"), "BC103")]
