"""Autotune configs written as a module-level list or a list comprehension over literal lists
(``configs = [triton.Config({"BLOCK_M": BM}) for BM in [64] for s in [3, 4]]``, FastVideo's
block-sparse attention) give the tile the values they list, so a host ``assert N % 64 == 0``
covers it as it does for configs written inline. A config that can take a value not dividing
the asserted size, a list assigned twice, or a comprehension over values not written out stays
unknown and reported."""

from __future__ import annotations

import pytest

from tests.checking import COPY_KERNEL, findings, line_of

KERNEL = '''\
import triton
import triton.language as tl

CONFIGS


@triton.autotune(configs, key=["N"])
''' + COPY_KERNEL + '''

def run(x, y):
    N = x.shape[0]
    assert N % 64 == 0
    copy[lambda _: (triton.cdiv(N, 64),)](x, y, N)
'''


def _check(configs: str) -> list[tuple[int, str]]:
    return findings(KERNEL.replace("CONFIGS", configs))


@pytest.mark.parametrize("configs", [
    "configs = [triton.Config({'BLOCK': 64}, num_warps=4), triton.Config({'BLOCK': 32}, num_warps=8)]",
    "configs = [triton.Config({'BLOCK': BM}, num_stages=s) for BM in [64] for s in [3, 4]]",
    "configs = [triton.Config({'BLOCK': BM}, num_stages=s) for BM, s in [(64, 3), (32, 4)]]",
    "BLOCKS = (16, 64)\nconfigs = [triton.Config({'BLOCK': BM}) for BM in BLOCKS]",
])
def test_listed_configs_that_divide_the_asserted_size_cover_the_tile(configs: str) -> None:
    assert _check(configs) == []


@pytest.mark.parametrize("configs", [
    "configs = [triton.Config({'BLOCK': BM}, num_stages=s) for BM in [64, 128] for s in [3, 4]]",
    "configs = [triton.Config({'BLOCK': BM}) for BM in [2 ** i for i in range(5, 8)]]",
    "configs = [triton.Config({'BLOCK': 64})]\nconfigs = [triton.Config({'BLOCK': 128})]",
    "configs = [triton.Config({'BLOCK': 64})]\nconfigs += [triton.Config({'BLOCK': 128})]",
    "configs = [triton.Config({'BLOCK': BM}) for BM, _ in SIZES]",
])
def test_configs_that_may_not_divide_it_stay_reported(configs: str) -> None:
    source = KERNEL.replace("CONFIGS", configs)
    line = line_of(source, "tl.store(y + offs")
    assert _check(configs) == [(line, "BC101"), (line, "BC102")]
