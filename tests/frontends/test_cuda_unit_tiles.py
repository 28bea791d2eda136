"""A dimension whose tile is 1 has no partial tile: every extent is a multiple of 1. The frontend
reads a warp's binary search (``probe = lo + range * (lane + 1) / 33`` in a ``while (lo < hi)``
loop, gsplat's segment lookup) as lanes stepped by a tile of 1; BC101 used to report it, with the
advice to assert ``extent % 1 == 0``."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

SEARCH = """\
__device__ int find(const int* offsets, int n, int key) {
    const int lane = threadIdx.x & 31;
    int lo = 0, hi = n;
    while (lo < hi) {
        const int range = hi - lo;
        const int probe = lo + range * (lane + 1) / 33;
        const bool more = offsets[probe + 1] <= key;
        const unsigned ballot = __ballot_sync(~0u, more);
        const int n_true = __popc(ballot);
        if (n_true == 32) { lo = lo + range * 32 / 33 + 1; } else { hi = lo + range * (n_true + 1) / 33; }
    }
    return lo;
}
__global__ void lookup(const int* offsets, int n, const int* keys, int* out, int m) {
    int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
@GUARD@    int r = find(offsets, n, keys[i]);
    if ((threadIdx.x & 31) == 0) out[i] = r;
}
"""


def test_a_warp_s_search_probes_are_no_tiles() -> None:
    assert findings(SEARCH.replace("@GUARD@", "    if (i >= m) return;\n"), Language.CUDA) == []


def test_a_lane_tile_beside_it_still_needs_its_guard() -> None:
    src = SEARCH.replace("@GUARD@", "    if (i >= m) return;\n").replace(
        "    if ((threadIdx.x & 31) == 0) out[i] = r;", "    out[blockIdx.x * blockDim.x + threadIdx.x] = r;")
    assert findings(src, Language.CUDA) == [(line_of(src, "out[blockIdx.x * blockDim.x + threadIdx.x]"), "BC102")]


ROW_PER_BLOCK = """\
#define BS 256
__global__ void pairs(const float* x, float* dst, int ne0, int nr) {
    const int i0 = 2 * (blockDim.y * blockIdx.y + threadIdx.y);
    if (i0 >= ne0) {
        return;
    }
    const int row = blockDim.x * blockIdx.x + threadIdx.x;
    dst[row * ne0 + i0] = x[row * ne0 + i0];
}

void launch(const float* x, float* dst, int ne0, int nr) {
    const dim3 block_dims(1, BS, 1);
    const dim3 block_nums(nr, (ne0 + 2 * BS - 1) / (2 * BS), 1);
    pairs<<<block_nums, block_dims>>>(x, dst, ne0, nr);
}
"""


def test_a_block_one_thread_wide_along_an_axis_tiles_it_by_one() -> None:
    # blockDim.x is 1 at the launch: row is blockIdx.x, below the grid's nr rows
    assert findings(ROW_PER_BLOCK, Language.CUDA) == []


def test_a_wider_block_or_an_unknown_launch_keeps_the_row_unguarded() -> None:
    line = line_of(ROW_PER_BLOCK, "dst[row")
    for bad in (ROW_PER_BLOCK.replace("block_dims(1, BS, 1)", "block_dims(2, BS, 1)"),
                ROW_PER_BLOCK[:ROW_PER_BLOCK.index("void launch")]):
        assert findings(bad, Language.CUDA) == [(line, "BC103"), (line, "BC103")]
