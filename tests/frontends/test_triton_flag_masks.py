"""A mask chosen on each side of a compile-time test (``if not EVEN_N: m = rows & cols elif
S_POW2 != S: m = rows``) is read, after the test, as the fullest of the masks where every other one
leaves out only lanes its branch's facts make whole (``EVEN_N`` from a divisibility heuristic).
Without the heuristic, or with a branch that drops a lane no fact makes whole, the partial mask
stays reported."""

from __future__ import annotations

import pytest

from tests.checking import findings, line_of

MERGED = """\
import triton
import triton.language as tl


HEURISTICS
@triton.jit
def merged(x_ptr, y_ptr, N, stride, S: tl.constexpr, S_POW2: tl.constexpr, BLOCK_N: tl.constexpr,
           EVEN_N: tl.constexpr):
    s = tl.arange(0, S_POW2)
    offs = tl.arange(0, BLOCK_N)
    mask = None
    CHAIN
    x = tl.load(x_ptr + s[:, None] * stride + offs[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.sum(x, axis=0), mask=offs < N)
"""
EVEN = '@triton.heuristics({"EVEN_N": lambda args: args["N"] % args["BLOCK_N"] == 0})'
ELIF = """if not EVEN_N:
        mask = (s < S)[:, None] & (offs < N)[None, :]
    elif S_POW2 != S:
        mask = (s < S)[:, None]"""


def kernel(heuristics: str, chain: str) -> str:
    return MERGED.replace("HEURISTICS", heuristics).replace("CHAIN", chain)


def test_a_mask_the_flag_shortens_reads_as_the_full_one() -> None:
    assert findings(kernel(EVEN, ELIF)) == []


@pytest.mark.parametrize("heuristics, chain", [("", ELIF), (EVEN, ELIF.replace("(offs < N)[None, :]", "(s < S)[:, None]"))])
def test_a_dropped_lane_no_fact_makes_whole_stays_reported(heuristics: str, chain: str) -> None:
    src = kernel(heuristics, chain)
    assert findings(src) == [(line_of(src, "x = tl.load("), "BC103")]


def test_an_off_by_one_in_the_shortened_mask_stays_reported() -> None:
    src = kernel(EVEN, ELIF.replace("S:\n        mask = (s < S)[:, None]", "S:\n        mask = (s <= S)[:, None]"))
    assert findings(src) == [(line_of(src, "mask = (s <= S)[:, None]"), "BC104")]
