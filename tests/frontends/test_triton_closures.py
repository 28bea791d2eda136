"""A launch in a closure (``def launch(): kernel[grid](…)`` inside the host function) sees what
the function around it asserted and named before the ``def``: flashinfer's replay kernels assert
``nheads % heads_per_block == 0`` and launch from helpers that close over ``precomp_grid``. What
is asserted only after the ``def``, or in another function, is not taken."""

from __future__ import annotations

import textwrap

import pytest

from tests.checking import findings, line_of

KERNEL = '''\
import triton
import triton.language as tl


@triton.jit
def heads(x_ptr, y_ptr, HEADS_PER_BLOCK: tl.constexpr):
    h = tl.program_id(1) * HEADS_PER_BLOCK + tl.arange(0, HEADS_PER_BLOCK)
    tl.store(y_ptr + h, tl.load(x_ptr + h))

'''


def _check(host: str) -> list[tuple[int, str]]:
    return findings(KERNEL + textwrap.dedent(host))


def _reported() -> list[tuple[int, str]]:
    line = line_of(KERNEL, "tl.store(y_ptr + h")
    return [(line, "BC101"), (line, "BC102")]


def test_a_closure_sees_the_assert_before_its_def() -> None:
    assert _check('''\
        def run(x, y, nheads, heads_per_block):
            assert nheads % heads_per_block == 0
            grid = (1, nheads // heads_per_block)

            def launch():
                heads[grid](x, y, HEADS_PER_BLOCK=heads_per_block)

            launch()
        ''') == []


UNCHECKED = '''\
    def run(x, y, nheads, heads_per_block):
        grid = (1, triton.cdiv(nheads, heads_per_block))

        def launch():
            heads[grid](x, y, HEADS_PER_BLOCK=heads_per_block)

    LATER
        launch()
    '''
SIBLING = """

    def other(nheads, heads_per_block):
        assert nheads % heads_per_block == 0
    """


@pytest.mark.parametrize("later, sibling", [
    ("", ""),  # no assert anywhere
    ("    assert nheads % heads_per_block == 0\n", SIBLING),  # after the def, and in another function
])
def test_a_closure_the_enclosing_asserts_do_not_reach_is_reported(later: str, sibling: str) -> None:
    assert _check(UNCHECKED.replace("LATER\n", later) + sibling) == _reported()
