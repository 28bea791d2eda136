"""Padding before a prefix scan, and the advice for a padding a step turns into a non-identity.

A forward ``tl.cumsum`` gives lane i the sum of lanes 0..i: lanes an upper-bound mask pads lie
after every valid lane, so they reach no valid lane's result (Megatron-LM's routing-map padding,
``cumsum(row == 0)`` over a row loaded with ``other=0``). A reversed scan, a mask with a lower
bound or lanes that fall carry the padding into valid lanes and stay reported. Where a step on
the way (``exp``, a test ``x == 0``) makes the padding a non-identity, the advice names the
padding the step takes to the identity or a mask after the step, never the padding already there.
"""

from __future__ import annotations

import pytest

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings
from tests.checking import findings, line_of

SCAN = """\
import triton
import triton.language as tl


@triton.jit
def zero_ranks(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = {offs}
    mask = {mask}
    row = tl.load(x_ptr + offs, mask=mask, other=0)
    is_zero = row == 0
    ranks = {scan}
    tl.store(out_ptr + offs, ranks, mask=mask)
"""
FORWARD = "tl.cumsum(is_zero.to(tl.int32), axis=0)"


def _scan(offs: str = "tl.arange(0, BLOCK)", mask: str = "offs < n", scan: str = FORWARD) -> str:
    return SCAN.format(offs=offs, mask=mask, scan=scan)


@pytest.mark.parametrize("offs, mask, scan", [
    ("tl.arange(0, BLOCK)", "offs < n", FORWARD),
    ("tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)", "offs < n", FORWARD),
    ("tl.arange(0, BLOCK)", "n > offs", "tl.cumsum(is_zero.to(tl.int32), 0, False)"),
    ("tl.arange(0, BLOCK)", "offs < n", "tl.cumprod(1 - is_zero.to(tl.int32), axis=0, reverse=False)"),
])
def test_a_forward_scan_of_tail_padding_is_silent(offs: str, mask: str, scan: str) -> None:
    assert findings(_scan(offs, mask, scan)) == []


@pytest.mark.parametrize("offs, mask, scan", [
    ("tl.arange(0, BLOCK)", "offs < n", "tl.cumsum(is_zero.to(tl.int32), axis=0, reverse=True)"),
    ("tl.arange(0, BLOCK)", "offs < n", "tl.cumsum(is_zero.to(tl.int32), 0, True)"),
    ("tl.arange(0, BLOCK)", "(offs >= 3) & (offs < n)", FORWARD),
    ("BLOCK - 1 - tl.arange(0, BLOCK)", "offs < n", FORWARD),
    ("tl.arange(0, BLOCK)", "offs < n", "tl.sum(is_zero.to(tl.int32), axis=0)"),
])
def test_padding_a_scan_carries_into_valid_lanes_is_reported(offs: str, mask: str, scan: str) -> None:
    src = _scan(offs, mask, scan)
    assert findings(src) == [(line_of(src, "row = tl.load"), "BC202")]


def test_a_tested_padding_is_named_with_the_test_and_masked_after_it() -> None:
    src = _scan(scan="tl.cumsum(is_zero.to(tl.int32), axis=0, reverse=True)")
    (f,), _ = check_source("k.py", Language.TRITON, src, Settings())
    assert "padded with 0.0, which becomes 1.0 after `row == 0` and feeds sum" in f.message
    assert f.message.endswith("set those lanes to 0.0 after `row == 0` (`tl.where(mask, …, 0.0)`)")


EXP_SUM = """\
import triton
import triton.language as tl


@triton.jit
def exp_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n{other})
    tl.store(out_ptr, tl.sum(tl.exp(x), axis=0))
"""


@pytest.mark.parametrize("other, code", [(", other=0.0", "BC202"), ("", "BC201")])
def test_a_padding_exp_takes_to_one_is_mended_with_minus_infinity(other: str, code: str) -> None:
    src = EXP_SUM.format(other=other)
    (f,), _ = check_source("k.py", Language.TRITON, src, Settings())
    assert (f.code, f.span.line) == (code, line_of(src, "x = tl.load"))
    assert f.message.endswith("pad with -inf, which exp takes to 0.0") and f.fix is None


ROLL = """\
import triton
import triton.language as tl


@triton.jit
def rolled(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other={other})
    c = tl.cumsum(x, axis=0)
    roll = (offs[:, None] == (offs[None, :] + 1)).to(tl.float32)
    prev = tl.sum(roll * c[None, :], 1)
    tl.store(out_ptr + offs, prev, mask=offs < n)
"""


def test_an_infinity_a_forward_scan_keeps_in_the_padded_lanes_reaches_the_next_sum() -> None:
    """fla's ATK kernels shift a cumsum by a 0/1 matrix and a sum: -inf padded lanes stay -inf
    through the scan, and 0 * -inf is NaN in every row; 0.0 padding leaves them finite."""
    src = ROLL.format(other='float("-inf")')
    (f,), _ = check_source("k.py", Language.TRITON, src, Settings())
    assert (f.code, f.span.line) == ("BC202", line_of(src, "x = tl.load"))
    assert "padded with -inf, which becomes -inf after cumsum and feeds sum" in f.message
    assert findings(ROLL.format(other="0.0")) == []
