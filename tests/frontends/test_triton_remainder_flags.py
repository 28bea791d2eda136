"""A heuristic flag that is the remainder itself: ``lambda args: args["n"] % args["B"]`` is
truthy exactly when the last tile is partial, so the branch it leaves (``else``, ``if not
flag``) runs only where ``n % B == 0`` (as ``!= 0`` and ``> 0`` say it). A flag of any other
value of the remainder, or of a remainder by another tile, proves nothing for the tile read."""

from __future__ import annotations

import pytest

from tests.checking import at, findings

KERNEL = '''\
import triton
import triton.language as tl


@triton.heuristics({"PARTIAL": lambda args: FLAG})
@triton.jit
def scale(Y, X, n, BLOCK: tl.constexpr, PARTIAL: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    y_ptr = tl.make_block_ptr(Y, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    x_ptr = tl.make_block_ptr(X, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    if PARTIAL:
        x = tl.load(x_ptr, boundary_check=(0,))
    else:
        x = tl.load(x_ptr)
    if PARTIAL:
        tl.store(y_ptr, x * 2, boundary_check=(0,))
    else:
        tl.store(y_ptr, x * 2)
'''


def checked(flag: str) -> list[tuple[int, str]]:
    return findings(KERNEL.replace("FLAG", flag))


UNCHECKED = at(KERNEL, "x = tl.load(x_ptr)", "BC101") + at(KERNEL, "tl.store(y_ptr, x * 2)", "BC102")


@pytest.mark.parametrize("flag", ['args["n"] % args["BLOCK"]', 'args["n"] % args["BLOCK"] != 0',
                                  'args["n"] % args["BLOCK"] > 0', 'bool(args["n"] % args["BLOCK"])'])
def test_a_flag_true_where_a_remainder_is_left_makes_its_else_branch_whole_tiles(flag: str) -> None:
    assert checked(flag) == []


@pytest.mark.parametrize("flag", ['args["n"] % args["BLOCK"] > 1', 'args["n"] % 2',
                                  'args["n"] % args["BLOCK"] + 1', 'args["n"] > args["BLOCK"]'])
def test_a_flag_of_any_other_value_leaves_the_unchecked_branch_reported(flag: str) -> None:
    assert checked(flag) == UNCHECKED


def test_the_flag_read_the_wrong_way_round_still_reports() -> None:
    swapped = KERNEL.replace("if PARTIAL:", "if not PARTIAL:").replace("FLAG", 'args["n"] % args["BLOCK"]')
    # now the boundary-checked accesses run where the tile is whole and the unchecked ones where it is not
    assert findings(swapped) == UNCHECKED


def test_a_module_function_returning_the_remainder_is_the_same_flag() -> None:
    helper = 'def partial(n, block):\n    return n % block\n\n\n'
    src = KERNEL.replace("FLAG", 'partial(args["n"], args["BLOCK"])').replace("@triton.heuristics", helper + "@triton.heuristics")
    assert findings(src) == []
