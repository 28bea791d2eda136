"""An autograd Function's backward launches with the values its forward saved on ``ctx``:
``ctx.BT = BT`` (``BT = 64``) in forward makes ``BT = ctx.BT`` in backward that 64, so a
sub-tile count ``NC = cdiv(BT, BC)`` with ``BC = 16`` covers whole rows of BT (fla's abc
backward). A value saved twice, or not fixed in forward (a parameter, a shape, a branch), stays
unknown, and so does a saved value that does not make the rows whole."""

from __future__ import annotations

import textwrap

import pytest

from tests.checking import findings, line_of

KERNEL = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def rows(dA, out, T, BT: tl.constexpr, BC: tl.constexpr, NC: tl.constexpr):
    i_c, i_bh = tl.program_id(1), tl.program_id(2)
    i_t, i_i = i_c // NC, i_c % NC
    o = i_bh * T * BT + (i_t * BT + i_i * BC) * BT + i_i * BC + tl.arange(0, BC)
    for j in range(0, BC):
        row = i_t * BT + i_i * BC + j < T
        tl.store(out + o + j * BT, tl.load(dA + o + j * BT, mask=row, other=0), mask=row)

'''

HOST = '''\
class Rows(torch.autograd.Function):
    @staticmethod
    def forward(ctx, dA, chunk):
        SAVE
        return dA

    @staticmethod
    def backward(ctx, dA):
        T = dA.shape[-1]
        BT, BC = ctx.BT, 16
        NT, NC = triton.cdiv(T, BT), triton.cdiv(BT, BC)
        out = torch.empty_like(dA)
        rows[(1, NT * NC, dA.shape[0])](dA, out, T, BT=BT, BC=BC, NC=NC)
        return out, None
'''


def _check(save: str) -> list[tuple[int, str]]:
    body = textwrap.indent(textwrap.dedent(save), " " * 8).strip()
    return findings(KERNEL + HOST.replace("SAVE", body))


@pytest.mark.parametrize("save", [
    "ctx.BT = 64",
    "BT = 64\nctx.BT = BT",
    "BT = 64\nctx.BT, ctx.scale = BT, 1.0",
    "BT, BK = 64, 32\nctx.BT = BT",
])
def test_a_value_the_forward_fixes_is_the_backwards(save: str) -> None:
    assert _check(save) == []


@pytest.mark.parametrize("save", [
    "ctx.BT = chunk",  # a parameter
    "ctx.BT = dA.shape[-2]",  # a size
    "BT = 64\nif chunk:\n    BT = 40\nctx.BT = BT",  # assigned twice
    "ctx.BT = 64\nctx.BT = 40",  # saved twice
    "ctx.BT = 40",  # fixed, but not whole sub-tiles of 16
])
def test_a_value_not_fixed_or_not_whole_stays_reported(save: str) -> None:
    line = line_of(KERNEL, "tl.store(out + o")
    got = _check(save)
    assert got and all(f[0] == line for f in got)
    assert {rule for _, rule in got} == {"BC103"}
