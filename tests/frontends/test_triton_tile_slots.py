"""Scratch laid out in whole tiles (stream-K partials): ``P + pid * BM * BN + rm[:, None] * BN +
rn[None, :]`` stays inside slot ``pid`` where BM and BN are tiles the kernel cuts a real extent
into. Each beside a near variant still reported: a width that is a size (a head, or a tile the
launch binds to a tensor's size) makes the same text a row-major matrix whose last tile can be
partial."""

from __future__ import annotations

from tests.checking import findings, line_of

STREAM_K = '''\
import triton
import triton.language as tl


@triton.jit
def partials(C, P, M, N, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BLOCK_N)
    pid_n = pid % tl.cdiv(N, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm1 = tl.arange(0, BLOCK_M)
    rn1 = tl.arange(0, BLOCK_N)
    acc = tl.load(P + SLOT + rm1[:, None] * BLOCK_N + rn1[None, :])
    tl.store(P + SLOT + rm1[:, None] * BLOCK_N + rn1[None, :], acc * 2)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm < M)[:, None] & (rn < N)[None, :])
LAUNCH'''


def test_a_tile_sized_slot_of_scratch_holds_its_lanes() -> None:
    for slot in ("pid * BLOCK_M * BLOCK_N", "(pid + 1) * BLOCK_N * BLOCK_M"):
        assert findings(STREAM_K.replace("SLOT", slot).replace("LAUNCH", "")) == [], slot


def test_a_tile_one_element_past_its_slot_is_still_reported() -> None:
    src = STREAM_K.replace("SLOT", "pid * BLOCK_M * BLOCK_N + 1").replace("LAUNCH", "")
    assert findings(src) == [(line_of(src, "acc = tl.load("), "BC101"), (line_of(src, "tl.store(P"), "BC102")]


def test_a_width_the_launch_gives_a_tensor_size_is_a_row_length() -> None:
    launch = '''

def run(c, p):
    M, N = c.shape
    partials[(4,)](c, p, M, N, c.stride(0), BLOCK_M=32, BLOCK_N=N)
'''
    src = STREAM_K.replace("SLOT", "pid * BLOCK_M * BLOCK_N").replace("LAUNCH", launch)
    assert findings(src) == [(line_of(src, "acc = tl.load("), "BC101"), (line_of(src, "tl.store(P"), "BC102")]


def test_a_width_no_extent_is_cut_into_is_a_row_length() -> None:
    """flash-attention's bwd preprocess: rows of D_HEAD, a head size, cut into BLOCK_M tiles."""
    src = '''\
import triton
import triton.language as tl


@triton.jit
def pre(Out, L, Delta, BLOCK_M: tl.constexpr, D_HEAD: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_n = tl.arange(0, D_HEAD)
    o = tl.load(Out + off_m[:, None] * D_HEAD + off_n[None, :])
    tl.store(Delta + off_m, tl.sum(o, axis=1))
'''
    assert (line_of(src, "o = tl.load("), "BC101") in findings(src)
