"""A whole-warp lane over a compile-time head (``lane * 4 + i`` below ``kHeadDim = 128``) is one tile
that spans its dimension: it is reported only where the kernel bounds that lane somewhere, which
says the dimension can be partial. A test that picks the lanes taking part in a step (``lane * 4 <
rotary_dim`` over the rotary table, read at an index that does not run along the lane) is no such
bound; the same test over a read that runs along the lane is, and the head's accesses stay
reported."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings as _findings
from tests.checking import line_of

HEAD = """\
constexpr int kHeadDim = 128;
constexpr int kPer = kHeadDim / 32;

__global__ void norm_rope(float* qkv, const float* weight, const float* cos_table, int num_tokens,
                          int heads, int rotary_dim) {
    const int lane = threadIdx.x % 32;
    const int warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int token = warp / heads;
    const int head = warp % heads;
    if (token >= num_tokens) {
        return;
    }
    float* row = qkv + (token * heads + head) * kHeadDim;
    const int dim0 = lane * kPer;
    float e[kPer];
    for (int i = 0; i < kPer; ++i) {
        e[i] = row[dim0 + i] * weight[dim0 + i];
    }
    const int half = rotary_dim / 2;
    if (dim0 < rotary_dim) {
        const int base = COS_BASE;
        for (int i = 0; i < kPer; ++i) {
            e[i] = e[i] * cos_table[base + i];
        }
    }
    for (int i = 0; i < kPer; ++i) {
        row[dim0 + i] = e[i];
    }
}
"""


def findings(base: str) -> list[tuple[int, str]]:
    return _findings(HEAD.replace("COS_BASE", base), Language.CUDA)


def test_a_test_that_picks_lanes_for_a_step_is_no_bound_of_the_head() -> None:
    assert findings("dim0 < half ? dim0 : dim0 - half") == []


def test_the_same_test_over_a_read_along_the_lane_bounds_it() -> None:
    src = HEAD.replace("COS_BASE", "dim0")
    found = _findings(src, Language.CUDA)
    read, write = line_of(src, "e[i] = row[dim0 + i]"), line_of(src, "row[dim0 + i] = e[i]")
    assert (read, "BC101") in found and (write, "BC102") in found
