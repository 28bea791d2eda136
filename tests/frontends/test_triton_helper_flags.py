"""Flags a jit helper is given: a helper that masks an axis only where its caller says the axis is
partial (``if first and second: … elif first: … elif second: … else: <unmasked>``) is safe where the
caller's flags come from a divisibility or equality fact (``@triton.heuristics`` EVEN_M / EVEN_N,
a local ``padded = HEAD != BLOCK_D``), read through ``not (first and second)`` and the ``elif``
tests: in ``elif first`` the second axis is full. A flag that is no such fact proves nothing."""

from __future__ import annotations

from tests.checking import findings, line_of

HELPER = '''\
import triton
import triton.language as tl


@triton.jit
def load_tile(ptrs, rows, cols, M, N, first, second):
    if first and second:
        t = tl.load(ptrs, mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)
    elif first:
        t = tl.load(ptrs, mask=rows[:, None] < M, other=0.0)
    elif second:
        t = tl.load(ptrs, mask=cols[None, :] < N, other=0.0)
    else:
        t = tl.load(ptrs)
    return t


'''

KERNEL = '''\
@triton.heuristics({"EVEN_M": lambda args: args["M"] % args["BLOCK_M"] == 0,
                    "EVEN_N": lambda args: args["N"] % args["BLOCK_N"] == 0})
@triton.jit
def copy(X, Y, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         EVEN_M: tl.constexpr, EVEN_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = load_tile(X + rows[:, None] * stride + cols[None, :], rows, cols, M, N, FIRST, SECOND)
    tl.store(Y + rows[:, None] * stride + cols[None, :], x, mask=(rows[:, None] < M) & (cols[None, :] < N))
'''


def flagged(first: str, second: str, heuristics: str | None = None) -> list[tuple[int, str]]:
    kernel = KERNEL.replace("FIRST", first).replace("SECOND", second)
    if heuristics is not None:
        kernel = kernel.replace('args["N"] % args["BLOCK_N"] == 0', heuristics)
    return findings(HELPER + kernel)


ROWS_ONLY = line_of(HELPER, "mask=rows[:, None] < M, other")
COLS_ONLY = line_of(HELPER, "mask=cols[None, :] < N, other")
UNMASKED = line_of(HELPER, "t = tl.load(ptrs)")


def test_heuristic_flags_passed_as_pad_first_and_pad_second_make_every_branch_safe() -> None:
    assert flagged("not EVEN_M", "not EVEN_N") == []


def test_a_flag_fixed_true_by_the_caller_leaves_the_other_axis_full_in_its_branch() -> None:
    # `elif first` with first = True: reached only where `second` (not EVEN_N) is false
    assert flagged("True", "not EVEN_N") == []


def test_flags_swapped_between_the_axes_prove_the_wrong_axis() -> None:
    # `elif first` masks rows, but `second` now says the rows (EVEN_M) are full, not the columns;
    # the unmasked `else` still has both axes full
    assert flagged("not EVEN_N", "not EVEN_M") == [(ROWS_ONLY, "BC103"), (COLS_ONLY, "BC103")]


def test_a_flag_that_is_no_divisibility_fact_proves_nothing() -> None:
    # EVEN_N set from N > BLOCK_N says nothing about the last column tile
    assert flagged("not EVEN_M", "not EVEN_N", 'args["N"] > args["BLOCK_N"]') == \
        [(ROWS_ONLY, "BC103"), (UNMASKED, "BC101")]


PADDED = '''\
import triton
import triton.language as tl


@triton.jit
def load_fn(block_ptr, first, second):
    if first and second:
        tensor = tl.load(block_ptr, boundary_check=(0, 1), padding_option="zero")
    elif first:
        tensor = tl.load(block_ptr, boundary_check=(0,), padding_option="zero")
    elif second:
        tensor = tl.load(block_ptr, boundary_check=(1,), padding_option="zero")
    else:
        tensor = tl.load(block_ptr)
    return tensor


@triton.jit
def inner(acc, k_ptr, n_tiles, BLOCK_N: tl.constexpr, PADDED_HEAD: tl.constexpr):
    for _ in range(n_tiles):
        k = load_fn(k_ptr, PADDED_HEAD, False)
        acc += tl.sum(k, axis=1)
        k_ptr = tl.advance(k_ptr, (0, BLOCK_N))
    return acc


@triton.jit
def attn(Q, K, Out, seqlen_q, seqlen_k, stride_qm, stride_kn,
         HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    padded_head = HEAD != BLOCK_D
    q_ptr = tl.make_block_ptr(base=Q, shape=(seqlen_q, HEAD), strides=(stride_qm, 1),
                              offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_D), order=(1, 0))
    k_ptr = tl.make_block_ptr(base=K, shape=(HEAD, seqlen_k), strides=(1, stride_kn),
                              offsets=(0, 0), block_shape=(BLOCK_D, BLOCK_N), order=(0, 1))
    q = load_fn(q_ptr, True, padded_head)
    acc = inner(tl.sum(q, axis=0), k_ptr, seqlen_k // BLOCK_N, BLOCK_N, padded_head)
    offs = tl.arange(0, BLOCK_D)
    tl.store(Out + start_m * BLOCK_D + offs, acc, mask=offs < HEAD)
'''


