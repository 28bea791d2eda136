"""Contracts that hold on one compile-time path only: a ``tl.static_assert`` under ``if USE_TMA:``
is compiled, and so checked, only where that branch is taken; an access on the other path keeps
the bound it needs."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

BRANCH_ASSERT = '''\
import triton
import triton.language as tl


@triton.jit
def k(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr, USE_TMA: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    {check}
    x = tl.load(X + rows[:, None] * N + cols[None, :], mask={mask}, other=0.0)
    tl.store(Y + rows[:, None] * N + cols[None, :], x, mask=(rows[:, None] < M) & (cols[None, :] < N))
'''


def _kernel(check: str, mask: str = "rows[:, None] < M") -> str:
    return BRANCH_ASSERT.format(check=check, mask=mask)


def test_static_assert_under_a_compile_time_branch_covers_only_that_branch() -> None:
    src = _kernel("if USE_TMA:\n        tl.static_assert(N % BN == 0)")
    assert findings(src, Language.TRITON) == [(line_of(src, "x = tl.load("), "BC103")]


def test_static_assert_at_the_top_of_the_kernel_still_covers_every_access() -> None:
    src = _kernel("tl.static_assert(N % BN == 0)")
    assert findings(src, Language.TRITON) == []


def test_static_assert_under_a_runtime_branch_is_still_compiled_and_covers() -> None:
    """A runtime ``if`` prunes nothing at compile time: the assert holds for every launch."""
    src = _kernel("if M > 0:\n        tl.static_assert(N % BN == 0)")
    assert findings(src, Language.TRITON) == []


def test_static_assert_covers_the_access_in_its_own_branch() -> None:
    src = _kernel("if USE_TMA:\n        tl.static_assert(N % BN == 0)\n"
                  "        tl.store(Y + rows[:, None] * N + cols[None, :], tl.load(X + rows[:, None] * N + cols[None, :],"
                  " mask=rows[:, None] < M, other=0.0), mask=rows[:, None] < M)")
    assert findings(src, Language.TRITON) == [(line_of(src, "x = tl.load("), "BC103")]


SUB_CHUNKS = '''\
import triton
import triton.language as tl


@triton.jit
def k(X, Y, T, D, BT: tl.constexpr, BC: tl.constexpr, BD: tl.constexpr, NC: tl.constexpr):
    i_t, i_i = tl.program_id(0), tl.program_id(1)
    o_i = tl.arange(0, BC)
    o_d = tl.arange(0, BD)
    o_c = i_t * BT + i_i * BC + o_i
    m_c = o_c < T
    m_d = o_d < D
    b_y = tl.load(X + o_c[:, None] * D + o_d[None, :], mask=m_c[:, None] & m_d[None, :], other=0.0)
    NC = min(NC, tl.cdiv(T - i_t * BT, BC))
    for i_j in range(i_i + 1, NC):
        o_j = i_t * BT + i_j * BC + o_i
        m_j = o_j < T
        b_x = tl.load(X + o_j[:, None] * D + o_d[None, :], mask={mask}, other=0.0)
        b_y += b_x
    tl.store(Y + o_c[:, None] * D + o_d[None, :], b_y, mask=m_c[:, None] & m_d[None, :])
'''


def test_sub_chunks_up_to_the_rest_of_the_extent_walk_its_partial_tail() -> None:
    """``min(NC, cdiv(T - i_t * BT, BC))`` sub-chunks end at the partial one in the last chunk: a
    masked access to the same buffer outside the loop is no peeled tail of it."""
    src = SUB_CHUNKS.format(mask="m_d[None, :]")
    assert findings(src, Language.TRITON) == [(line_of(src, "b_x = tl.load("), "BC103")]


def test_sub_chunks_bounded_by_their_own_rows_are_clean() -> None:
    assert findings(SUB_CHUNKS.format(mask="m_j[:, None] & m_d[None, :]"), Language.TRITON) == []


def test_sub_chunks_of_a_varlen_sequence_walk_its_partial_tail() -> None:
    """With a chunk index read from memory, ``T - i_t * BT`` is still what is left of the sequence."""
    src = SUB_CHUNKS.format(mask="m_d[None, :]").replace(
        "    i_t, i_i = tl.program_id(0), tl.program_id(1)\n",
        "    i_t, i_i = tl.program_id(0), tl.program_id(1)\n    i_t = tl.load(X + i_t).to(tl.int32)\n")
    assert findings(src, Language.TRITON) == [(line_of(src, "b_x = tl.load("), "BC103")]


GATHER = '''\
import triton
import triton.language as tl


@triton.jit
def k(A, B, C, IDS, EM, n_valid, N, K, top_k, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_id = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_token = tl.load(IDS + offs_id, mask=offs_id < EM, other=n_valid)
    token_mask = offs_token < n_valid
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        offs_k = k * BK + tl.arange(0, BK)
        a = tl.load(A + offs_token[:, None] // top_k * K + offs_k[None, :], mask={mask}, other=0.0)
        b = tl.load(B + offs_k[:, None] * N + offs_n[None, :], mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(C + offs_token[:, None] * N + offs_n[None, :], acc, mask={store_mask})
'''


def test_gathered_rows_the_kernel_bounds_elsewhere_need_their_bound() -> None:
    """Sorted token ids padded with ``n_valid``: the store bounds them, the load of A does not."""
    src = GATHER.format(mask="offs_k[None, :] < K", store_mask="token_mask[:, None] & (offs_n[None, :] < N)")
    assert findings(src, Language.TRITON) == [(line_of(src, "a = tl.load("), "BC103")]


def test_gathered_rows_bounded_by_the_mask_are_clean() -> None:
    src = GATHER.format(mask="token_mask[:, None] & (offs_k[None, :] < K)",
                        store_mask="token_mask[:, None] & (offs_n[None, :] < N)")
    assert findings(src, Language.TRITON) == []


def test_gathered_rows_the_kernel_never_bounds_are_trusted() -> None:
    """An index tile no comparison bounds (an embedding lookup) is taken to be in range."""
    src = GATHER.format(mask="offs_k[None, :] < K", store_mask="offs_n[None, :] < N")
    assert findings(src, Language.TRITON) == []


GROUPS = '''\
import triton
import triton.language as tl


@triton.jit
def k(X, Y, n_rows, hidden: tl.constexpr, groups: tl.constexpr, BR: tl.constexpr, BH: tl.constexpr):
    per_group: tl.constexpr = hidden // groups
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    row_mask = rows < n_rows
    acc = tl.zeros([BR], dtype=tl.float32)
    for start in range(0, per_group, BH):
        cols = start + tl.arange(0, BH)
        col_mask = cols < per_group
        x = tl.load(X + rows[:, None] * hidden + cols[None, :], mask={mask}, other=0.0)
        acc += tl.sum(x, 1)
    for start in range(0, per_group, BH):
        cols = start + tl.arange(0, BH)
        col_mask = cols < per_group
        m = row_mask[:, None] & col_mask[None, :]
        x = tl.load(X + rows[:, None] * hidden + cols[None, :], mask=m, other=0.0)
        tl.store(X + rows[:, None] * hidden + cols[None, :], x - acc[:, None], mask=m)
'''


def test_tiles_of_a_compile_time_length_split_among_groups_walk_a_partial_tail() -> None:
    """``hidden // groups`` compiled per value is no multiple of BH in general: the last tile is
    partial, and the same buffer's masked access in no other loop makes it a peeled tail."""
    src = GROUPS.format(mask="row_mask[:, None]")
    assert findings(src, Language.TRITON) == [(line_of(src, "x = tl.load("), "BC103")]


def test_tiles_of_a_compile_time_length_split_among_groups_bounded_are_clean() -> None:
    assert findings(GROUPS.format(mask="row_mask[:, None] & col_mask[None, :]"), Language.TRITON) == []
