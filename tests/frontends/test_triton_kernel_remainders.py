"""A test of the remainder inside a kernel (``if K % BLOCK_K == 0:``, the ``else`` of ``!= 0``, a
local holding either, ``if K % BLOCK_K:``) holds its fact on its branch: the unmasked load there
reads whole tiles and the floor loop there drops nothing (Megatron-LM's paged stash copies,
``need_mask = (HIDDEN_SIZE % BLOCK_SIZE) != 0``). The floor walk on the wrong branch, or under a
remainder by another size, and an unmasked load under a test of a program id stay reported."""

from __future__ import annotations

import pytest

from tests.checking import findings, line_of

COPY = '''\
import triton
import triton.language as tl


@triton.jit
def copy(src, dst, HIDDEN: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
FLAG
    if TEST:
        for i in range(HIDDEN // BLOCK):
            offs = i * BLOCK + tl.arange(0, BLOCK)
            tl.store(dst + row * HIDDEN + offs, tl.load(src + row * HIDDEN + offs))
    else:
        for i in range(tl.cdiv(HIDDEN, BLOCK)):
            offs = i * BLOCK + tl.arange(0, BLOCK)
            m = offs < HIDDEN
            tl.store(dst + row * HIDDEN + offs, tl.load(src + row * HIDDEN + offs, mask=m), mask=m)
'''


def _copy(flag: str, test: str) -> str:
    return COPY.replace("FLAG\n", flag).replace("TEST", test)


@pytest.mark.parametrize("flag, test", [
    ("", "HIDDEN % BLOCK == 0"),
    ("", "0 == HIDDEN % BLOCK"),
    ("", "not HIDDEN % BLOCK"),
    ("    need_mask = (HIDDEN % BLOCK) != 0\n", "not need_mask"),
    ("    even = HIDDEN % BLOCK == 0\n", "even"),
])
def test_the_branch_where_the_remainder_is_zero_holds_whole_tiles(flag: str, test: str) -> None:
    assert findings(_copy(flag, test)) == []


@pytest.mark.parametrize("flag, test", [
    ("", "HIDDEN % BLOCK != 0"),
    ("", "HIDDEN % BLOCK"),
    ("    need_mask = (HIDDEN % BLOCK) != 0\n", "need_mask"),
    ("", "HIDDEN % 2 == 0"),
])
def test_the_floor_walk_on_the_other_branch_is_reported(flag: str, test: str) -> None:
    src = _copy(flag, test)  # its tiles are whole: what it gets wrong is the tail it skips
    assert findings(src) == [(line_of(src, "for i in range(HIDDEN // BLOCK)"), "BC301")]


SCALE = '''\
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, K, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_K + tl.arange(0, BLOCK_K)
    if TEST:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < K, other=0.0)
    tl.store(y_ptr + offs, x, mask=offs < K)
'''


def test_a_runtime_remainder_test_makes_the_unmasked_load_whole() -> None:
    assert findings(SCALE.replace("TEST", "K % BLOCK_K == 0")) == []


def test_a_test_of_the_program_id_says_nothing_of_the_extent() -> None:
    src = SCALE.replace("TEST", "pid % BLOCK_K == 0")
    assert findings(src) == [(line_of(src, "x = tl.load(x_ptr + offs)"), "BC101")]
