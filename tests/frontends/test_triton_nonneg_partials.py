"""Partials that are never negative: a two-stage max (``tl.max(tl.abs(x))`` per program, then a max
of the partials) may pad the second load with 0, the identity of a max over values >= 0. That
holds only where every launch of the reader passes a fresh allocation that the kernels launched
beside it write with values >= 0 alone, and no host code writes; each near variant is reported."""

from __future__ import annotations

import pytest

from boundcheck.frontends.triton_signs import written_params
from tests.checking import findings, line_of

STAGE_1 = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def partial_max(X, Mid, M, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offset = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offset, mask=offset < M, other=0.0).to(tl.float32)
    tl.store(Mid + pid, {value})


@triton.jit
def final_max(Mid, Out, MID_SIZE, BLOCK_MID: tl.constexpr):
    offset = tl.arange(0, BLOCK_MID)
    mid = tl.load(Mid + offset, mask=offset < MID_SIZE, other=0.0)
    tl.store(Out, tl.max(mid))


def amax(x):
    M = x.numel()
    BLOCK = 1024
    MID_SIZE = triton.cdiv(M, BLOCK)
    mid = torch.empty([MID_SIZE], device=x.device)
    out = torch.empty([], device=x.device)
{host}    partial_max[(MID_SIZE,)](x, mid, M, BLOCK)
    final_max[(1,)](mid, out, MID_SIZE, triton.next_power_of_2(MID_SIZE))
    return out
'''


def _source(value: str = "tl.max(tl.abs(x))", host: str = "") -> str:
    return STAGE_1.format(value=value, host=host)


def _padded_line(src: str) -> int:
    return line_of(src, "mid = tl.load(Mid + offset")


@pytest.mark.parametrize("value", [
    "tl.max(tl.abs(x))",
    "tl.sum(x * x)",
    "tl.sqrt(tl.sum(x * x))",
    "tl.max(tl.abs(x), axis=0).to(tl.float32)",
    "tl.sum((x != 0).to(tl.float32))",
    "tl.max(tl.maximum(x, 0.0))",
])
def test_partials_of_nonnegative_values_pad_a_max_with_zero(value: str) -> None:
    assert findings(_source(value)) == []


@pytest.mark.parametrize("value", ["tl.max(x)", "tl.sum(x)", "tl.max(tl.minimum(x, 0.0))", "-tl.max(tl.abs(x))"])
def test_partials_of_any_sign_are_reported(value: str) -> None:
    src = _source(value)
    assert (_padded_line(src), "BC202") in findings(src)  # (`tl.max(x)` of x padded with 0 is one too)


def test_host_write_of_the_partials_is_reported() -> None:
    src = _source(host="    mid.fill_(-1.0)\n")
    assert findings(src) == [(_padded_line(src), "BC202")]


def test_partials_aliased_on_the_host_are_reported() -> None:
    src = _source(host="    view = mid\n")
    assert findings(src) == [(_padded_line(src), "BC202")]


def test_partials_the_launcher_is_given_are_reported() -> None:
    src = _source().replace("def amax(x):", "def amax(x, mid):").replace(
        "    mid = torch.empty([MID_SIZE], device=x.device)\n", "")
    assert findings(src) == [(_padded_line(src), "BC202")]


def test_a_second_writer_of_any_sign_is_reported() -> None:
    src = _source().replace("    final_max[(1,)]", "    partial_signed[(MID_SIZE,)](x, mid, M, BLOCK)\n    final_max[(1,)]") \
        + '''

@triton.jit
def partial_signed(X, Mid, M, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offset = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(Mid + pid, tl.max(tl.load(X + offset, mask=offset < M, other=0.0)))
'''
    assert (_padded_line(src), "BC202") in findings(src)


def test_a_loop_carried_maximum_of_abs_is_nonnegative() -> None:
    src = _source("tl.max(acc)").replace(
        "    x = tl.load(X + offset, mask=offset < M, other=0.0).to(tl.float32)\n",
        "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
        "    for start in range(0, M, BLOCK):\n"
        "        x = tl.load(X + start + offset, mask=start + offset < M, other=0.0)\n"
        "        acc = tl.maximum(tl.abs(x), acc)\n")
    assert (_padded_line(src), "BC202") not in findings(src)


WRITES = '''\
@triton.jit
def k(X, Y, Z, W, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    y_ptr = Y + offs
    tl.store(y_ptr, tl.exp(x), mask=offs < N)
    tl.atomic_max(Z, tl.max(tl.abs(x)))
    helper(W + offs, x)
'''


def test_only_stores_of_nonnegative_values_make_a_nonnegative_parameter() -> None:
    import ast

    fn = ast.parse(WRITES).body[0]
    assert isinstance(fn, ast.FunctionDef)
    written, nonneg = written_params(fn, {"helper"})
    assert {"Y", "Z", "W"} <= written and "X" not in written
    assert nonneg == {"Y"}  # an atomic and a helper write what the stores do not show
