"""CUDA trip counts, vector tails and benchmark skips for the small rules (BC106, BC202, BC301): each bug
is reported at its line, and its correct twin gives no finding."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_cuda
from bench.quality.mutate_cuda import OVERWRITTEN, RAISED
from bench.quality.reasons import reason
from boundcheck.model import Language
from tests.checking import findings, line_of


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


PACKED_LOOP = textwrap.dedent("""\
    __device__ float4 load4(const float* p);
    __device__ void store4(float* p, float4 v);
    template <int VEC>
    __global__ void scale_packed(const float* x, float* y, int n) {
        int per_iter = 32 * VEC;
        int iters = n / per_iter;
        for (int c = 0; c < iters; c++) {
            int i = threadIdx.x * VEC + c * per_iter;
            if (i < n) {
                store4(y + i, load4(x + i));
            }
        }
    }
    """)


def test_floor_trip_count_of_a_loop_that_reads_through_a_vector_helper():
    # the loop's only accesses are pointers handed to calls it cannot see into
    assert cuda(PACKED_LOOP) == [(line_of(PACKED_LOOP, "for (int c"), "BC301")]
    assert cuda(PACKED_LOOP.replace("n / per_iter", "(n + per_iter - 1) / per_iter")) == []


PACKED_TAIL = textwrap.dedent("""\
    __device__ float4 load4(const float* p);
    __device__ void store4(float* p, float4 v);
    __global__ void copy_packed(const float* x, float* y, int n) {
        for (int i = threadIdx.x; i < n / 4; i += blockDim.x) {
            store4(y + i * 4, load4(x + i * 4));
        }
        int tail = n & ~(4 - 1);
        for (int i = tail + threadIdx.x; i < n; i += blockDim.x) {
            y[i] = x[i];
        }
    }
    """)


def test_tail_past_a_power_of_two_mask_is_handled():
    # `n & ~(4 - 1)` is where the whole packs end; the second loop finishes the rest
    assert cuda(PACKED_TAIL) == []
    no_tail = PACKED_TAIL.split("    int tail")[0] + "}\n"
    assert cuda(no_tail) == [(line_of(no_tail, "i < n / 4"), "BC301")]


CAUSAL = textwrap.dedent("""\
    template <int TILE>
    __global__ void causal_row_sum(const float* att, float* out, int T) {
        __shared__ float part[TILE];
        int t = blockIdx.x;
        const float* row = att + t * T;
        float acc = 0.0f;
        int steps = (t + 1) / TILE;
        for (int s = 0; s < steps; ++s) {
            int j = s * TILE + threadIdx.x;
            acc += j <= t ? row[j] : 0.0f;
        }
        part[threadIdx.x] = acc;
    }
    """)


def test_floor_trip_count_over_a_causal_prefix():
    # row t has t + 1 elements: flooring their tile count skips the row's last partial tile
    assert cuda(CAUSAL) == [(line_of(CAUSAL, "for (int s"), "BC301")]
    assert cuda(CAUSAL.replace("(t + 1) / TILE", "(t + TILE) / TILE")) == []
    # a tile of 2 makes `+ 1` the ceiling of t / 2
    halves = CAUSAL.replace("(t + 1) / TILE", "(t + 1) / 2").replace("s * TILE", "s * 2")
    assert cuda(halves) == []


TRANSPOSE = textwrap.dedent("""\
    __global__ void transpose_f32x4(float* x, float* y, int rows, int cols) {
        int idx = blockIdx.x * blockDim.x + threadIdx.x;
        int col = (idx * 4) % cols;
        int row = (idx * 4) / cols;
        if (row < rows && col + 3 < cols) {
            float4 v = reinterpret_cast<float4*>(x)[idx];
            y[col * rows + row] = v.x;
            y[(col + 1) * rows + row] = v.y;
            y[(col + 2) * rows + row] = v.z;
            y[(col + 3) * rows + row] = v.w;
        }
    }
    """)


def test_vector_guarded_by_the_row_and_column_of_its_first_element():
    # `(idx * 4) % cols < cols` always holds: the float4's last lane is unchecked
    first_lane = TRANSPOSE.replace("col + 3 < cols", "col < cols")
    assert cuda(first_lane) == [(line_of(TRANSPOSE, "float4 v"), "BC106")]
    assert cuda(TRANSPOSE) == []


RAISED_TRIP = textwrap.dedent("""\
    #define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
    __global__ void rows(const float* x, float* y, int n) {
        int iters = CEIL_DIV(n, 128) + 2;
        for (int c = 0; c < iters; c++) {
            int i = threadIdx.x + c * 128;
            if (i < n) {
                y[i] = x[i];
            }
        }
        for (int c = 0; c < iters; c++) {
            int i = threadIdx.x + c * 128;
            if (i < n) {
                y[i] += 1.0f;
            }
        }
    }
    """)


def test_floor_of_a_raised_trip_count_is_skipped():
    # n / 128 + 2 >= ceil(n / 128): the loops still reach the tail tile (one site, counted once)
    muts = mutate_cuda.mutate("/tmp/raised.cu", RAISED_TRIP)
    assert not [m for m in muts.mutants if m.operator == "floor-trip"]
    assert muts.skipped[("floor-trip", "BC301", RAISED)] == 1
    # without the `+ 2` the floor drops the tail: still a mutant
    plain = RAISED_TRIP.replace("CEIL_DIV(n, 128) + 2", "CEIL_DIV(n, 128)")
    muts = mutate_cuda.mutate("/tmp/plain.cu", plain)
    assert [m.line for m in muts.mutants if m.operator == "floor-trip"] == [3]
    assert ("floor-trip", "BC301", RAISED) not in muts.skipped
    # a doubled count plus one is no whole addend: still a mutant
    doubled = RAISED_TRIP.replace("CEIL_DIV(n, 128) + 2", "2 * CEIL_DIV(n, 128) + 1")
    assert [m.line for m in mutate_cuda.mutate("/tmp/d.cu", doubled).mutants if m.operator == "floor-trip"] == [3]


PAIR_MAX = textwrap.dedent("""\
    __device__ float block_max(float v);
    __global__ void pair_max(const float2* x, float* out, int n) {
        int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
        float2 v = x[idx / 2];
        float m = -FLT_MAX;
        m = ((idx + 0) < n) ? fmaxf(v.x, m) : -FLT_MAX;
        m = ((idx + 1) < n) ? fmaxf(v.y, m) : -FLT_MAX;
        out[blockIdx.x] = block_max(m);
    }
    """)


def neg_inf_mutants(src: str) -> tuple[list[int], int]:
    muts = mutate_cuda.mutate("/tmp/pair.cu", src)
    lines = [m.line for m in muts.mutants if m.operator == "padding-neginf-to-zero"]
    return lines, muts.skipped[("padding-neginf-to-zero", "BC202", OVERWRITTEN)]


def test_padding_overwritten_unread_by_the_next_statement_is_skipped():
    # where idx + 0 >= n, idx + 1 >= n too: line 7 sets m to its own padding without reading m
    assert neg_inf_mutants(PAIR_MAX) == ([7], 1)
    # the next guard is on an earlier element: the padding of line 6 can reach the max
    earlier = PAIR_MAX.replace("((idx + 0) < n)", "((idx + 1) < n)", 1).replace(
        "((idx + 1) < n) ? fmaxf(v.y", "((idx + 0) < n) ? fmaxf(v.y")
    assert neg_inf_mutants(earlier) == ([6, 7], 0)
    # the next statement's else keeps m: the padding reaches the max
    kept = PAIR_MAX.replace("fmaxf(v.y, m) : -FLT_MAX", "fmaxf(v.y, m) : m")
    assert neg_inf_mutants(kept) == ([6], 0)


FIXED_GRID = textwrap.dedent("""\
    __global__ void relu(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = fmaxf(x[i], 0.0f);
    }
    void run(const float* x, float* y, int m) {
        constexpr int S = 4096;
        constexpr int N = S * 4096;
        dim3 grid((N + 1024 - 1) / 1024);
        relu<<<grid, 1024>>>(x, y, N);
    }
    """)


def floor_grid_mutants(src: str) -> tuple[list[int], int]:
    muts = mutate_cuda.mutate("/tmp/grid.cu", src)
    reason = ("floor-grid", "BC302", "exact division: compile-time sizes: the extent is a multiple of the tile")
    return [m.line for m in muts.mutants if m.operator == "floor-grid"], muts.skipped[reason]


def test_floor_of_a_grid_over_compile_time_multiples_is_skipped():
    # N = 4096 * 4096 is a multiple of 1024: N / 1024 launches the same grid
    assert floor_grid_mutants(FIXED_GRID) == ([], 1)
    # 1000 elements: N / 1024 launches no block at all
    assert floor_grid_mutants(FIXED_GRID.replace("S * 4096", "1000")) == ([8], 0)
    # a runtime size
    runtime = FIXED_GRID.replace("constexpr int N = S * 4096;", "int N = S * m;")
    assert floor_grid_mutants(runtime) == ([8], 0)


NESTED_GRID = textwrap.dedent("""\
    __global__ void add(const float* a, float* c, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) c[i] = a[i] + 1.0f;
    }
    __host__ __device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }
    void run(const float* a, float* c, int n, int per_warp, int warps) {
        dim3 grid(ceil_div(ceil_div(n, per_warp), warps));
        add<<<grid, 32 * warps>>>(a, c, n);
    }
    """)


def test_a_ceiling_of_a_floored_count_is_reported():
    # ceil_div(n / per_warp, warps) rounds up a count that already dropped n % per_warp
    floored = NESTED_GRID.replace("ceil_div(n, per_warp)", "n / per_warp")
    assert cuda(floored) == [(line_of(floored, "dim3 grid"), "BC302")]
    assert cuda(NESTED_GRID) == []


STRIDED_LAUNCH = textwrap.dedent("""\
    __global__ void add_bias(float* out, const float* bias, int n, int oc) {
        int stride = blockDim.x * gridDim.x;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
            out[i] += bias[i % oc];
        }
    }
    void run(float* out, const float* bias, int n, int oc) {
        int blocks = n / 256;
        add_bias<<<blocks, 256>>>(out, bias, n, oc);
    }
    """)


def test_missed_floor_grid_of_a_grid_stride_kernel_is_by_design():
    record = {"language": "cuda", "operator": "floor-grid", "rule": "BC302", "line": 8, "outcome": "missed",
              "description": "`ceil_div(n, 256)` became `n / 256` in a launch grid", "new_findings": [],
              "targets": [[8, 8], [9, 9]]}
    assert reason(record, STRIDED_LAUNCH.splitlines()).startswith("by design: the launched kernel strides")
    tiled = STRIDED_LAUNCH.replace("i += stride", "i += 0")
    assert reason(record, tiled.splitlines()).startswith("analyzer gap: grid held in an integer variable")


PAIRS = textwrap.dedent("""\
    __global__ void pairs(float* x, float* y, int n) {
        int idx = blockIdx.x * blockDim.x + threadIdx.x;
        if (idx < n) {
            float2 v = *reinterpret_cast<float2*>(&x[idx * 2]);
            reinterpret_cast<float2*>(y)[idx] = v;
        }
    }
    """)


def test_a_guard_counting_vectors_holds_for_every_lane():
    # `idx < n` bounds the vector index; each float2 holds elements 2 * idx and 2 * idx + 1
    assert cuda(PAIRS) == []
    # the same guard on the element index checks the first lane only
    elements = PAIRS.replace("int idx = blockIdx.x * blockDim.x + threadIdx.x;",
                             "int idx = blockIdx.x * blockDim.x + threadIdx.x;\n    int e = idx * 2;") \
        .replace("if (idx < n)", "if (e < n)")
    assert cuda(elements) == [(line_of(elements, "float2 v"), "BC106"), (line_of(elements, "= v;"), "BC106")]
    # a vector at an odd element (`2 * idx + 1`) is not vector `idx`
    odd = PAIRS.replace("&x[idx * 2]", "&x[idx * 2 + 1]")
    assert cuda(odd) == [(line_of(odd, "float2 v"), "BC106")]
