"""A thread's group of W consecutive elements walked by a counted loop (``for (j = 0; j < 4; j++)
y[4 * g + j]``) is one W-wide access at the group's start: a guard on the start (``4 * g < n``)
checks its first element only (BC106, as for a ``float4``); one on each element (``4 * g + j <
n``), on the last (``4 * g + 3 < n``) or on the count of groups (``g < n / 4``, ``lane < kHc4`` over
``x[lane * kHc4 + k]``) bounds them all. A loop whose terms overlap the next lane's (a stencil's
``x[i + j]``) walks no group. A group whose width is no number (``8 * K`` bytes from a start ``a <
end``) is unguarded by its start's test (BC101)."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

GROUP = """\
__global__ void copy4(const float* __restrict__ x, float* __restrict__ y, int n) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (GUARD) {
        for (int j = 0; j < 4; j++) y[g * 4 + j] = x[g * 4 + j];
    }
}
"""


def test_a_guard_on_the_group_start_checks_its_first_element_only() -> None:
    src = GROUP.replace("GUARD", "g * 4 < n")
    assert findings(src, Language.CUDA) == at(src, "y[g * 4 + j] =", "BC106", "BC106")


@pytest.mark.parametrize("guard", ["g * 4 + 3 < n", "g < n / 4"])
def test_a_guard_on_the_last_element_or_on_whole_groups_bounds_the_group(guard: str) -> None:
    assert findings(GROUP.replace("GUARD", guard), Language.CUDA) == []


def test_a_guard_on_each_element_bounds_the_group() -> None:
    src = GROUP.replace("y[g * 4 + j] =", "if (g * 4 + j < n) y[g * 4 + j] =").replace("GUARD", "g * 4 < n")
    assert findings(src, Language.CUDA) == []


def test_the_message_names_the_group_and_its_fix() -> None:
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings
    found, _ = check_source("k.cu", Language.CUDA, GROUP.replace("GUARD", "g * 4 < n"), Settings())
    assert "group of 4 elements of `y`" in found[0].message
    assert "checks its first element only" in found[0].message and "guard each element the loop walks" in found[0].message


def test_an_asserted_multiple_of_a_constant_of_known_value_covers_the_group() -> None:
    src = """\
struct Pack { static constexpr int size = 8; };
__global__ void add4(float* dst, const float* src, int n) {
    const int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    assert(n % Pack::size == 0);
    if (idx < n) {
        for (int k = 0; k < 4; ++k) dst[idx + k] += src[idx + k];
    }
}
"""
    assert findings(src, Language.CUDA) == []


def test_a_guard_on_the_count_of_groups_of_a_named_width_bounds_the_group() -> None:
    src = """\
static constexpr int kHc = 4;
__global__ void mix(const float* base, float* out) {
    const int lane = threadIdx.x & 31;
    if (lane < kHc) {
        for (int k = 0; k < kHc; ++k) out[lane * kHc + k] = base[2 * kHc + lane * kHc + k];
    }
}
"""
    assert findings(src, Language.CUDA) == []


def test_a_stencil_walks_no_group() -> None:
    src = """\
__global__ void box(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.f;
        for (int j = 0; j < 4; j++) s += x[i + j];
        y[i] = s;
    }
}
"""
    assert findings(src, Language.CUDA) == []


def test_a_register_tile_store_checks_its_column_group() -> None:
    src = """\
__global__ void tile(const float* a, float* c, int M, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row * 4 < M && col * 4 < N) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                c[(row * 4 + i) * N + col * 4 + j] = a[(row * 4 + i) * N + col * 4 + j];
    }
}
"""
    assert findings(src, Language.CUDA) == at(src, "c[(row * 4 + i) * N", "BC106", "BC106")


# the bytes of 8 codes of K codebooks each, read from the lane's start (AQLM's CodeKx8 layout),
# under a test of the start against the row's end taken from it (`end = a + stride - lane * 8K`)
CODES = """\
template <int K>
__global__ void decode(const unsigned char* __restrict__ A, float* __restrict__ C, int prob_m, int prob_k) {
    int row = (blockDim.x / 32) * blockIdx.x + (threadIdx.x / 32);
    bool pred = row < prob_m;
    for (int cb = 0; cb < K; cb++) {
        int stride = prob_k / 8 * K;
        int a = stride * row + (threadIdx.x % 32) * 8 * K;
        int end = a + stride - (threadIdx.x % 32) * 8 * K;
        int iters = (prob_k / 8 + 255) / 256;
        while (iters--) {
            if (pred && a < end) {
                const unsigned char* enc = &A[a];
                float r = 0.f;
                for (int i = 0; i < 8; i++) r += READ;
                C[row] = r;
            }
            a += 32 * 8 * K;
        }
    }
}
"""


def test_a_group_of_no_numeric_width_is_unguarded_by_its_start() -> None:
    src = CODES.replace("READ", "enc[K * i + cb]")
    assert findings(src, Language.CUDA) == at(src, "r += enc[", "BC101")


def test_the_start_alone_is_bounded_by_the_end_taken_from_it() -> None:
    assert findings(CODES.replace("READ", "enc[0]"), Language.CUDA) == []


def test_a_lane_stepping_by_more_than_the_loop_walks_no_group() -> None:
    # each point's row is 3 + C wide: the loop writes its first 3 entries, inside the row; the
    # point's 3 coordinates are a group of 3, whose count `p < n` bounds
    src = """\
__global__ void pool(const float* xyz, float* out, int n, int C) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) {
        for (int j = 0; j < 3; j++) out[p * (3 + C) + j] = xyz[p * 3 + j];
    }
}
"""
    assert findings(src, Language.CUDA) == []


POINTER = """\
const int PER_THREAD = 16;
__global__ void sumsq(const float* __restrict__ x, float* __restrict__ out, int rows, int dim) {
    int column = (blockIdx.x * blockDim.x + threadIdx.x) * PER_THREAD;
    int row = blockIdx.y;
    if (row >= rows) return;
    if (GUARD) return;
    const float* p = x + row * dim + column;
    float acc = 0.0f;
    for (int k = 0; k < PER_THREAD; k++) {
        float v = *p++;
        acc += v * v;
    }
    atomicAdd(&out[row], acc);
}
"""


def test_a_pointer_stepped_once_per_iteration_walks_the_loops_group() -> None:
    # `*p++` in a loop counting 0..16 by one reads p + k: a group of 16 from `column`
    src = POINTER.replace("GUARD", "column >= dim")
    assert findings(src, Language.CUDA) == at(src, "float v = *p++;", "BC106")


@pytest.mark.parametrize("exit_", ["column + PER_THREAD > dim", "column + PER_THREAD - 1 >= dim",
                                   "column > dim - PER_THREAD"])
def test_a_guard_naming_the_groups_size_bounds_the_group(exit_: str) -> None:
    # the named size (`const int PER_THREAD = 16`) counts towards the group's last element
    assert findings(POINTER.replace("GUARD", exit_), Language.CUDA) == []


def test_a_guard_letting_the_groups_last_element_reach_the_extent_is_off_by_one() -> None:
    src = POINTER.replace("GUARD", "column + PER_THREAD - 1 > dim")
    assert findings(src, Language.CUDA) == at(src, "if (column + PER_THREAD - 1 > dim)", "BC104")
