"""A launch flag set in the two arms of an ``if`` (``if K % B == 0: even = True`` / ``else: even =
False``) is that test, as ``even = K % B == 0`` is; set the other way round it is the test's
negation, and a flag written ``not (K % B == 0)`` holds its facts when false: the unmasked branch
it picks is then the partial tile, and is reported."""

from __future__ import annotations

import pytest

from tests.checking import findings, line_of

KERNEL = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, K, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    if EVEN_K:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < K, other=0.0)
    tl.store(y_ptr + offs, x, mask=offs < K)


def run(x, block):
    K = x.shape[0]
    y = torch.empty_like(x)
FLAG
    scale[(triton.cdiv(K, block),)](x, y, K, BLOCK_K=block, EVEN_K=even)
'''

ARMS = "    if K % block == 0:\n        even = {0}\n    else:\n        even = {1}\n"


@pytest.mark.parametrize("flag", [ARMS.format(True, False), "    even = K % block == 0\n",
                                  "    even = not (K % block != 0)\n"])
def test_a_flag_true_exactly_where_the_tiles_are_whole_picks_the_unmasked_branch(flag: str) -> None:
    assert findings(KERNEL.replace("FLAG\n", flag)) == []


@pytest.mark.parametrize("flag", [ARMS.format(False, True), "    even = not (K % block == 0)\n",
                                  "    even = K % block != 0\n"])
def test_a_flag_read_the_other_way_leaves_the_unmasked_load_on_the_partial_tile(flag: str) -> None:
    src = KERNEL.replace("FLAG\n", flag)
    assert findings(src) == [(line_of(src, "x = tl.load(x_ptr + offs)"), "BC101")]
