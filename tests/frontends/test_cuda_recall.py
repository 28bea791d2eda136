"""CUDA kernels whose guards the frontend used to misread: each bug is reported at its line, and
its correctly guarded twin gives no finding."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, path: str = "k.cu") -> list[tuple[int, str]]:
    found, _ = check_source(path, Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


PACKED = """\
#include <cuda_fp16.h>
#define HALF2(v) (reinterpret_cast<half2 *>(&(v))[0])
#define LD128(v) (reinterpret_cast<float4 *>(&(v))[0])
__global__ void add_f16x4(half *a, half *c, int N) {
  int idx = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if ((idx + 0) + 1 < N) {
    HALF2(c[idx + 0]) = HALF2(a[idx + 0]);
  }
  if ((idx + 2) + 1 < N) {
    HALF2(c[idx + 2]) = HALF2(a[idx + 2]);
  }
}
__global__ void add_f16x8(half *a, half *c, int N) {
  int idx = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  half pack[8];
  if ((idx + 7) < N) {
    LD128(pack[0]) = LD128(a[idx]);
    LD128(c[idx]) = LD128(pack[0]);
  }
}
"""


def test_offset_lane_guard_of_a_packed_access():
    assert findings(PACKED) == []
    # `(idx + 2) + 1 <= N` lets the pair at idx + 2 end at N
    assert (9, "BC104") in findings(PACKED.replace("(idx + 2) + 1 < N", "(idx + 2) + 1 <= N"))
    # `(idx + 7) <= N` lets the last of 8 lanes reach N
    assert (16, "BC104") in findings(PACKED.replace("(idx + 7) < N", "(idx + 7) <= N"))
    # the guard names the first lane of the pair only
    assert findings(PACKED.replace("(idx + 2) + 1 < N", "(idx + 2) < N")) == [(10, "BC106"), (10, "BC106")]


NEXT = """\
__global__ void successor(const unsigned *offsets, unsigned *out, unsigned n, unsigned m) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        out[tid] = (tid < n - 1) ? offsets[tid + 1] - 1 : m - 1;
    }
}
"""


def test_guard_on_the_next_element_written_as_a_smaller_limit():
    assert findings(NEXT) == []
    # `tid <= n - 1` lets offsets[tid + 1] read offsets[n]
    assert findings(NEXT.replace("(tid < n - 1)", "(tid <= n - 1)")) == [(4, "BC104")]


def test_row_pointer_one_past_the_guarded_row_is_no_off_by_one():
    src = """\
__global__ void row_len(const int *row_ptr, int *len, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    len[row] = row_ptr[row + 1] - row_ptr[row];
  }
}
"""
    assert findings(src) == []


WARP_ROWS = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void row_scale(const float* inp, float* out, int N, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N) {
        return;
    }
    const float* x = inp + idx * C;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        out[idx * C + i] = 2.0f * x[i];
    }
}
"""


def test_warp_per_row_guard_on_the_row():
    assert findings(WARP_ROWS) == []
    assert findings(WARP_ROWS.replace("idx >= N", "idx > N")) == [(7, "BC104")]
    assert findings(WARP_ROWS.replace("idx >= N", "threadIdx.x >= N")) == [(7, "BC105")]


def test_warp_rows_sized_by_the_launch_need_no_row_guard():
    # no comparison of the row with an extent anywhere: the grid holds exactly N warps
    src = WARP_ROWS.replace("    if (idx >= N) {\n        return;\n    }\n", "")
    assert findings(src) == []


def test_lane_limit_fixed_per_warp_row_is_a_bound_on_the_lane():
    # `i < own / 4` with own taken from the warp's row: a causal limit per row, not a lane-lane test
    src = WARP_ROWS.replace("    const float* x = inp + idx * C;\n",
                            "    const float* x = inp + idx * C;\n    int own = idx % C;\n"
                            ).replace("i < C; i += warp.size()", "i < own; i += warp.size()")
    assert findings(src) == []


DEVICE_HELPER = """\
template <typename T>
__device__ void update(T* p, const float* g, size_t n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) { return; }
    p[idx] = p[idx] - 0.1f * g[idx];
}
template <typename T>
__global__ void update_kernel(T* p, const float* g, size_t n, ptrdiff_t stride) {
    update(p + blockIdx.y * stride, g + blockIdx.y * stride, n);
}
template <typename T>
void update(T* p, const float* g, size_t n, ptrdiff_t stride, int layers) {
    update_kernel<<<dim3((n + 255) / 256, layers), 256>>>(p, g, n, stride);
}
"""


def test_device_helper_sharing_its_launchers_name_is_inlined():
    assert findings(DEVICE_HELPER) == []
    assert findings(DEVICE_HELPER.replace("idx >= n", "idx > n")) == [(4, "BC104")]
    assert findings(DEVICE_HELPER.replace("idx >= n", "threadIdx.x >= n")) == [(4, "BC105")]


MUL24 = """\
#define IMAD(a, b, c) (__mul24((a), (b)) + (c))
__global__ void scale2d(float* dst, const float* src, int w, int h) {
    const int ix = IMAD(blockDim.x, blockIdx.x, threadIdx.x);
    const int iy = IMAD(blockDim.y, blockIdx.y, threadIdx.y);
    if (ix >= w || iy >= h) {
        return;
    }
    dst[IMAD(iy, w, ix)] = 2.0f * src[IMAD(iy, w, ix)];
}
"""


