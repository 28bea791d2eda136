"""BC103 sites the Triton mutator skips because its own reading of the code says the dropped
conjunct is not a boundary bound (compile-time sizes only, index against index) or the access
stays in bounds without it (a load whose index is clamped into the extent); and the runtime-extent
conjunct next to them that is still mutated."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_triton

SIZES = "cannot tell: the dropped test compares compile-time sizes only (no runtime extent)"
INDICES = "not a bound: the mask compares no index with an extent"
CLAMP = "not a bound bug: the index is clamped into the extent (only the padding changes)"


def mutate(body: str):
    return mutate_triton.mutate("k.py", "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent(body))


def dropped(muts, operator: str = "drop-mask-dim") -> list[str]:
    return [m.description for m in muts.mutants if m.operator == operator]


def test_lanes_against_a_compile_time_bound_are_still_mutated() -> None:
    """``V`` may be a head dimension passed as constexpr: ``64 + o_v < V`` has a real tail when V is
    100, and the text cannot tell it from a chunk size ``BC + o_i < BT``."""
    muts = mutate('''\
        @triton.jit
        def k(A, T, H, BT: tl.constexpr, BC: tl.constexpr):
            i_t = tl.program_id(0)
            o_i = tl.arange(0, BC)
            o_r = i_t * BT + o_i
            p = A + o_r[:, None] * (H * BT) + (BC + o_i)[None, :]
            tl.store(p, tl.zeros([BC, BC], dtype=tl.float32), mask=(o_r[:, None] < T) & ((BC + o_i)[None, :] < BT))
        ''')
    assert not [k for k in muts.skipped if k[1] == "BC103"]
    assert dropped(muts) == ["dropped `((BC + o_i)[None, :] < BT)` from the mask"]


def test_compile_time_level_count_through_an_assigned_name_is_skipped() -> None:
    muts = mutate('''\
        @triton.jit
        def k(X, T, L: tl.constexpr, BT: tl.constexpr):
            o_t = tl.program_id(0) * BT + tl.arange(0, BT)
            m_t = o_t < T
            levels = (tl.log2(float(BT))).to(tl.int32) + 1
            x = tl.load(X + o_t[:, None] * L + levels + 2, mask=m_t[:, None] & ((levels + 2) < L), other=0.0)
            tl.store(X + o_t, tl.sum(x, 1), mask=m_t)
        ''')
    assert muts.skipped[("drop-mask-dim", "BC103", SIZES)] == 1
    assert dropped(muts) == []


def test_tile_offset_by_a_loop_variable_is_not_compile_time_and_is_mutated() -> None:
    muts = mutate('''\
        @triton.jit
        def k(A, T, NC: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr):
            o_r = tl.program_id(0) * BT + tl.arange(0, BC)
            for i_j in range(0, tl.program_id(1)):
                o_j = i_j * BC + tl.arange(0, BC)
                p = A + o_r[:, None] * BT + o_j[None, :]
                tl.store(p, tl.zeros([BC, BC], dtype=tl.float32), mask=(o_r[:, None] < T) & (o_j[None, :] < BT))
        ''')
    assert not any(r in (SIZES, INDICES) for (_, _, r) in muts.skipped)
    assert dropped(muts, "drop-k-term") == ["dropped `(o_j[None, :] < BT)` from the mask"]


def test_triangular_index_against_index_is_not_a_bound() -> None:
    muts = mutate('''\
        @triton.jit
        def k(A, T, BC: tl.constexpr):
            o_i = tl.arange(0, BC)
            o_A = tl.program_id(0) * BC + o_i
            m_A = o_A < T
            tl.store(A + o_A[:, None] * BC + o_i, tl.zeros([BC, BC], dtype=tl.float32), mask=m_A[:, None] & (o_i[:, None] < o_i))
            tl.store(A + o_A[:, None] * BC + o_i[None, :], tl.zeros([BC, BC], dtype=tl.float32),
                     mask=(o_A[:, None] < T) & (o_A[:, None] >= o_A[None, :]))
        ''')
    assert muts.skipped[("drop-mask-dim", "BC103", INDICES)] == 2
    assert dropped(muts) == []


def test_runtime_extent_conjunct_is_still_mutated() -> None:
    muts = mutate('''\
        @triton.jit
        def k(X, M, N, BM: tl.constexpr, BN: tl.constexpr):
            offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
            offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
            x = tl.load(X + offs_m[:, None] * N + offs_n[None, :], mask=(offs_m[:, None] < M) & (offs_n[None, :] < N), other=0.0)
            tl.store(X + offs_m[:, None] * N + offs_n[None, :], x * 2, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
        ''')
    assert dropped(muts) == ["dropped `(offs_n[None, :] < N)` from the mask"] * 2
    assert not [k for k in muts.skipped if k[1] == "BC103"]


CLAMPED = '''\
    @triton.jit
    def k(X, Y, seq_len, D, s_row, BM: tl.constexpr, BD: tl.constexpr):
        rows = tl.program_id(0) * BM + tl.arange(0, BM)
        cols = tl.arange(0, BD)
        safe_row = tl.minimum(rows, seq_len - 1)
        row_valid = rows < seq_len
        for c in range(0, D, BD):
            cc = c + cols
            {access}
    '''


def test_load_through_a_clamped_index_is_skipped() -> None:
    muts = mutate(CLAMPED.format(access=(
        "x = tl.load(X + safe_row[:, None] * s_row + cc[None, :], mask=(cc[None, :] < D) & row_valid[:, None],"
        " other=0.0)\n            tl.store(Y + cc, tl.sum(x, 0), mask=cc < D)")))
    assert muts.skipped[("drop-mask-dim", "BC103", CLAMP)] == 1
    assert dropped(muts) == []


def test_load_through_an_inline_two_sided_clamp_is_skipped() -> None:
    muts = mutate(CLAMPED.format(access=(
        "x = tl.load(X + tl.maximum(tl.minimum(rows - 1, seq_len - 1), 0)[:, None] * s_row + cc[None, :],"
        " mask=(cc[None, :] < D) & ((rows - 1)[:, None] >= 0) , other=0.0)"
        "\n            tl.store(Y + cc, tl.sum(x, 0), mask=cc < D)")))
    assert muts.skipped[("drop-mask-dim", "BC103", CLAMP)] == 1
    assert dropped(muts) == []


def test_store_through_a_clamped_index_is_still_mutated() -> None:
    muts = mutate(CLAMPED.format(access=(
        "tl.store(X + safe_row[:, None] * s_row + cc[None, :], tl.zeros([BM, BD], dtype=tl.float32),"
        " mask=(cc[None, :] < D) & row_valid[:, None])")))
    assert not any(r == CLAMP for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `row_valid[:, None]` from the mask"]


def test_clamp_into_another_extent_is_still_mutated() -> None:
    muts = mutate(CLAMPED.format(access=(
        "x = tl.load(X + tl.minimum(rows, BM - 1)[:, None] * s_row + cc[None, :],"
        " mask=(cc[None, :] < D) & row_valid[:, None], other=0.0)"
        "\n            tl.store(Y + cc, tl.sum(x, 0), mask=cc < D)")))
    assert not any(r == CLAMP for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `row_valid[:, None]` from the mask"]


def test_named_mask_that_also_guards_a_store_is_still_mutated() -> None:
    muts = mutate(CLAMPED.format(access=(
        "m = (cc[None, :] < D) & row_valid[:, None]"
        "\n            x = tl.load(X + safe_row[:, None] * s_row + cc[None, :], mask=m, other=0.0)"
        "\n            tl.store(Y + rows[:, None] * s_row + cc[None, :], x, mask=m)")))
    assert not any(r == CLAMP for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `row_valid[:, None]` from the mask"]
