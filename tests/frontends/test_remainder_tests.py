"""A branch on what is left past the tile's start (``row_remain = split - pid * BLOCK_M``, then
``if row_remain >= BLOCK_M:``) proves the tile whole, as ``if (pid + 1) * BLOCK_M <= split:``
does, in Triton and in CUDA (``remain = n - blockIdx.x * 256; if (remain >= 256)``): the unguarded
lanes of that branch are in bounds. A branch that proves only the first lane (``row_remain > 0``),
or one on too small a remainder, leaves them reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

COPY = """\
import triton
import triton.language as tl


@triton.jit
def tile_copy(x_ptr, y_ptr, row_begin, split_size, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    row_remain = split_size - pid_m * BLOCK_M
    offs_m = row_begin + pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    ptrs = offs_m[:, None] * N + offs_n[None, :]
    n_mask = (offs_n < N)[None, :]
    if TEST:
        tl.store(y_ptr + ptrs, tl.load(x_ptr + ptrs, mask=n_mask), mask=n_mask)
    else:
        mask = (tl.arange(0, BLOCK_M) < row_remain)[:, None] & n_mask
        tl.store(y_ptr + ptrs, tl.load(x_ptr + ptrs, mask=mask), mask=mask)
"""


def test_a_remainder_of_a_whole_tile_proves_the_rows() -> None:
    assert findings(COPY.replace("TEST", "row_remain >= BLOCK_M")) == []


@pytest.mark.parametrize("test", ["row_remain > 0", "row_remain >= BLOCK_M // 2"])
def test_a_remainder_short_of_the_tile_leaves_the_rows_reported(test: str) -> None:
    src = COPY.replace("TEST", test)
    assert findings(src) == at(src, "tl.store(y_ptr + ptrs, tl.load(x_ptr + ptrs, mask=n_mask)", "BC103", "BC103")


TILES = """\
__global__ void copy_tiles(float* y, const float* x, int n) {
    const int base = blockIdx.x * 256;
    const int remain = n - base;
    if (TEST) {
        y[base + threadIdx.x] = x[base + threadIdx.x];
    } else if (threadIdx.x < remain) {
        y[base + threadIdx.x] = x[base + threadIdx.x];
    }
}
"""


def test_cuda_a_remainder_of_a_whole_block_tile_proves_the_lanes() -> None:
    assert findings(TILES.replace("TEST", "remain >= 256"), Language.CUDA) == []


def test_cuda_a_remainder_short_of_the_tile_leaves_the_lanes_reported() -> None:
    src = TILES.replace("TEST", "remain >= 128")
    assert findings(src, Language.CUDA) == at(src, "y[base + threadIdx.x] = x[base + threadIdx.x];", "BC101", "BC102")