def test_mul24_index_is_a_product():
    assert findings(MUL24) == []
    assert findings(MUL24.replace("ix >= w", "threadIdx.x >= w")) == [(5, "BC105")]
    assert findings(MUL24.replace("ix >= w", "ix > w")) == [(5, "BC104")]


PIPELINED = """\
#define BK 16
__global__ void dot_tiles(const float* a, float* out, int K) {
    __shared__ float s[2][BK];
    int tx = threadIdx.x;
    s[0][tx] = tx < K ? a[tx] : 0.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int bk = 1; bk < (K + BK - 1) / BK; bk++) {
        int k = bk * BK + tx;
        s[bk & 1][tx] = k < K ? a[k] : 0.0f;
        __syncthreads();
        acc += s[(bk - 1) & 1][tx];
        __syncthreads();
    }
    out[blockIdx.x] = acc;
}
"""


def test_pipelined_tile_loop_from_the_second_tile_floors_its_trip_count():
    assert findings(PIPELINED) == []
    assert findings(PIPELINED.replace("(K + BK - 1) / BK", "K / BK")) == [(8, "BC301")]


VALUE_HELPER = """\
template <class T>
__device__ float sum_squares(const T* data, size_t count) {
    size_t index = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
    for (size_t i = index; i < count; i += blockDim.x * gridDim.x) {
        acc += (float)data[i] * (float)data[i];
    }
    return acc;
}
template <class T>
__global__ void sum_squares_kernel(float* out, const T* data, size_t count, ptrdiff_t stride) {
    float s = sum_squares(data + blockIdx.y * stride, count);
    if (threadIdx.x == 0) {
        atomicAdd(out + blockIdx.y, s);
    }
}
"""


def test_helper_called_for_its_value_is_walked_for_its_accesses():
    assert findings(VALUE_HELPER) == []
    assert findings(VALUE_HELPER.replace("i < count", "i <= count")) == [(5, "BC104")]


REVERSE_WALK = """\
__device__ float row_max(const float* row, int V) {
    float m = -INFINITY;
    for (int i = V + threadIdx.x - blockDim.x; i >= 0; i -= blockDim.x) {
        m = fmaxf(m, row[i]);
    }
    for (int k = 0; k < 4; k++) {
        if (k >= V) {
            break;
        }
        m = fmaxf(m, row[k]);
    }
    return m;
}
__global__ void row_max_kernel(const float* inp, float* out, int V) {
    float m = row_max(inp + blockIdx.x * V, V);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = m;
    }
}
"""


def test_lanes_walking_down_from_below_a_limit_stay_under_it_and_a_helpers_break_is_no_kernel_exit():
    assert findings(REVERSE_WALK) == []


LOCAL_EXIT = """\
__global__ void row_copy(const float* inp, float* out, int N, int C) {
    int lane = threadIdx.x % 32;
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (threadIdx.x >= C) return;
    if (row >= N) return;
    for (int i = lane; i < C; i += 32) {
        out[row * C + i] = inp[row * C + i];
    }
}
"""


def test_block_local_exit_bounds_the_warp_and_lane_taken_from_the_thread_index():
    assert findings(LOCAL_EXIT) == []
    assert findings(LOCAL_EXIT.replace("threadIdx.x >= C", "threadIdx.x > C")) == [(4, "BC104")]
    assert findings(LOCAL_EXIT.replace("row >= N", "row > N")) == [(5, "BC104")]


VECTOR_ROWS = """\
__global__ void row_first4(const float* inp, float4* out, int N, int T) {
    int idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (idx >= N) {
        return;
    }
    const float4* x = reinterpret_cast<const float4*>(inp + idx * T);
    if (threadIdx.x % 32 == 0) {
        out[idx] = x[0];
    }
}
"""


def test_warp_row_of_a_vector_access_off_by_one():
    assert findings(VECTOR_ROWS) == []
    assert findings(VECTOR_ROWS.replace("idx >= N", "idx > N")) == [(3, "BC104")]


TWO_PER_THREAD = """\
template <unsigned blockSize>
__global__ void reduce2(const float* in, float* out, unsigned n) {
    unsigned i = blockIdx.x * blockSize * 2 + threadIdx.x;
    unsigned grid = blockSize * 2 * gridDim.x;
    float s = 0.0f;
    while (i < n) {
        s += in[i];
        if (i + blockSize < n) {
            s += in[i + blockSize];
        }
        i += grid;
    }
    atomicAdd(out, s);
}
"""


def test_second_element_per_thread_needs_its_own_guard():
    assert findings(TWO_PER_THREAD) == []
    src = TWO_PER_THREAD.replace("        if (i + blockSize < n) {\n            s += in[i + blockSize];\n        }\n",
                                 "        s += in[i + blockSize];\n")
    assert findings(src) == [(8, "BC101")]


REVERSE_WALK4 = """\
__global__ void row_max4(const float* inp, float* out, int vectors, int P) {
    const float4* x = reinterpret_cast<const float4*>(inp + blockIdx.x * P);
    float m = -INFINITY;
    for (int i = vectors + threadIdx.x - blockDim.x; i >= 0; i -= blockDim.x) {
        float4 v = x[i];
        m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = m;
    }
}
"""


def test_vectors_walking_down_from_below_a_limit_are_no_first_lane_guard():
    assert findings(REVERSE_WALK4) == []