UNCHECKED = next(i for i, line in enumerate(PADDED.splitlines(), start=1) if line.strip() == "tensor = tl.load(block_ptr)")


def test_a_local_equality_flag_reaches_the_helper_through_another_helper() -> None:
    # q: `elif first` with first = True, so padded_head is false: HEAD == BLOCK_D, the columns are
    # full; k (two levels down): `else` with PADDED_HEAD false, its rows are the whole head
    assert [f for f in findings(PADDED) if f[1] != "BC301"] == []


def test_a_flag_that_is_no_equality_leaves_the_head_axis_unproven() -> None:
    # HEAD > BLOCK_D false still lets HEAD < BLOCK_D: the head tile can be partial
    src = PADDED.replace("padded_head = HEAD != BLOCK_D", "padded_head = HEAD > BLOCK_D")
    assert [f for f in findings(src) if f[1] != "BC301"] == \
        [(line_of(src, 'boundary_check=(0,), padding'), "BC103"), (UNCHECKED, "BC101")]


def test_a_flag_assigned_twice_is_not_read_through_its_first_test() -> None:
    src = PADDED.replace("    padded_head = HEAD != BLOCK_D\n",
                         "    padded_head = HEAD != BLOCK_D\n    if seqlen_q > 4096:\n        padded_head = False\n")
    assert (line_of(src, 'boundary_check=(0,), padding'), "BC103") in findings(src)


def test_a_branch_the_fixed_flags_rule_out_is_not_walked() -> None:
    # second = True: `elif first` needs `not second`, and `else` needs it too; neither runs
    assert flagged("not EVEN_M", "True") == []


def test_a_branch_still_reachable_with_a_fixed_flag_is_checked() -> None:
    # first = True, second unknown: `elif first` runs with the columns unproven (EVEN_N from N > BLOCK_N)
    assert flagged("True", "not EVEN_N", 'args["N"] > args["BLOCK_N"]') == [(ROWS_ONLY, "BC103")]


SLOTS = '''\
import triton
import triton.language as tl


@triton.jit
def gather(idx_ptr, out_ptr, T, TK, K: tl.constexpr, K_POW2: tl.constexpr, TOKENS: tl.constexpr):
    BLOCK: tl.constexpr = TOKENS * K_POW2
    IS_POW2_K: tl.constexpr = K == K_POW2
    lanes = tl.arange(0, BLOCK)
    if IS_POW2_K:
        gi = tl.program_id(0) * BLOCK + lanes
        e = tl.load(idx_ptr + gi)
        tl.store(out_ptr + gi, e, mask=gi < TK)
    else:
        token = tl.program_id(0) * TOKENS + lanes // K_POW2
        slot = lanes % K_POW2
        valid = (token < T) & (slot < K)
        e = tl.load(idx_ptr + token * K + slot, mask=valid, other=-1)
        tl.store(out_ptr + token * K + slot, e, mask=valid)
'''


def test_an_equality_test_in_the_kernel_covers_only_the_tile_it_names() -> None:
    # K == K_POW2 says the K slots fill their power-of-two tile; the flat lane gi runs to TK, which
    # another mask's `slot < K` on the same arange does not make an extent of K
    assert findings(SLOTS) == [(line_of(SLOTS, "e = tl.load(idx_ptr + gi)"), "BC101")]


def test_a_local_flag_read_in_the_kernel_itself() -> None:
    src = '''\
import triton
import triton.language as tl


@triton.jit
def row_copy(X, Y, stride, HEAD: tl.constexpr, BLOCK_D: tl.constexpr):
    padded = HEAD != BLOCK_D
    cols = tl.arange(0, BLOCK_D)
    if not padded:
        x = tl.load(X + tl.program_id(0) * stride + cols)
    else:
        x = tl.load(X + tl.program_id(0) * stride + cols, mask=cols < HEAD, other=0.0)
    tl.store(Y + tl.program_id(0) * stride + cols, x, mask=cols < HEAD)
'''
    assert findings(src) == []
    near = src.replace("padded = HEAD != BLOCK_D", "padded = HEAD > BLOCK_D")
    assert findings(near) == [(line_of(near, "x = tl.load(X + tl.program_id(0) * stride + cols)"), "BC101")]


def test_a_finding_in_a_helper_points_at_the_call_that_passes_the_unmasked_case() -> None:
    """The flags a caller passes decide which of the helper's loads runs: the finding on the
    helper's unmasked load names that call."""
    from boundcheck.engine import check_source
    from boundcheck.model import Language
    from boundcheck.settings import Settings

    src = HELPER + KERNEL.replace("FIRST", "False").replace("SECOND", "False")
    found, _ = check_source("k.py", Language.TRITON, src, Settings())
    assert [(f.span.line, f.code) for f in found] == [(line_of(src, "t = tl.load(ptrs)"), "BC101")]
    assert [(s.line, note) for s, note in found[0].related] == [
        (line_of(src, "x = load_tile("), "reached through the helper call here")]
