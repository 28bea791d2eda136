"""CUDA reductions across a block's warps, re-padded register lanes, halo tiles: each bug is
reported at its line, and the correct kernel gives no finding."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings as _findings
from tests.checking import line_of


def findings(src: str) -> list[tuple[int, str]]:
    return _findings(src, Language.CUDA)


BLOCK_MAX = """\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <float.h>
namespace cg = cooperative_groups;
__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__global__ void row_max(const float* x, float* out, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[32];
    int nwarps = blockDim.x / 32;
    int lane = threadIdx.x % 32;
    const float* row = x + blockIdx.x * C;
    float m = -FLT_MAX;
    for (int i = threadIdx.x; i < C; i += blockDim.x) m = fmaxf(m, row[i]);
    m = warp_max(m);
    if (lane == 0) partial[threadIdx.x / 32] = m;
    __syncthreads();
    float w = (lane < nwarps) ? partial[lane] : -FLT_MAX;
    float b = REDUCE;
    if (threadIdx.x == 0) out[blockIdx.x] = b;
}
"""


def test_inactive_warps_padding_a_block_max():
    for reduce in ("cg::reduce(warp, w, cg::greater<float>{})", "warp_max(w)"):
        src = BLOCK_MAX.replace("REDUCE", reduce)
        assert findings(src) == []
        # lanes past the block's warp count add 0 to the max: wrong for all-negative rows
        bad = src.replace(": -FLT_MAX;", ": 0.0f;")
        assert findings(bad) == [(line_of(bad, "partial[lane]"), "BC202")]


def test_zero_padding_is_the_identity_of_a_block_sum():
    src = BLOCK_MAX.replace("REDUCE", "cg::reduce(warp, w, cg::plus<float>{})").replace(": -FLT_MAX;", ": 0.0f;")
    assert findings(src) == []


HELPER_REDUCES_ITS_ARGUMENTS = """\
struct Stats { float scale; float offset; };
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__device__ Stats row_stats(const float* x, int C) {
    __shared__ float partial[32];
    float m = -INFINITY;
    float s = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        m = fmaxf(m, x[i]);
    }
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        s += expf(x[i] - m);
    }
    s = warp_sum(s);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = s;
    __syncthreads();
    s = (threadIdx.x % 32 < blockDim.x / 32) ? partial[threadIdx.x % 32] : 0.0f;
    s = warp_sum(s);
    return Stats{1.0f / s, m};
}
__global__ void softmax_stats(const float* x, float* out, int C) {
    Stats st = row_stats(x + blockIdx.x * C, C);
    if (threadIdx.x == 0) out[blockIdx.x] = st.scale;
}
"""


def test_reads_inside_a_reduction_helper_meet_its_own_reductions():
    # the helper contains a max, but its zero-padded partial sums feed only the sum
    assert findings(HELPER_REDUCES_ITS_ARGUMENTS) == []


VECTOR_MAX = """\
#include <float.h>
__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
// boundcheck: assume N % 4 == 0
__global__ void max4(float* x, float* y, int N) {
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (idx >= N) return;
    float4 r = reinterpret_cast<float4*>(x + idx)[0];
    r.x = (idx + 0 < N) ? r.x : -FLT_MAX;
    r.y = (idx + 1 < N) ? r.y : -FLT_MAX;
    float v = fmaxf(r.x, r.y);
    v = warp_max(v);
    if (threadIdx.x == 0) y[blockIdx.x] = v;
}
"""


def test_lanes_of_a_vector_load_re_padded_before_a_max():
    assert findings(VECTOR_MAX) == []
    bad = VECTOR_MAX.replace("r.y : -FLT_MAX", "r.y : 0.0f")
    assert findings(bad) == [(line_of(bad, "r.y = "), "BC202")]


MERGE = """\
#include <float.h>
struct MD { float m; float d; };
__device__ MD merge_md(MD value) {
  for (int stride = 16; stride >= 1; stride >>= 1) {
    MD other;
    other.m = __shfl_xor_sync(0xffffffff, value.m, stride);
    other.d = __shfl_xor_sync(0xffffffff, value.d, stride);
    bool value_bigger = (value.m > other.m);
    MD bigger = value_bigger ? value : other;
    MD smaller = value_bigger ? other : value;
    value.d = bigger.d + smaller.d * __expf(smaller.m - bigger.m);
    value.m = bigger.m;
  }
  return value;
}
__global__ void online_softmax(const float* x, float* y, int N) {
  int i = blockIdx.x * 32 + threadIdx.x;
  MD val;
  val.m = i < N ? x[i] : -FLT_MAX;
  val.d = i < N ? 1.0f : 0.0f;
  MD res = merge_md(val);
  if (i < N) y[i] = __expf(x[i] - res.m) / res.d;
}
"""


def test_online_softmax_merge_keeps_the_larger_max():
    assert findings(MERGE) == []
    bad = MERGE.replace("x[i] : -FLT_MAX", "x[i] : 0.0f")
    assert findings(bad) == [(line_of(bad, "val.m = "), "BC202")]


HALO = """\
#define R 4
#define BX 32
#define STEPS 4
__constant__ float w[2 * R + 1];
__global__ void rows(float* dst, float* src, int W) {
    __shared__ float tile[(STEPS + 2) * BX];
    const int base = (blockIdx.x * STEPS - 1) * BX + threadIdx.x;
    src += base;
    dst += base;
    for (int i = 1; i < 1 + STEPS; i++) {
        tile[threadIdx.x + i * BX] = src[i * BX];
    }
    for (int i = 0; i < 1; i++) {
        tile[threadIdx.x + i * BX] = (base >= -i * BX) ? src[i * BX] : 0;
    }
    for (int i = 1 + STEPS; i < 2 + STEPS; i++) {
        tile[threadIdx.x + i * BX] = (W - base > i * BX) ? src[i * BX] : 0;
    }
    __syncthreads();
    for (int i = 1; i < 1 + STEPS; i++) {
        float sum = 0;
        for (int j = -R; j <= R; j++) {
            sum += w[R - j] * tile[threadIdx.x + i * BX + j];
        }
        dst[i * BX] = sum;
    }
}
void launch(float* d, float* s, int W) {
    assert(W % (STEPS * BX) == 0);
    rows<<<W / (STEPS * BX), BX>>>(d, s, W);
}
"""


def test_halo_loaded_without_a_zero_fill():
    assert findings(HALO) == []
    left = HALO.replace("tile[threadIdx.x + i * BX] = (base >= -i * BX) ? src[i * BX] : 0;",
                        "if (base >= -i * BX) tile[threadIdx.x + i * BX] = src[i * BX];")
    assert findings(left) == [(line_of(left, "if (base >= "), "BC201")]
    # `W - base > i * BX` is the bound `base + i * BX < W`
    right = HALO.replace("tile[threadIdx.x + i * BX] = (W - base > i * BX) ? src[i * BX] : 0;",
                         "if (W - base > i * BX) tile[threadIdx.x + i * BX] = src[i * BX];")
    assert findings(right) == [(line_of(right, "if (W - base"), "BC201")]
    # the body's own loop did not set the halo's slots; a zero fill before would have
    filled = right.replace("    __shared__ float tile[(STEPS + 2) * BX];\n",
                           "    __shared__ float tile[(STEPS + 2) * BX];\n"
                           "    for (int k = threadIdx.x; k < (STEPS + 2) * BX; k += BX) tile[k] = 0;\n"
                           "    __syncthreads();\n")
    assert findings(filled) == []


def test_remaining_count_compared_with_a_tile_is_a_bound():
    src = """\
