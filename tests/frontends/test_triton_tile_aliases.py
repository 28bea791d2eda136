"""A tile named by a compile-time local that is, on every path, the tile a fact speaks of or a
power-of-two part of it (``PACKED_BLOCK_K_A = BLOCK_SIZE_K // A_PACK_DIVISOR``, the divisor 2 for
packed fp4 and 1 otherwise; ``= BLOCK_SIZE_K`` where nothing is packed) has whole tiles where the
fact holds: ``EVEN_K`` (``K % BLOCK_SIZE_K == 0``) makes the unmasked branch safe for it too. A
divisor that is no power of two, or a local that is another tile on some path, proves nothing."""

from __future__ import annotations

import pytest

from tests.checking import findings, line_of

KERNEL = '''\
import triton
import triton.language as tl


@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_SIZE_K"] == 0})
@triton.jit
def dot_rows(a_ptr, out, K, BLOCK_SIZE_K: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
             PACKED: tl.constexpr, EVEN_K: tl.constexpr):
    if PACKED:
        A_PACK_DIVISOR: tl.constexpr = @DIV@
        PACKED_BLOCK_K_A: tl.constexpr = BLOCK_SIZE_K // A_PACK_DIVISOR
    else:
        PACKED_BLOCK_K_A: tl.constexpr = @OTHER@
    offs_k = tl.arange(0, PACKED_BLOCK_K_A)
    acc = tl.zeros((PACKED_BLOCK_K_A,), dtype=tl.float32)
    for k in range(tl.cdiv(K, PACKED_BLOCK_K_A)):
        if EVEN_K:
            a = tl.load(a_ptr + offs_k)
        else:
            a = tl.load(a_ptr + offs_k, mask=offs_k < K - k * PACKED_BLOCK_K_A, other=0.0)
        acc += a
        a_ptr += PACKED_BLOCK_K_A
    tl.store(out + tl.program_id(0), tl.sum(acc, axis=0))
'''


@pytest.mark.parametrize("divisor", ["2", "2 if a_ptr.dtype.element_ty == tl.uint8 else 1"])
def test_a_packed_part_of_the_even_tile_has_whole_tiles(divisor: str) -> None:
    src = KERNEL.replace("@DIV@", divisor).replace("@OTHER@", "BLOCK_SIZE_K")
    assert findings(src) == []


def test_a_divisor_that_is_no_power_of_two_proves_nothing() -> None:
    src = KERNEL.replace("@DIV@", "3").replace("@OTHER@", "BLOCK_SIZE_K")
    assert findings(src) == [(line_of(src, "a = tl.load(a_ptr + offs_k)"), "BC101")]


def test_a_local_that_is_another_tile_on_some_path_proves_nothing() -> None:
    src = KERNEL.replace("@DIV@", "2").replace("@OTHER@", "BLOCK_SIZE_N")
    assert findings(src) == [(line_of(src, "a = tl.load(a_ptr + offs_k)"), "BC101")]
