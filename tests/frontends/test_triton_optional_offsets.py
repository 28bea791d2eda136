"""Optional offsets: a jit helper that masks an axis only where its caller passes that axis'
offsets (``if offset_first is not None: mask = offset_first[:, None] < boundary_first``) reads the
test as a flag of the caller's. The argument says which: ``None`` written, a lane, or the test that
chose it (``None if not PADDED_HEAD else tl.arange(0, D)``; ``if MASK_STEPS: offs = … else: offs =
None``), whose facts carry over as ``if PADDED_HEAD:`` would. A scalar test used as a number
(``n_blocks - masked_blocks`` with ``masked_blocks = n % B != 0``) is an unknown 0 or 1, so the
loop over ``n_full_blocks`` stops before the tail the masked call takes up."""

from __future__ import annotations

from tests.checking import findings, line_of

ATTENTION = '''\
import triton
import triton.language as tl


@triton.jit
def _load_fn(ptrs, offset_first, offset_second, boundary_first, boundary_second):
    if offset_first is not None and offset_second is not None:
        mask = (offset_first[:, None] < boundary_first) & (offset_second[None, :] < boundary_second)
        tensor = tl.load(ptrs, mask=mask, other=0.0)
    elif offset_first is not None:
        mask = offset_first[:, None] < boundary_first
        tensor = tl.load(ptrs, mask=mask, other=0.0)
    elif offset_second is not None:
        mask = offset_second[None, :] < boundary_second
        tensor = tl.load(ptrs, mask=mask, other=0.0)
    else:
        tensor = tl.load(ptrs)
    return tensor


@triton.jit
def _inner(acc, k_ptrs, seqlen_k, block_min, block_max, stride_kn,
           BLOCK_N: tl.constexpr, HEAD: tl.constexpr, HEAD_POW2: tl.constexpr,
           MASK_STEPS: tl.constexpr, PADDED_HEAD: tl.constexpr):
    for start_n in range(block_min, block_max, BLOCK_N):
        if MASK_STEPS:
            k_offs_n = start_n + tl.arange(0, BLOCK_N)
        else:
            k_offs_n = None
        k_offs_k = None if not PADDED_HEAD else tl.arange(0, HEAD_POW2)
        k = _load_fn(k_ptrs, k_offs_k, k_offs_n, HEAD, seqlen_k)
        acc += tl.sum(k, axis=1)
        k_ptrs += BLOCK_N * stride_kn
    return acc


@triton.jit
def kernel(K, Out, seqlen_k, stride_kn, BLOCK_N: tl.constexpr, HEAD: tl.constexpr, HEAD_POW2: tl.constexpr):
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_POW2)
    k_ptrs = K + offs_d[:, None] + offs_n[None, :] * stride_kn
    acc = tl.zeros([HEAD_POW2], dtype=tl.float32)
    n_blocks = tl.cdiv(seqlen_k, BLOCK_N)
    masked_blocks = (seqlen_k % BLOCK_N) != 0
    n_full_blocks = n_blocks - masked_blocks
    block_min = 0
    block_max = n_blocks * BLOCK_N
    if n_full_blocks > 0:
        block_max = n_full_blocks * BLOCK_N
        acc = _inner(acc, k_ptrs, seqlen_k, block_min, block_max, stride_kn, BLOCK_N, HEAD, HEAD_POW2,
                     MASK_STEPS=False, PADDED_HEAD=HEAD != HEAD_POW2)
        block_min = block_max
        block_max = n_blocks * BLOCK_N
    if masked_blocks > 0:
        k_ptrs += n_full_blocks * BLOCK_N * stride_kn
        acc = _inner(acc, k_ptrs, seqlen_k, block_min, block_max, stride_kn, BLOCK_N, HEAD, HEAD_POW2,
                     MASK_STEPS=True, PADDED_HEAD=HEAD != HEAD_POW2)
    tl.store(Out + offs_d, acc, mask=offs_d < HEAD)
'''

FIRST_ONLY = line_of(ATTENTION, "mask = offset_first[:, None] < boundary_first")
SECOND_ONLY = line_of(ATTENTION, "mask = offset_second[None, :] < boundary_second") + 1
UNMASKED = line_of(ATTENTION, "tensor = tl.load(ptrs)")


def test_offsets_passed_only_where_the_axis_is_partial_make_every_branch_safe() -> None:
    # MASK_STEPS=False walks the full blocks (`n_blocks - masked_blocks`); MASK_STEPS=True masks
    # the keys; the head offsets are None only where HEAD == HEAD_POW2
    assert findings(ATTENTION) == []


def test_offsets_chosen_by_a_flag_that_is_no_equality_leave_the_head_unproven() -> None:
    src = ATTENTION.replace("PADDED_HEAD=HEAD != HEAD_POW2)", "PADDED_HEAD=HEAD > HEAD_POW2)")
    assert findings(src) == [(SECOND_ONLY, "BC103"), (UNMASKED, "BC101")]


def test_none_written_for_the_head_offsets_leaves_the_head_unmasked() -> None:
    src = ATTENTION.replace("k = _load_fn(k_ptrs, k_offs_k, k_offs_n,", "k = _load_fn(k_ptrs, None, k_offs_n,")
    assert findings(src) == [(SECOND_ONLY, "BC103"), (UNMASKED, "BC101")]


def test_a_conditional_expression_chooses_the_key_offsets_as_the_if_statement_does() -> None:
    src = ATTENTION.replace(
        "        if MASK_STEPS:\n            k_offs_n = start_n + tl.arange(0, BLOCK_N)\n        else:\n            k_offs_n = None\n",
        "        k_offs_n = start_n + tl.arange(0, BLOCK_N) if MASK_STEPS else None\n")
    assert src != ATTENTION and findings(src) == []


def test_an_unmasked_walk_over_every_block_reaches_the_partial_one() -> None:
    # the first call's loop now runs to n_blocks * BLOCK_N: its last tile is partial, unmasked
    src = ATTENTION.replace("        block_max = n_full_blocks * BLOCK_N\n", "")
    assert findings(src) == [(FIRST_ONLY + 1, "BC103"), (UNMASKED, "BC101")]


def test_the_masked_call_made_unmasked_is_reported() -> None:
    src = ATTENTION.replace("MASK_STEPS=True,", "MASK_STEPS=False,")
    assert findings(src) == [(FIRST_ONLY + 1, "BC103"), (UNMASKED, "BC101")]
