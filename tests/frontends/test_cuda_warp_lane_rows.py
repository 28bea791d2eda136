"""A warp's lane (``threadIdx.x & 31``) in a row of compile-time length that a y-axis block index
picks (``mixed[token * stride + (blockIdx.y / per_key) * kDimK + lane + 32 * i]`` for i < 4, kDimK =
128): the lane reaches 31 whatever the block size, so the access stays inside its row even where
no launch of the run gives the block. Not an x-axis block index (a tile walk along x), not a row the
kernel bounds by a runtime extent (``blockIdx.y * 512 + threadIdx.x * 4 < n``: a tile walk along y)
or a y grid rounded up from one (the same walk unguarded),
and a loop counter's range is the loop's the access is made in, where another loop reuses the name."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

KERNEL = """\
constexpr int kDimK = 128;

template <int PerKey>
__global__ void gdn_decode(const float* mixed, float* out, const int* cu_seqlens, long long mixed_row) {
    const int key_head = @ROW@ / PerKey;
    const int lane = threadIdx.x & 31;
    const int bos = cu_seqlens[blockIdx.z];
    float acc = 0.f;
    for (int i = 0; i < @STEPS@; ++i) {
        const int dim = lane + i * 32;
        acc += mixed[bos * mixed_row + key_head * kDimK + dim];
    }
    for (int i = 0; i < 16; ++i) {  // the name again, for another range
        acc += out[i];
    }
    out[blockIdx.z * 64 + blockIdx.y] = acc;
}
"""


def src(row: str = "blockIdx.y", steps: str = "4") -> str:
    return KERNEL.replace("@ROW@", row).replace("@STEPS@", steps)


LOAD = line_of(src(), "acc += mixed[")


def test_a_warp_lane_inside_a_row_of_a_y_block_index_is_in_bounds() -> None:
    assert (LOAD, "BC101") not in findings(src(), Language.CUDA)


@pytest.mark.parametrize(("row", "steps"), [("blockIdx.x", "4"), ("blockIdx.y", "5")])
def test_an_x_block_row_or_lanes_past_the_row_are_reported(row: str, steps: str) -> None:
    assert (LOAD, "BC101") in findings(src(row, steps), Language.CUDA)


def test_a_tile_walk_along_y_that_the_kernel_bounds_is_still_a_tile() -> None:
    walk = """\
__global__ void dequant(const float* b, float* c, int size_n) {
    int n = blockIdx.y * 512 + threadIdx.x * 4;
    if (n < size_n) {
        float4 v = *reinterpret_cast<const float4*>(b + n);
        *reinterpret_cast<float4*>(c + n) = v;
    }
}

void launch(const float* b, float* c, int size_n) {
    dequant<<<dim3(1, (size_n + 511) / 512), 128>>>(b, c, size_n);
}
"""
    assert findings(walk, Language.CUDA) == [(4, "BC106"), (5, "BC106")]


def test_an_unguarded_tile_walk_along_a_y_grid_rounded_up_is_reported() -> None:
    walk = """\
__global__ void dequant(const float* b, float* c, int size_n) {
    int n = blockIdx.y * 512 + threadIdx.x * 4;
    float4 v = *reinterpret_cast<const float4*>(b + n);
    *reinterpret_cast<float4*>(c + n) = v;
}

void launch(const float* b, float* c, int size_n) {
    dequant<<<dim3(1, (size_n + 511) / 512), 128>>>(b, c, size_n);
}
"""
    assert findings(walk, Language.CUDA) == [(3, "BC101"), (4, "BC102")]