__global__ void tail(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (n - i > 0) y[i] = x[i];
}
"""
    assert findings(src) == []
    assert findings(src.replace("n - i > 0", "n - i >= 0")) == [(3, "BC104")]


GEMV = """\
#define WARP 32
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__global__ void gemv4(float* a, float* x, float* y, int M, int K) {
    int lane = threadIdx.x % 32;
    int m = blockIdx.x * blockDim.y + threadIdx.y;
    if (m < M) {
        float sum = 0.0f;
        int chunks = ((K + WARP - 1) / WARP + 4 - 1) / 4;
        for (int w = 0; w < chunks; ++w) {
            int k = (w * WARP + lane) * 4;
            if (k + 3 < K) {
                float4 ra = reinterpret_cast<float4*>(a + m * K + k)[0];
                float4 rx = reinterpret_cast<float4*>(x + k)[0];
                sum += ra.x * rx.x + ra.y * rx.y + ra.z * rx.z + ra.w * rx.w;
            }
        }
        sum = warp_sum(sum);
        if (lane == 0) y[m] = sum;
    }
}
"""


def test_floored_chunk_count_rounded_up_still_drops_the_tail():
    assert findings(GEMV) == []
    # ceil(floor(K / 32) / 4) chunks of 128: K = 129 runs one chunk
    bad = GEMV.replace("((K + WARP - 1) / WARP + 4 - 1) / 4", "(K / WARP + 4 - 1) / 4")
    assert findings(bad) == [(line_of(bad, "for (int w"), "BC301")]


PACKS = """\
__global__ void scale_pairs(const float2* x, float* y, int n) {
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n / 2; i += blockDim.x * gridDim.x) {
        float2 v = x[i];
        y[i * 2] = 2.0f * v.x;
        y[i * 2 + 1] = 2.0f * v.y;
    }
}
"""


def test_stride_loop_over_whole_packs_skips_the_tail():
    assert findings(PACKS) == [(2, "BC301")]
    # a tail loop from n / 2 * 2 finishes what the packs leave
    tail = PACKS.replace("    }\n}\n", "    }\n"
                         "    for (int i = n / 2 * 2 + threadIdx.x; i < n; i += blockDim.x) y[i] = 2.0f * y[i];\n}\n")
    assert findings(tail) == []


def test_inactive_warps_padded_in_an_else_branch():
    src = BLOCK_MAX.replace("REDUCE", "warp_max(w)").replace(
        "    float w = (lane < nwarps) ? partial[lane] : -FLT_MAX;\n",
        "    float w;\n    if (lane < nwarps) {\n        w = partial[lane];\n    } else {\n        w = -FLT_MAX;\n    }\n")
    assert findings(src) == []
    bad = src.replace("w = -FLT_MAX;", "w = 0.0f;")
    assert findings(bad) == [(line_of(bad, "w = partial[lane]"), "BC202")]


ONE_LINE_LOAD = """\
__device__ float4 ld4(const float* p) { return *reinterpret_cast<const float4*>(p); }
__global__ void copy4(const float* x, float4* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (4 * i + 3 < n) {
        y[i] = ld4(x + 4 * i);
    }
}
"""


def test_one_line_helper_reads_through_the_callers_pointer():
    assert findings(ONE_LINE_LOAD) == []
    # the read inside the helper is reported there, as an inlined helper's accesses are
    bad = ONE_LINE_LOAD.replace("if (4 * i + 3 < n) {", "{")
    assert findings(bad) == [(1, "BC101"), (line_of(bad, "y[i] = "), "BC102")]
