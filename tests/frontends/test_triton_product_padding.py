"""Padding carried through ``tl.dot``: the key tile's padded rows are whole padded columns of the
scores ``q @ k.T``, zero where the padding is zero, so a softmax over them takes 0 for a score
unless the product is masked. Each reading beside a near variant that stays silent."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings
from tests.checking import findings, line_of

ATTENTION = '''\
import triton
import triton.language as tl


@triton.jit
def attn(Q, K, V, O, N, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         CAUSAL: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < N, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    for start in range(0, N, BLOCK_N):
        offs_n = start + tl.arange(0, BLOCK_N)
        k = tl.load(K + offs_n[:, None] * D + offs_d[None, :], mask=offs_n[:, None] < N{other})
        v = tl.load(V + offs_n[:, None] * D + offs_d[None, :], mask=offs_n[:, None] < N, other=0.0)
        s = {scores}
{masking}        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_new
    tl.store(O + offs_m[:, None] * D + offs_d[None, :], acc / l_i[:, None], mask=offs_m[:, None] < N)
'''


def attention(other: str = ", other=0.0", scores: str = "tl.dot(q, tl.trans(k))", masking: str = "") -> str:
    return ATTENTION.format(other=other, scores=scores, masking=masking)


def test_zero_padded_keys_reach_the_row_max_through_the_scores() -> None:
    src = attention()
    assert findings(src) == [(line_of(src, "k = tl.load"), "BC202")]


def test_keys_without_other_reach_the_row_max_through_the_scores() -> None:
    src = attention(other="")
    assert findings(src) == [(line_of(src, "k = tl.load"), "BC201")]


def test_the_finding_names_the_dot_and_the_max_and_no_other_mends_it() -> None:
    src = attention()
    found, _ = check_source("attn.py", Language.TRITON, src, Settings())
    (finding,) = [f for f in found if f.code == "BC202"]
    assert f"the dot at line {line_of(src, 's = tl.dot')}" in finding.message and "tl.where(mask, s, float(\"-inf\"))" in finding.message
    assert [(span.line, note) for span, note in finding.related] == [
        (line_of(src, "m_new = tl.maximum"), "the max the padding reaches"),
        (line_of(src, "s = tl.dot"), "the dot that makes the padding whole rows or columns of its product"),
    ]


def test_scores_masked_to_minus_infinity_are_silent() -> None:
    assert findings(attention(masking="        s = tl.where(offs_n[None, :] < N, s, float(\"-inf\"))\n")) == []


def test_an_older_triton_trans_b_is_read_as_the_transpose() -> None:
    assert findings(attention(scores="tl.dot(q, k, trans_b=True)")) == \
        [(line_of(attention(), "k = tl.load"), "BC202")]


def test_a_mask_under_a_compile_time_flag_leaves_the_other_configuration_padded() -> None:
    # `if CAUSAL:` re-masks only causal launches; a non-causal launch takes the zero columns
    src = attention(masking="        if CAUSAL:\n"
                            "            s = tl.where(offs_m[:, None] >= offs_n[None, :], s, float(\"-inf\"))\n")
    assert findings(src) == [(line_of(src, "k = tl.load"), "BC202")]


def test_a_runtime_test_that_masks_the_straddling_tile_is_trusted() -> None:
    src = attention(masking="        if start + BLOCK_N > N:\n"
                            "            s = tl.where(offs_n[None, :] < N, s, float(\"-inf\"))\n")
    assert findings(src) == []


def test_padding_along_the_contracted_axis_stays_the_dot_s_own_use() -> None:
    # the head dimension padded with zero: the dot sums zeros, the scores have no padded column
    src = attention().replace("mask=offs_n[:, None] < N, other=0.0)\n        v",
                              "mask=offs_d[None, :] < D, other=0.0)\n        v")
    assert [c for _, c in findings(src) if c in ("BC201", "BC202")] == []


# a load inside one branch of a flag: the padding exists only where the other flag's re-mask runs
EVEN = '''\
import triton
import triton.language as tl


@triton.heuristics({{"EVEN_N": lambda args: args["N"] % args["BLOCK_N"] == 0}})
@triton.jit
def attn(Q, K, O, N, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < N, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    for start in range(0, N, BLOCK_N):
        offs_n = start + tl.arange(0, BLOCK_N)
        if EVEN_N:
            k = tl.load(K + offs_n[:, None] * D + offs_d[None, :])
        else:
            k = tl.load(K + offs_n[:, None] * D + offs_d[None, :], mask=offs_n[:, None] < N, other=0.0)
        s = tl.dot(q, tl.trans(k))
        if {test}:
            s += tl.where(offs_n[None, :] < N, 0, float("-inf"))
        m_i = tl.maximum(m_i, tl.max(s, 1))
    tl.store(O + offs_m, m_i, mask=offs_m < N)
'''


def test_a_remask_under_the_flag_that_chose_the_masked_load_is_silent() -> None:
    assert findings(EVEN.format(test="not EVEN_N")) == []


def test_a_load_made_under_a_flag_is_not_followed_through_another_flag_s_skipped_branch() -> None:
    # a limitation, chosen: flags the model does not relate (`if EVEN_N & EVEN_M: <unmasked> else:
    # <masked>`, then `if not EVEN_N: <re-mask>`) would otherwise report kernels that are right;
    # a load made on every path is followed (test_a_mask_under_a_compile_time_flag_…)
    assert findings(EVEN.format(test="D > 64")) == []


def test_zero_padding_of_both_operands_on_the_contracted_axis_cancels_a_shifted_one() -> None:
    # `1 + s` pads the score columns with 1, but the values' own zero padding on the same keys
    # cancels them in the second dot
    src = attention(scores="1 + tl.dot(q, tl.trans(k))").replace(
        "        m_new = tl.maximum(m_i, tl.max(s, 1))\n        p = tl.exp(s - m_new[:, None])\n",
        "        m_new = m_i\n        p = s\n").replace("l_i * alpha + tl.sum(p, 1)", "l_i")
    assert findings(src) == []


def test_keys_walked_below_the_program_s_own_tile_are_whole() -> None:
    # range(start - B, -B, -B) from the program's own tile walks whole tiles down to 0
    src = attention().replace("for start in range(0, N, BLOCK_N):",
                              "for start in range(tl.program_id(0) * BLOCK_M - BLOCK_N, -BLOCK_N, -BLOCK_N):")
    assert [c for _, c in findings(src) if c in ("BC201", "BC202")] == []


def test_a_large_negative_sentinel_is_the_max_s_identity_in_practice() -> None:
    # `-1e9`, `-10000.0`: the masking convention of attention kernels (-inf gives NaN on a fully
    # masked row); a small negative number is no such sentinel
    assert findings(attention(masking="        s = tl.where(offs_n[None, :] < N, s, -1e9)\n")) == []
    src = attention(masking="        s = tl.where(offs_n[None, :] < N, s, -1.0)\n")
    assert findings(src) == [(line_of(src, "k = tl.load"), "BC202")]


def test_masked_keys_of_tiles_below_the_program_s_own_pad_nothing() -> None:
    # range(0, pid * BLOCK_M, BLOCK_N): the keys before the query block are whole tiles, so the
    # mask is true on every lane and its zero padding never reaches the max
    src = attention().replace("for start in range(0, N, BLOCK_N):",
                              "for start in range(0, tl.program_id(0) * BLOCK_M, BLOCK_N):")
    assert [c for _, c in findings(src) if c in ("BC201", "BC202")] == []


PEELED = '''\
import triton
import triton.language as tl


@triton.jit
def part_sum(x_ptr, out_ptr, N, n_full, BLOCK: tl.constexpr):
    offset = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for block_id in range(0, n_full):
        acc += tl.load(x_ptr + offset)
        offset += BLOCK
    acc += tl.load(x_ptr + offset, mask=offset < N, other={pad})
    tl.store(out_ptr, tl.sum(acc, axis=0))
'''


def test_a_peeled_tail_is_no_whole_tile_of_its_own() -> None:
    # the masked load after the loop is the tail the loop leaves: its padding reaches the sum
    src = PEELED.format(pad='float("-inf")')
    assert findings(src) == [(line_of(src, "mask=offset < N"), "BC202")]
    assert findings(PEELED.format(pad="0.0")) == []


def test_a_masked_whole_tile_that_nothing_else_bounds_still_pads() -> None:
    # `group * G + arange(0, BLOCK_G)` under `< C`: the mask itself says the tile can be partial
    src = """\
import triton
import triton.language as tl


@triton.jit
def norm_bwd(W, DY, OUT, C, G, BLOCK_G: tl.constexpr):
    group = tl.program_id(0)
    offs = group * G + tl.arange(0, BLOCK_G)
    w = tl.load(W + offs, mask=offs < C, other=float("-inf"))
    dy = tl.load(DY + offs, mask=offs < C, other=0.0)
    tl.store(OUT + group, tl.sum(w * dy, axis=0))
"""
    assert findings(src) == [(line_of(src, "w = tl.load"), "BC202")]
