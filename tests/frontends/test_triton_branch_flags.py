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


SPLIT = '''\
import triton
import triton.language as tl


@triton.jit
def shrink(x, out, K, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_sk = tl.program_id(axis=1)
    offset_k = pid_sk * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptr = x + offset_k
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        if EVEN_K:
            a = tl.load(a_ptr)
        else:
            a = tl.load(a_ptr, mask=offset_k < K - k * (BLOCK_K * SPLIT_K), other=0.0)
        acc += a
        a_ptr += BLOCK_K * SPLIT_K
    tl.atomic_add(out + tl.arange(0, BLOCK_K), acc)


def run(x, out):
    K = x.shape[0]
    BLOCK_K = 32
    SPLIT_K = 8
    EVEN_K = FLAG
    shrink[(1, SPLIT_K)](x, out, K, BLOCK_K, EVEN_K, SPLIT_K)
'''


def test_a_flag_on_a_product_of_host_sizes_names_the_kernels_split_k_step() -> None:
    """lorax's sgmv shrink: ``EVEN_K = K % (BLOCK_K * SPLIT_K) == 0`` with both sizes host locals
    passed positionally is the kernel's ``K % (BLOCK_K * SPLIT_K) == 0``, its whole split-K steps."""
    assert findings(SPLIT.replace("FLAG", "K % (BLOCK_K * SPLIT_K) == 0")) == []


def test_a_flag_on_another_product_leaves_the_split_k_load_reported() -> None:
    src = SPLIT.replace("FLAG", "K % (SPLIT_K * 2) == 0")
    assert findings(src) == [(line_of(src, "a = tl.load(a_ptr)"), "BC101")]
