"""BC103 sites the Triton mutator skips because dropping the conjunct cannot put a lane out of
bounds: ``o_k < T`` in a loop over the key tiles below the program's own query tile, and a load
through an index clamped into the extent, however many names the clamp is reached through; and
the near variants that are still mutated."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_triton
from bench.quality.mutate_triton import BELOW_OWN_TILE

CLAMP = "not a bound bug: the index is clamped into the extent (only the padding changes)"


def mutate(body: str):
    return mutate_triton.mutate("k.py", "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent(body))


def dropped(muts, operator: str = "drop-k-term") -> list[str]:
    return [m.description for m in muts.mutants if m.operator == operator]


KEYS = '''\
    @triton.jit
    def k(Q, K, O, T, D: tl.constexpr, BT: tl.constexpr, BS: tl.constexpr):
        i_t = tl.program_id(0)
        o_q = i_t * BT + tl.arange(0, BT)
        o_d = tl.arange(0, D)
        m_q = o_q < T
        acc = tl.zeros([BT, D], dtype=tl.float32)
        for i_s in range({range}):
            o_k = i_s + tl.arange(0, BS)
            m_k = o_k < T
            b_k = tl.load(K + o_k[:, None] * D + o_d[None, :], mask=m_k[:, None] & (o_d[None, :] < D), other=0.0)
            acc += tl.sum(b_k, 0)[None, :]
        tl.store(O + o_q[:, None] * D + o_d[None, :], acc, mask=m_q[:, None] & (o_d[None, :] < D))
'''


def _keys(loop: str, host: str = "") -> str:
    return textwrap.dedent(KEYS.format(range=loop)) + textwrap.dedent(host)


def test_key_tiles_walked_down_from_below_the_own_tile_are_skipped() -> None:
    muts = mutate(_keys("i_t * BT - BS, -BS, -BS"))
    assert muts.skipped[("drop-k-term", "BC103", BELOW_OWN_TILE)] == 1
    assert dropped(muts) == []


def test_key_tiles_up_to_the_own_tile_with_a_stated_multiple_are_skipped() -> None:
    muts = mutate(_keys("0, i_t * BT, BS", '''
        def launch(q, k, o, T, D, BT, BS):
            assert BT % BS == 0
            k[(triton.cdiv(T, BT),)](q, k, o, T, D, BT, BS)
        '''))
    assert muts.skipped[("drop-k-term", "BC103", BELOW_OWN_TILE)] == 1
    assert dropped(muts) == []


def test_key_tiles_up_to_the_own_tile_without_a_stated_multiple_are_still_mutated() -> None:
    """With BS no divisor of BT the last key tile reaches past i_t * BT, and past T."""
    muts = mutate(_keys("0, i_t * BT, BS"))
    assert not any(r == BELOW_OWN_TILE for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `m_k[:, None]` from the mask"]


def test_key_tiles_of_the_own_tile_are_still_mutated() -> None:
    """``range(i_t * BT, min((i_t + 1) * BT, T), BS)`` walks the program's own, maybe partial, tile."""
    muts = mutate(_keys("i_t * BT, min((i_t + 1) * BT, T), BS", '''
        def launch(q, k, o, T, D, BT, BS):
            assert BT % BS == 0
        '''))
    assert not any(r == BELOW_OWN_TILE for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `m_k[:, None]` from the mask"]


def test_key_tiles_below_a_tile_the_kernel_never_bounds_are_still_mutated() -> None:
    """``o_q < T`` is what makes ``i_t * BT`` a tile of T; against another extent it says nothing."""
    muts = mutate(_keys("i_t * BT - BS, -BS, -BS").replace("m_q = o_q < T", "m_q = o_q < 2 * T"))
    assert not any(r == BELOW_OWN_TILE for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `m_k[:, None]` from the mask"]


DEEP_CLAMP = '''\
    @triton.jit
    def k(X, Y, seq_len, s_row, D, KS: tl.constexpr, BM: tl.constexpr, BD: tl.constexpr):
        tile = tl.program_id(0) % tl.cdiv(seq_len, BM)
        start = tile * BM
        rows = start + tl.arange(0, BM)
        rows_valid = rows < seq_len
        for c in range(0, D, BD):
            cc = c + tl.arange(0, BD)
            for j in range(KS):
                shift = j - KS // 2
                keys = rows + shift
                key_valid = rows_valid & (keys >= 0) & (keys < seq_len)
                safe_key = tl.minimum(tl.maximum(keys, 0), seq_len - 1)
                ptrs = X + safe_key[:, None] * s_row + cc[None, :]
                {access}
'''


def test_load_through_a_clamp_several_names_deep_is_skipped() -> None:
    muts = mutate(DEEP_CLAMP.format(access=(
        "x = tl.load(ptrs, mask=key_valid[:, None] & (cc[None, :] < D), other=0.0)"
        "\n                tl.store(Y + cc, tl.sum(x, 0), mask=cc < D)")))
    assert muts.skipped[("drop-k-term", "BC103", CLAMP)] == 1
    assert dropped(muts) == []


def test_store_through_a_clamp_several_names_deep_is_still_mutated() -> None:
    muts = mutate(DEEP_CLAMP.format(access=(
        "tl.store(ptrs, tl.zeros([BM, BD], dtype=tl.float32), mask=key_valid[:, None] & (cc[None, :] < D))")))
    assert not any(r == CLAMP for (_, _, r) in muts.skipped)
    assert dropped(muts) == ["dropped `key_valid[:, None]` from the mask"]


GATHER = '''\
    @triton.jit
    def k(X, W, IDX, Y, M, N, H, BM: tl.constexpr, BN: tl.constexpr, BH: tl.constexpr):
        rows = tl.program_id(0) * BM + tl.arange(0, BM)
        cols = tl.program_id(1) * BN + tl.arange(0, BN)
        row_mask = rows < M
        token = tl.load(IDX + rows, mask=row_mask, other={other}).to(tl.int64)
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for h in range(0, H, BH):
            o_h = h + tl.arange(0, BH)
            h_mask = o_h < H
            x = tl.load(X + token[:, None] * H + o_h[None, :], mask=row_mask[:, None] & h_mask[None, :], other=0.0)
            w = tl.load(W + o_h[:, None] * N + cols[None, :], mask=h_mask[:, None] & (cols[None, :] < N), other=0.0)
            {use}
        tl.store(Y + rows[:, None] * N + cols[None, :], acc, mask=row_mask[:, None] & (cols[None, :] < N))
'''


def _gather(use: str = "acc += tl.dot(x, w)", other: str = "0") -> str:
    return GATHER.format(use=use, other=other)


def test_gathered_rows_that_reach_only_their_own_output_rows_are_skipped() -> None:
    muts = mutate(_gather())
    assert muts.skipped[("drop-mask-dim", "BC103", mutate_triton.GATHERED)] == 1
    assert "dropped `row_mask[:, None]` from the mask" not in dropped(muts, "drop-mask-dim")


def test_gathered_rows_summed_across_the_rows_are_still_mutated() -> None:
    """Row 0's data in the masked rows reaches a sum along the rows: a wrong result."""
    muts = mutate(_gather("acc += tl.sum(x, 0)[None, :BN] + tl.dot(x, w)"))
    assert not any(r == mutate_triton.GATHERED for (_, _, r) in muts.skipped)
    assert "dropped `row_mask[:, None]` from the mask" in dropped(muts, "drop-mask-dim")


def test_rows_gathered_with_an_unknown_padding_are_still_mutated() -> None:
    """Without ``other=0`` the masked lanes' index is undefined: the row read may be anywhere."""
    muts = mutate(_gather(other="-1"))
    assert not any(r == mutate_triton.GATHERED for (_, _, r) in muts.skipped)
    assert "dropped `row_mask[:, None]` from the mask" in dropped(muts, "drop-mask-dim")


def test_store_through_gathered_rows_is_still_mutated() -> None:
    """A store through row 0 overwrites it: only loads are spared."""
    muts = mutate(_gather("tl.store(X + token[:, None] * H + o_h[None, :], x, mask=h_mask[None, :] & row_mask[:, None])"))
    stores = [m for m in muts.mutants if m.operator == "drop-mask-dim" and "tl.store(X" in m.source.splitlines()[m.line - 1]]
    assert [m.description for m in stores] == ["dropped `row_mask[:, None]` from the mask"]


def test_gathered_rows_under_a_mask_shared_with_a_store_are_still_mutated() -> None:
    """The named mask also guards the store of the output rows: dropping it writes past them."""
    muts = mutate(_gather("blk = row_mask[:, None] & h_mask[None, :]\n"
                          "            y = tl.load(X + token[:, None] * H + o_h[None, :], mask=blk, other=0.0)\n"
                          "            tl.store(Y + rows[:, None] * H + o_h[None, :], y, mask=blk)"))
    assert muts.skipped[("drop-mask-dim", "BC103", mutate_triton.GATHERED)] == 1  # the inline-masked load only
    assert dropped(muts, "drop-mask-dim").count("dropped `row_mask[:, None]` from the mask") == 1


def test_a_padding_mutant_under_a_mask_true_on_every_lane_is_no_bug() -> None:
    """``o_k < T`` below the own tile pads no lane, so ``other=-inf`` there reaches the sum only
    along the head dimension, which the sum over keys does not reduce."""
    muts = mutate(_keys("i_t * BT - BS, -BS, -BS").replace("mask=m_k[:, None] & (o_d[None, :] < D)",
                                                           "mask=m_k[:, None]"))
    assert [m for m in muts.mutants if m.operator == "padding-zero-to-neginf"] == []
    muts = mutate(_keys("0, T, BS").replace("mask=m_k[:, None] & (o_d[None, :] < D)", "mask=m_k[:, None]"))
    assert [m.operator for m in muts.mutants if m.operator == "padding-zero-to-neginf"] == ["padding-zero-to-neginf"]


def test_dropping_a_mask_true_on_every_lane_is_no_bug() -> None:
    muts = mutate(_keys("i_t * BT - BS, -BS, -BS").replace("mask=m_k[:, None] & (o_d[None, :] < D)",
                                                           "mask=m_k[:, None]"))
    assert muts.skipped[("drop-mask", "BC101", BELOW_OWN_TILE)] == 1
    assert "dropped mask= of tl.load" not in [m.description for m in muts.mutants]


UNIT_GATHER = '''\
    @triton.jit
    def gather(out_ptr, src_ptr, index_ptr, n, BLOCK_I: tl.constexpr):
        idx = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
        rows = tl.load(index_ptr + idx, mask=idx < n)
        tl.store(out_ptr + idx, rows, mask=idx < n)


    def launch(out, src, index):
        n = index.shape[0]
        gather[(triton.cdiv(n, {block}),)](out, src, index, n, BLOCK_I={block})
'''


def test_a_mask_on_a_tile_every_launch_makes_one_lane_is_skipped() -> None:
    muts = mutate(UNIT_GATHER.format(block=1))
    assert muts.skipped[("drop-mask", "BC101", mutate_triton.ONE_LANE)] == 1
    assert muts.skipped[("drop-mask", "BC102", mutate_triton.ONE_LANE)] == 1
    assert dropped(muts, "drop-mask") == []


def test_a_mask_on_a_wider_tile_is_mutated() -> None:
    muts = mutate(UNIT_GATHER.format(block=128))
    assert dropped(muts, "drop-mask") == ["dropped mask= of tl.load", "dropped mask= of tl.store"]


WHOLE_BLOCK = '''\
    @triton.jit
    def col(x, y, T, BT: tl.constexpr):
        i = tl.program_id(0)
        p = tl.make_block_ptr(x + i * BT, (BT,), (1,), (OFFSET,), (BT,), (0,))
        q = tl.make_block_ptr(y, (T,), (1,), (i * BT,), (BT,), (0,))
        tl.store(q, tl.load(p, boundary_check=(0,)), boundary_check=(0,))
'''


def test_a_check_on_a_block_as_wide_as_its_shape_is_no_bug_to_drop() -> None:
    # fla's wy_fast scratch column: shape (BT,) in blocks of (BT,) from 0 never leaves the shape
    muts = mutate(WHOLE_BLOCK.replace("OFFSET", "0"))
    assert muts.skipped[("drop-boundary-check", "BC101", mutate_triton.WHOLE_BLOCK)] == 1
    assert [m.description for m in muts.mutants if m.operator == "drop-boundary-check"] == \
        ["dropped boundary_check= of a block-pointer tl.store"]


def test_the_same_block_shifted_is_still_mutated() -> None:
    muts = mutate(WHOLE_BLOCK.replace("OFFSET", "16"))
    assert sorted(m.description for m in muts.mutants if m.operator == "drop-boundary-check") == \
        ["dropped boundary_check= of a block-pointer tl.load", "dropped boundary_check= of a block-pointer tl.store"]
