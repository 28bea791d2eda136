"""The CUDA frontend fills the boundary model, and the shared rules fire on it."""

from __future__ import annotations

import json
import math
import random

import pytest

from boundcheck.engine import check_source
from boundcheck.frontends.cuda import parse_module
from boundcheck.model import AccessKind, Language, Padding, Reduction, Space, Tiling
from boundcheck.settings import Settings


def model(src: str, path: str = "k.cu", args: list[str] | None = None):
    return parse_module(path, src, args or [])


def findings(src: str, path: str = "k.cu") -> list[tuple[int, str]]:
    found, _ = check_source(path, Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def access(module, buffer: str, kind: AccessKind = AccessKind.READ, kernel: int = 0):
    return next(a for a in module.kernels[kernel].accesses if a.buffer == buffer and a.kind is kind)


MAP = """\
#include <cuda_runtime.h>
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 2.0f * x[i];
    }
}
"""


def test_guarded_map_model():
    m = model(MAP)
    assert not m.errors
    (k,) = m.kernels
    assert k.name == "scale"
    read, write = access(m, "x"), access(m, "y", AccessKind.WRITE)
    assert read.space is Space.GLOBAL and read.span.line == 5 and read.span.col == 22
    (dim,) = write.dims
    assert (dim.source, dim.tiling, dim.tile) == ("threadIdx.x", Tiling.PROGRAM, "blockDim.x")
    (bound,) = write.guards
    assert (bound.source, bound.op, bound.limit, bound.local) == ("threadIdx.x", "<", "n", False)
    assert bound.span.line == 4 and bound.op_text == "<"
    assert findings(MAP) == []


def test_unguarded_and_off_by_one_and_thread_index_guard():
    unguarded = MAP.replace("if (i < n) {", "{")
    assert findings(unguarded) == [(5, "BC101"), (5, "BC102")]
    assert findings(MAP.replace("i < n", "i <= n")) == [(4, "BC104")]
    tid = MAP.replace("if (i < n)", "if (threadIdx.x < n)")
    assert findings(tid) == [(4, "BC105")]


def test_off_by_one_fix_points_at_the_operator():
    found, _ = check_source("k.cu", Language.CUDA, MAP.replace("i < n", "i <= n"), Settings())
    (f,) = found
    (edit,) = f.fix.edits
    assert edit.text == "<" and (edit.span.line, edit.span.col, edit.span.end_col) == (4, 10, 12)


EXIT = """\
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n) return;
    y[i] = x[i];
}
"""


def test_early_exit_guards_the_rest_and_keeps_the_written_operator():
    m = model(EXIT)
    (bound,) = access(m, "y", AccessKind.WRITE).guards
    assert (bound.op, bound.op_text, bound.admits_extent) == ("<=", ">", True)
    assert m.kernels[0].exits[0].barriers_after == ()
    assert findings(EXIT) == [(3, "BC104")]
    assert findings(EXIT.replace("i > n", "i >= n")) == []


GEMM = """\
#define TILE 16
__global__ void gemm(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * K + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}
"""


def test_gemm_dims_loops_and_shared_space():
    m = model(GEMM)
    k = m.kernels[0]
    loop = k.loops[0]
    assert loop.var == "t" and loop.span.line == 8 and loop.span.end_col == 38
    assert loop.trip is not None and (loop.trip.extent, loop.trip.tile) == ("K", "TILE")
    a = access(m, "A")
    dims = {d.source: d for d in a.dims}
    assert dims["threadIdx.y"].tiling is Tiling.PROGRAM and dims["threadIdx.y"].tile == "TILE"
    assert dims["threadIdx.x"].tiling is Tiling.LOOP and dims["threadIdx.x"].loop == loop
    assert access(m, "As", AccessKind.WRITE).space is Space.SHARED
    assert len(access(m, "C", AccessKind.WRITE).guards) == 2
    # the floor trip count is the finding; A's missing row guard is a partial guard
    assert findings(GEMM) == [(8, "BC301"), (9, "BC101"), (10, "BC101")]


def test_contracts_silence_the_floor_trip_count():
    asserted = GEMM.replace("    float sum = 0.0f;", "    float sum = 0.0f;\n    // boundcheck: assume K % TILE == 0")
    assert (9, "BC301") not in findings(asserted)
    assert ("K", "TILE", "assume comment") in {(c.extent, c.tile, c.origin) for c in model(asserted).kernels[0].contracts}
    static = GEMM + "static_assert(1024 % TILE == 0, \"\");\n"
    assert ("1024", "TILE") in {(c.extent, c.tile) for c in model(static).kernels[0].contracts}
    tail = GEMM.replace("    float sum = 0.0f;", "    float sum = 0.0f;\n    int rem = K % TILE;")
    assert ("K", "TILE") in model(tail).kernels[0].tail_handled
    assert (9, "BC301") not in findings(tail)


TILED = """\
#define TILE 16
__global__ void gemm(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        if (row < M && t * TILE + tx < K)
            As[ty][tx] = A[row * K + t * TILE + tx];
        if (t * TILE + ty < K && col < N)
            Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        else
            Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}
"""


def test_shared_tile_padding_and_uses():
    m = model(TILED)
    stale = access(m, "As", AccessKind.WRITE)
    assert stale.padding == Padding(None, stale=True)
    assert {u.reduction for u in stale.uses} == {Reduction.DOT}
    zero = access(m, "Bs", AccessKind.WRITE)
    assert zero.padding == Padding(0.0)
    assert m.kernels[0].loops[0].trip is None
    assert findings(TILED) == [(11, "BC201")]


def test_prior_fill_is_padding():
    filled = TILED.replace("        if (row < M && t * TILE + tx < K)\n",
                           "        As[ty][tx] = 0.0f;\n        __syncthreads();\n"
                           "        if (row < M && t * TILE + tx < K)\n")
    assert findings(filled) == []


REDUCE = """\
#include <cfloat>
__global__ void rowmax(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : PAD;
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, off));
    if (threadIdx.x % 32 == 0) atomicMax((int*)out, __float_as_int(v));
}
"""


@pytest.mark.parametrize("pad, value, codes", [
    ("0.0f", 0.0, [(4, "BC202")]),
    ("-INFINITY", -math.inf, []),
    ("-FLT_MAX", -math.inf, []),  # the finite identity of max kernels rely on: taken as -inf
])
def test_ternary_padding_into_a_max_shuffle(pad, value, codes):
    src = "__device__ int __float_as_int(float);\n" + REDUCE.replace("PAD", pad)
    m = model(src)
    read = access(m, "x")
    assert read.padding == Padding(value)
    assert Reduction.MAX in {u.reduction for u in read.uses}
    assert read.guards[0].limit == "n"
    assert findings(src) == [(line + 1, code) for line, code in codes]


def test_if_else_padding_and_sum():
    src = """\
__global__ void rowsum(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    if (i < n) v = x[i];
    else v = -INFINITY;
    float s = 0.0f;
    s += v;
    atomicAdd(&out[blockIdx.x], s);
}
"""
    m = model(src)
    read = access(m, "x")
    assert read.padding == Padding(-math.inf)
    assert Reduction.SUM in {u.reduction for u in read.uses}
    assert access(m, "out", AccessKind.ATOMIC).span.line == 8
    assert findings(src) == [(4, "BC202")]


def test_guard_helper_is_inlined():
    src = """\
__device__ bool in_bounds(int r, int c, int M, int N) { return r < M && c <= N; }
__global__ void copy(const float* x, float* y, int M, int N) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (in_bounds(r, c, M, N)) y[r * N + c] = x[r * N + c];
}
"""
    m = model(src)
    guards = access(m, "y", AccessKind.WRITE).guards
    assert {(b.source, b.op, b.limit) for b in guards} == {("threadIdx.y", "<", "M"), ("threadIdx.x", "<=", "N")}
    assert findings(src) == [(1, "BC104")]


def test_partial_guard_and_else_branch_negation():
    src = """\
__global__ void copy(const float* x, float* y, int M, int N) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= M) {
        return;
    } else {
        y[r * N + c] = x[r * N + c];
    }
}
"""
    assert findings(src) == [(7, "BC103"), (7, "BC103")]


def test_grid_stride_loop_condition_guards_the_body():
    src = """\
__global__ void scale(const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = x[i];
}
"""
    m = model(src)
    write = access(m, "y", AccessKind.WRITE)
    assert write.guards and write.guards[0].limit == "n" and not write.guards[0].local
    assert findings(src) == []


VEC = """\
__global__ void scale4(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (GUARD) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
"""


@pytest.mark.parametrize("guard, codes", [
    ("4 * i < n", [(4, "BC106"), (5, "BC106")]),
    ("4 * i + 3 < n", []),
    ("i < n / 4", []),  # the limit is in vectors: the whole vector is in bounds
    ("i < (n >> 2)", []),
])
def test_vector_width_index_and_guard_units(guard, codes):
    src = VEC.replace("GUARD", guard)
    m = model(src)
    read = access(m, "x")
    assert read.width == 4 and read.dims[0].source == "threadIdx.x"
    assert findings(src) == codes


def test_vector_through_address_of_element():
    src = """\
__global__ void scale4(const float* x, float* y, int n) {
    int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        float4 v = *(const float4*)(&x[i]);
        *reinterpret_cast<float4*>(&y[i]) = v;
    }
}
"""
    m = model(src)
    assert access(m, "x").width == 4 and access(m, "y", AccessKind.WRITE).width == 4
    assert findings(src) == [(4, "BC106"), (5, "BC106")]
    assert findings(src.replace("if (i < n)", "assert(n % 4 == 0);\n    if (i < n)")) == []


BARRIER = """\
#define BLOCK 256
__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float buf[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n) return;
    buf[threadIdx.x] = x[i];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
"""


def test_exit_before_barrier():
    m = model(BARRIER)
    (ex,) = m.kernels[0].exits
    assert (ex.span.line, ex.statement, ex.guard) == (5, "return", "i >= n")
    assert [b.line for b in ex.barriers_after] == [7]
    assert findings(BARRIER) == [(5, "BC303")]


def test_continue_before_barrier_in_a_loop():
    src = """\
__global__ void tiles(const float* x, float* out, int n) {
    __shared__ float buf[256];
    for (int base = 0; base < n; base += 256) {
        int i = base + threadIdx.x;
        if (i >= n) continue;
        buf[threadIdx.x] = x[i];
        __syncthreads();
    }
}
"""
    assert findings(src) == [(5, "BC303")]


LAUNCH = """\
#include <cassert>
template <int B>
__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    y[i] = x[i];
}
void run(const float* x, float* y, int n) {
    ASSERT
    int blocks = n / 256;
    dim3 grid(blocks);
    scale<256><<<grid, 256>>>(x, y, n);
}
"""


def test_launch_floor_grid_through_locals():
    src = LAUNCH.replace("ASSERT", "")
    m = model(src)
    (launch,) = m.launches
    assert launch.kernel == "scale" and launch.span.line == 11
    (div,) = launch.grid
    assert (div.extent, div.tile, div.span.line) == ("n", "256", 9)
    assert findings(src) == [(5, "BC101"), (5, "BC102"), (9, "BC302")]


def test_host_assert_is_a_launch_fact_and_a_kernel_contract():
    src = LAUNCH.replace("ASSERT", "assert(n % 256 == 0 && n > 0);")
    m = model(src)
    assert [(f.extent, f.tile, f.origin) for f in m.launches[0].facts] == [("n", "256", "host assert")]
    assert ("n", "B") in {(c.extent, c.tile) for c in m.kernels[0].contracts}
    assert findings(src) == []


def test_ceil_grid_and_dim3_2d():
    src = """\
__global__ void k(float* y, int m, int n) { }
void run(float* y, int m, int n) {
    dim3 grid((n + 15) / 16, m / 16);
    k<<<grid, dim3(16, 16)>>>(y, m, n);
}
"""
    (launch,) = model(src).launches
    assert [(d.extent, d.tile, d.span.line) for d in launch.grid] == [("m", "16", 3)]


def test_macros_keep_their_names_and_defines_pass_through():
    src = """\
__global__ void k(const float* x, float* y, int n) {
#if WIDE
    int i = blockIdx.x * TILE + threadIdx.x;
    y[i] = x[i];
#endif
}
"""
    m = model(src, args=["-DWIDE=1", "-DTILE=128"])
    write = access(m, "y", AccessKind.WRITE)
    assert write.dims[0].tile == "TILE"
    assert model(src).kernels[0].accesses == []


def test_compile_commands_flags(tmp_path):
    path = tmp_path / "sub" / "k.cu"
    path.parent.mkdir()
    src = "__global__ void k(float* y, int n) {\n#ifdef ON\n    y[blockIdx.x * blockDim.x + threadIdx.x] = 0;\n#endif\n}\n"
    path.write_text(src)
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": "sub/k.cu", "arguments": ["nvcc", "-DON", "-O3", "-c", "sub/k.cu"]}]))
    assert findings(src, str(path)) == [(3, "BC102")]


def test_missing_includes_are_answered_and_kernels_still_modelled():
    src = '#include "not/here.h"\n#include <nothing_like_this>\n' + MAP
    m = model(src)
    assert not m.errors and len(m.kernels) == 1


def test_broken_kernel_is_bc001_and_other_kernels_are_modelled():
    src = MAP + """\
__global__ void broken(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = undefined_thing(i);
}
"""
    m = model(src)
    assert [k.name for k in m.kernels] == ["scale", "broken"]
    ((span, message),) = m.errors
    assert span.line == 10 and "broken" in message and "undefined_thing" in message
    assert (10, "BC001") in findings(src)


@pytest.mark.parametrize("seed", range(20))
def test_never_raises_on_garbage(seed):
    rng = random.Random(seed)
    blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))).decode("latin-1")
    source = "__global__ " + blob
    m = model(source)
    assert m.language is Language.CUDA


@pytest.mark.parametrize("cut", [10, 60, 120, 200, 300, 400, 520, 700])
def test_never_raises_on_truncated_files(cut):
    m = model(TILED[:cut])
    assert isinstance(m.errors, list)
    findings(TILED[:cut])


def test_short_circuit_guards_the_right_operand():
    src = """\
__global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.0f) y[i] = 1.0f;
    if (i >= n || x[i] < 0.0f) return;
}
"""
    m = model(src)
    reads = [a for a in m.kernels[0].accesses if a.buffer == "x"]
    assert len(reads) == 2 and all(a.guards and a.guards[0].limit == "n" for a in reads)
    assert findings(src) == []


def test_warp_index_is_a_per_warp_offset_and_lane_is_the_tile():
    src = """\
__global__ void rowmax(const float* x, float* y, int M, int N) {
    int row = blockIdx.x * 4 + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= M) return;
    float best = -INFINITY;
    for (int base = 0; base < N; base += 32) best = fmaxf(best, x[row * N + base + lane]);
    if (lane == 0) y[row] = best;
}
"""
    m = model(src)
    (dim,) = access(m, "x").dims
    assert (dim.source, dim.tiling, dim.tile) == ("threadIdx.x % 32", Tiling.LOOP, "32")
    assert access(m, "y", AccessKind.WRITE).dims == ()
    assert findings(src) == [(6, "BC101")]
    guarded = src.replace("x[row * N + base + lane]", "(base + lane < N ? x[row * N + base + lane] : -INFINITY)")
    assert findings(guarded) == []


TOOLKIT_NAMES = """\
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <mma.h>
namespace cg = cooperative_groups;
using namespace nvcuda;
__global__ void uses_toolkit(const half* x, half* y, float* out, unsigned int* counter, uint n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        half h = x[i];
        h += __hmax(h, __float2half(0.0f));
        half2 pair = __halves2half2(h, -h);
        y[i] = __hadd(__low2half(pair), __int2half_rn(1));
        float v = cg::reduce(warp, __half2float(h), cg::plus<float>{});
        out[i] = v + sinf(M_PI) + __ldcs(out + i) + std::max(1.0f, 2.0f);
        atomicExch(counter, 1);
        atomicInc(counter, 3u);
    }
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> frag;
    wmma::fill_fragment(frag, 0.0f);
    cudaTextureObject_t tex = 0;
    clock_t start = clock();
    printf("%d %f\\n", (int)start, tex2D<float>(tex, 0.5f, 0.5f));
}
"""


def test_toolkit_types_and_intrinsics_parse_without_headers():
    """Half/bf16 intrinsics, cooperative groups, wmma, atomics on mixed types, textures, std::,
    `uint` and device printf are what real kernels use: none may cost a BC001."""
    m = model(TOOLKIT_NAMES)
    assert m.errors == []
    assert findings(TOOLKIT_NAMES) == []


def test_quoted_include_found_in_a_project_directory(tmp_path):
    """A build's `-I` is unknown: a quoted include that is not next to the file is taken from the
    nearest ancestor, or the one subdirectory of it, that holds it."""
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "defs.h").write_text("__device__ int lanes();\n")
    (tmp_path / "ops" / "add").mkdir(parents=True)
    src = '#include "defs.h"\n__global__ void k(float* x) { x[threadIdx.x % lanes()] = 0.0f; }\n'
    path = tmp_path / "ops" / "add" / "k.cu"
    path.write_text(src)
    assert model(src, str(path)).errors == []
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "defs.h").write_text("__device__ int lanes();\n")
    assert model(src, str(path)).errors != []  # two candidates: ambiguous, not guessed


def test_a_header_may_include_a_sibling_of_the_checked_file(tmp_path):
    """`common/helper.hpp` includes `"cuda_helper.hpp"`, which sits beside the kernel in
    `common/cuda/`: the build's `-I` of the source directory answers it, and so does the check."""
    (tmp_path / "common" / "cuda").mkdir(parents=True)
    (tmp_path / "common" / "helper.hpp").write_text('#include "cuda_helper.hpp"\n')
    (tmp_path / "common" / "cuda" / "cuda_helper.hpp").write_text(
        "#define KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); "
        "i += blockDim.x * gridDim.x)\n")
    src = '#include "helper.hpp"\n__global__ void k(float* x, int n) { KERNEL_LOOP(i, n) { x[i] = 0.0f; } }\n'
    path = tmp_path / "common" / "cuda" / "k.cuh"
    path.write_text(src)
    assert model(src, str(path)).errors == []
    assert findings(src, str(path)) == []
    (tmp_path / "common" / "cuda" / "cuda_helper.hpp").unlink()
    assert model(src, str(path)).errors != []  # nowhere to be found: the kernel is only partly read


DATA_TEST_MAX = """\
__global__ void row_softmax_sum(const float* x, float* out, int rows, int T) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        const float* r = x + row * T;
        float m = -FLT_MAX;
        for (int t = 0; t < T; t++) {
            if (r[t] > m) {
                m = r[t];
            }
        }
        float s = 0.0f;
        for (int t = 0; t < T; t++) {
            s += expf(r[t] - m);
        }
        out[row] = s;
    }
}
"""


def test_a_data_test_is_not_a_boundary_guard_and_pads_nothing():
    """`if (r[t] > m) m = r[t];` keeps the running max: the branch not taken is no padding."""
    m = model(DATA_TEST_MAX)
    assert all(a.padding is None for a in m.kernels[0].accesses if a.buffer == "x")
    assert findings(DATA_TEST_MAX) == []


ELEMENT_LOOP = """\
__global__ void head_dot(const float* q, const float* k, float* out, int rows, int C, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows) {
        int hs = C / NH;
        const float* qh = q + idx * C;
        const float* kh = k + idx * C;
        float acc = 0.0f;
        for (int i = 0; i < hs; i++) {
            acc += qh[i] * kh[i];
        }
        out[idx] = acc;
    }
}
"""


def test_floor_division_bounding_an_element_loop_is_no_trip_count():
    """`i < C / NH` with `x[i]` walks a head's elements; only a loop whose counter an index
    scales by the divisor (`t * TILE + tx`) counts tiles and can skip a tail."""
    assert findings(ELEMENT_LOOP) == []
    tiled = ELEMENT_LOOP.replace("qh[i] * kh[i]", "qh[i * NH + threadIdx.x % NH] * kh[i]")
    assert (8, "BC301") in findings(tiled)


ROW_GUARDED_VECTOR = """\
__global__ void copy_rows(const float* a, float* b, int M, int K) {
    int row = blockIdx.y * 16 + threadIdx.x / 4;
    int col = blockIdx.x * 16 + (threadIdx.x % 4) * 4;
    if (row < M) {
        float4 v = reinterpret_cast<const float4*>(&a[row * K + col])[0];
        reinterpret_cast<float4*>(&b[row * K + col])[0] = v;
    }
}
"""


def test_a_row_guard_is_no_vector_tail():
    """The guard bounds the row (an index scaled by the runtime stride K); the four lanes of
    the vector run along the row, so they are not what `row < M` checks (BC106 stays for a
    guard on the contiguous index)."""
    assert not [f for f in findings(ROW_GUARDED_VECTOR) if f[1] == "BC106"]
    flat = """\
__global__ void copy_flat(const float* a, float* b, int n) {
    int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        reinterpret_cast<float4*>(&b[i])[0] = reinterpret_cast<const float4*>(&a[i])[0];
    }
}
"""
    assert findings(flat) == [(4, "BC106"), (4, "BC106")]


FLOOR_GRID_LAUNCH = """\
#define TILE 256
__global__ void negate(const float* x, float* y) {
    int i = blockIdx.x * TILE + threadIdx.x;
    y[i] = -x[i];
}

void run(const float* x, float* y, int n) {
    negate<<<n / TILE, TILE>>>(x, y);
}
"""


def test_a_floor_grid_is_reported_once_at_the_launch_not_per_access():
    """`n / TILE` blocks never reach past n: the accesses stay in bounds and the skipped tail is
    the launch's defect (BC302); a ceiling grid leaves the accesses unguarded (BC101/BC102)."""
    assert findings(FLOOR_GRID_LAUNCH) == [(8, "BC302")]
    ceil = FLOOR_GRID_LAUNCH.replace("n / TILE", "(n + TILE - 1) / TILE")
    assert findings(ceil) == [(4, "BC101"), (4, "BC102")]
    asserted = FLOOR_GRID_LAUNCH.replace("    negate<<<", "    assert(n % TILE == 0);\n    negate<<<")
    assert findings(asserted) == []


STRIDE_FILL = """\
__global__ void column_sums(const float* x, float* out, int rows, int C) {
    extern __shared__ float acc[];
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        acc[i] = 0.0f;
    }
    __syncthreads();
    for (int r = 0; r < rows; r++) {
        for (int i = threadIdx.x; i < C; i += blockDim.x) {
            atomicAdd(&acc[i], x[r * C + i]);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        out[blockIdx.x * C + i] = acc[i];
    }
}
"""


def test_a_stride_loop_fills_its_whole_range_and_shared_vectors_have_no_tail():
    """A block-stride loop writes every shared slot below its limit, so the slots past it are not
    data (no BC201); a vector index into shared memory is no global tail (no BC106)."""
    assert findings(STRIDE_FILL) == []
    vec = """\
__global__ void stage(const float4* x, float* out, int C) {
    extern __shared__ char raw[];
    float4* tile = reinterpret_cast<float4*>(raw);
    for (int c = threadIdx.x * 4; c < C; c += blockDim.x * 4) {
        tile[c / 4] = x[c / 4];
    }
    __syncthreads();
    out[threadIdx.x] = tile[0].x;
}
"""
    assert [f for f in findings(vec) if f[1] in ("BC106", "BC201")] == []


def test_a_guard_on_another_index_of_the_same_threads_is_no_vector_tail():
    """An early exit on the load row (`tid / 2`) says nothing of where the store's vector lies
    (`(lane / 4) * N + col`): no first-lane-only verdict from it."""
    src = """\
__global__ void store_tile(const float* a, float* c, int M, int N) {
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    int load_row = blockIdx.y * 64 + tid / 2;
    if (load_row >= M) return;
    int lane = tid % 32;
    int row = blockIdx.y * 64 + lane / 4;
    int col = blockIdx.x * 64 + (lane % 4) * 4;
    reinterpret_cast<float4*>(&c[row * N + col])[0] = reinterpret_cast<const float4*>(&a[row * N + col])[0];
}
"""
    assert not [f for f in findings(src) if f[1] == "BC106"]


CAUSAL_ROW = """\
__global__ void causal_row_sum(const float* x, float* out, int rows, int T) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= rows * T) {
        return;
    }
    int own_pos = row % T;
    const float* r = x + row * T;
    float s = 0.0f;
    for (int j = threadIdx.x % 32; j <= own_pos; j += 32) {
        s += r[j];
    }
    out[row] = s;
}
"""


def test_a_causal_limit_derived_from_the_block_is_a_position_not_an_extent():
    """`j <= own_pos` (own_pos = row % T, this block's row): reaching the position is intended;
    the same `<=` against the extent T is still an off-by-one."""
    assert findings(CAUSAL_ROW) == []
    assert findings(CAUSAL_ROW.replace("j <= own_pos", "j <= T")) == [(9, "BC104")]


GRID_STRIDE_HW_GRID = """\
template <typename T>
__global__ void sum_squares(float* out, const T* data, size_t count) {
    size_t stride = blockDim.x * gridDim.x;
    float acc = 0.0f;
    for (size_t i = threadIdx.x + blockDim.x * blockIdx.x; i < count; i += stride) {
        acc += (float)data[i] * (float)data[i];
    }
    atomicAdd(out, acc);
}

template <typename T>
void launch(float* out, const T* data, size_t count, int block, int threads_per_sm, int sms) {
    const int grid = threads_per_sm * sms / block;
    sum_squares<<<grid, block>>>(out, data, count);
}
"""


def test_a_grid_stride_kernel_does_not_need_its_grid_to_cover_the_extent():
    """A grid sized from the hardware (threads per SM × SMs / block) for a kernel whose accesses
    all sit in grid-stride loops drops nothing; the same floored grid for a one-element-per-thread
    kernel is BC302 (and the launch is joined to the kernel through the template call)."""
    assert findings(GRID_STRIDE_HW_GRID) == []
    one_each = GRID_STRIDE_HW_GRID.replace(
        "for (size_t i = threadIdx.x + blockDim.x * blockIdx.x; i < count; i += stride) {",
        "size_t i = threadIdx.x + blockDim.x * blockIdx.x; if (i < count) {")
    assert findings(one_each) == [(13, "BC302")]
    assert [la.kernel for la in model(GRID_STRIDE_HW_GRID).launches] == ["sum_squares"]


def test_includes_of_found_headers_are_answered_before_the_first_parse(tmp_path, monkeypatch):
    """A local header's own missing includes get empty headers up front: one libclang parse."""
    import clang.cindex as ci

    (tmp_path / "common.h").write_text("#include <cuda_runtime.h>\n#include <stdio.h>\n"
                                       '#include "deeper.h"\n')
    (tmp_path / "deeper.h").write_text("#include <cublas_v2.h>\n#define TILE 32\n")
    src = '#include "common.h"\n__global__ void k(float* x) { x[threadIdx.x % TILE] = 0.0f; }\n'
    path = tmp_path / "k.cu"
    path.write_text(src)
    parses = []
    real = ci.Index.parse
    monkeypatch.setattr(ci.Index, "parse", lambda self, *a, **kw: parses.append(a) or real(self, *a, **kw))
    m = model(src, str(path))
    assert m.errors == [] and len(m.kernels) == 1 and len(parses) == 1


WARP_DEALT_TILES = """\
#define TILE 256
__global__ void warp_tiles(const float* x, float* y, int C) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int warps = blockDim.x / 32;
    int iters = C / TILE;
    for (int i = warp; i < iters; i += warps) {
        for (int k = 0; k < 8; k++) {
            y[lane + i * TILE + k * 32] = 2.0f * x[lane + i * TILE + k * 32];
        }
    }
}
"""


def test_tiles_dealt_out_over_warps_are_a_loop_over_tiles():
    """`for (i = warp; i < C / TILE; i += warps)` counts tiles like a loop from 0: the floored
    count is the defect (BC301 at the loop), and the accesses inside stay in bounds."""
    assert findings(WARP_DEALT_TILES) == [(7, "BC301")]
    ceil = WARP_DEALT_TILES.replace("C / TILE;", "(C + TILE - 1) / TILE;")
    assert findings(ceil) == [(9, "BC101"), (9, "BC102")]


WHOLE_TILE_EXIT = """\
#include <assert.h>
__global__ void staged(const float* x, float* y, int C) {
    __shared__ float s[256];
    int lane = threadIdx.x % 32;
    int steps = (C + 255) / 256 + 2;
    for (int i = 0; i < steps; i++) {
        int g = lane * 8 + i * 256;
        if (g >= C) {
            break;
        }
        s[threadIdx.x] = x[g];
        __syncthreads();
        y[g] = s[(threadIdx.x + 1) % 32];
        __syncthreads();
    }
}

void run(const float* x, float* y, int C) {
    assert(C % 256 == 0);
    staged<<<1, 32>>>(x, y, C);
}
"""


def test_an_exit_every_thread_takes_at_the_same_step_is_no_barrier_divergence():
    """`g = (tid % 32) * 8 + i * 256`: each step covers one whole tile of 256, so with C % 256 == 0
    asserted every thread leaves at the same i; without the assert the tail step splits them."""
    assert findings(WHOLE_TILE_EXIT) == []
    assert findings(WHOLE_TILE_EXIT.replace("    assert(C % 256 == 0);\n", "")) == [(9, "BC303")]


WARP_COLUMNS = """\
#include <assert.h>
__global__ void column_copy(const float* x, float* y, int n) {
    int lane = threadIdx.x % warpSize;
    int base = blockIdx.x * warpSize;
    y[base + lane] = x[base + lane];
}

void run(const float* x, float* y, int n) {
    assert(n % 32 == 0);
    column_copy<<<n / 32, 32>>>(x, y, n);
}
"""


def test_warp_size_is_32_to_a_contract():
    """`blockIdx.x * warpSize + lane` is tiled by 32, so a host `assert(n % 32 == 0)` covers it."""
    assert findings(WARP_COLUMNS) == []
    assert findings(WARP_COLUMNS.replace("    assert(n % 32 == 0);\n", "")) == [(9, "BC302")]


BLOCK_MIN = """\
__global__ void block_min(const float* input, float* output) {
    extern __shared__ float s[];
    int tid = threadIdx.x;
    s[tid] = input[tid];
    s[tid + blockDim.x] = input[tid + blockDim.x];
    for (int d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            s[tid] = fminf(s[tid], s[tid + d]);
        }
    }
    if (tid == 0) {
        output[blockIdx.x] = s[0];
    }
}
"""


def test_a_reduction_stride_is_no_extent_of_a_whole_block_tile():
    """`tid < d` (d a tree reduction's stride) compares a lane with a loop position, not with the
    size of anything: the block-local reads of a one-block input stay whole-dimension tiles."""
    assert findings(BLOCK_MIN) == []
    bounded = BLOCK_MIN.replace("float* output)", "float* output, int n)").replace(
        "if (tid < d)", "if (tid < d && tid < n)")
    assert findings(bounded) == [(4, "BC101"), (5, "BC101")]


SEGMENT_COPY = """\
__global__ void copy_segments(const unsigned* src, unsigned* dst, const unsigned* starts,
                              const unsigned* ends, unsigned n) {
    __shared__ unsigned start, len;
    if (threadIdx.x == 0) {
        start = starts[blockIdx.x];
        len = ends[blockIdx.x] - start;
    }
    __syncthreads();
    src += blockIdx.x * 1024;
    dst += blockIdx.x * 1024;
    if (threadIdx.x < len) {
        dst[start + threadIdx.x] = src[start + threadIdx.x];
    }
}
"""


def test_a_thread_guard_on_a_per_block_segment_length_bounds_the_segment():
    """`tid < len` where each block reads its segment's start and length from memory bounds the
    block's own segment (start + tid < end), not a block-local stand-in for a global extent; a
    length that is the kernel's extent parameter is still BC105."""
    assert findings(SEGMENT_COPY) == []
    global_extent = SEGMENT_COPY.replace("if (threadIdx.x < len)", "if (threadIdx.x < n)").replace(
        "start + threadIdx.x", "blockIdx.x * blockDim.x + threadIdx.x")
    assert findings(global_extent) == [(11, "BC105")]


PER_THREAD_PARTIALS = """\
__global__ void partial_sums(float* partial, const float* x, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;
    float sum = 0.0f;
    for (int i = tid; i < n; i += threads) {
        sum += x[i];
    }
    partial[tid] = sum;
}
"""


def test_a_grid_stride_kernel_keeps_one_slot_per_thread():
    """`partial[tid]` at the id a grid-stride loop starts from is the thread's own slot in a buffer
    as long as the grid; the same store at another index is still unguarded."""
    assert findings(PER_THREAD_PARTIALS) == []
    assert findings(PER_THREAD_PARTIALS.replace("partial[tid]", "partial[tid + 1]")) == [(8, "BC102")]


FLOOR_GRID_BY_BLOCK_VAR = """\
__global__ void shade(float* out, int width) {
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = 1.0f;
}

void run(float* out, int width, int height) {
    dim3 block(8, 8, 1);
    dim3 grid(width / block.x, height / block.y, 1);
    shade<<<grid, block>>>(out, width);
}
"""


def test_a_grid_floored_by_the_block_variable_is_reported_once_at_the_launch():
    """`width / block.x` with `block` the launch's block: the blocks never pass width, and the
    dropped tail is the launch's defect, reported there (not once more per access)."""
    assert findings(FLOOR_GRID_BY_BLOCK_VAR) == [(9, "BC302"), (9, "BC302")]


STEPPED_ROWS = """\
#include <assert.h>
#define BX 16
#define STEPS 8
__global__ void rows(float* dst, const float* src, int w, int h, int pitch) {
    const int base_x = blockIdx.x * STEPS * BX + threadIdx.x;
    const int base_y = blockIdx.y * 4 + threadIdx.y;
    for (int i = 0; i < STEPS; i++) {
        dst[base_y * pitch + base_x + i * BX] = 2.0f * src[base_y * pitch + base_x + i * BX];
    }
}

void run(float* dst, const float* src, int w, int h) {
    assert(w % (STEPS * BX) == 0);
    assert(h % 4 == 0);
    dim3 blocks(w / (STEPS * BX), h / 4);
    dim3 threads(BX, 4);
    rows<<<blocks, threads>>>(dst, src, w, h, w);
}
"""


def test_blocks_that_take_several_block_widths_each_are_full_under_the_host_assert():
    """A grid of `w / (STEPS * BX)` blocks of BX threads, each taking STEPS tiles, with the
    divisibility asserted: every tile is full (the width is also passed as the pitch)."""
    assert findings(STEPPED_ROWS) == []
    unasserted = STEPPED_ROWS.replace("    assert(w % (STEPS * BX) == 0);\n", "")
    assert findings(unasserted) == [(14, "BC302")]


HALF_THE_THREADS_MOVE = """\
#define WIDTH 32
__global__ void pairs(int* dst, const int* src) {
    int t = threadIdx.x;
    if (t < WIDTH / 2) {
        dst[blockIdx.x * blockDim.x + t] = src[blockIdx.x * blockDim.x + t];
    }
}
"""


def test_a_thread_guard_on_a_compile_time_size_is_a_work_split_not_a_bound():
    """`t < WIDTH / 2` picks which threads of the block move data; it bounds no extent, so the
    accesses are plain unguarded tile accesses (BC101/BC102), not a block-local guard (BC105)."""
    assert findings(HALF_THE_THREADS_MOVE) == [(5, "BC101"), (5, "BC102")]
    runtime = HALF_THE_THREADS_MOVE.replace("const int* src)", "const int* src, int n)") \
        .replace("if (t < WIDTH / 2)", "if (t < n)")
    assert findings(runtime) == [(4, "BC105")]


PER_BLOCK_ROWS = """\
#define BINS 64
__global__ void partial_histograms(unsigned* partial, const unsigned* s_counts) {
    if (threadIdx.x < BINS) {
        partial[blockIdx.x * BINS + threadIdx.x] = s_counts[threadIdx.x];
    }
}
"""


def test_a_thread_guard_on_the_row_length_keeps_each_block_in_its_row():
    """`partial[blockIdx.x * BINS + t]` under `t < BINS`: one row of BINS slots per block (the
    grid is the row count), so the store is bounded; the same guard with another row length is a
    work split that bounds nothing."""
    assert findings(PER_BLOCK_ROWS) == []
    other_pitch = PER_BLOCK_ROWS.replace("blockIdx.x * BINS", "blockIdx.x * 2 * BINS")
    assert findings(other_pitch) == [(4, "BC102")]


SIZE_FROM_A_CALL = """\
struct Tensor { long numel() const; long size(int dim) const; };
__global__ void scale(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= 2.0f;
}

void run(const Tensor& v, float* y) {
    const int n = v.numel();
    constexpr int BLOCK = 256;
    dim3 grid((n + BLOCK - 1) / BLOCK);
    scale<<<grid, BLOCK>>>(y, n);
}
"""


def test_a_host_size_read_from_a_call_is_a_runtime_extent():
    """`n = v.numel()` or `n = v.size(0)` (a torch tensor's sizes) is known only at run time,
    though the call has no named argument: a grid of `n / BLOCK` blocks drops the tail (BC302)."""
    assert findings(SIZE_FROM_A_CALL) == []
    assert findings(SIZE_FROM_A_CALL.replace("(n + BLOCK - 1) / BLOCK", "n / BLOCK")) == [(10, "BC302")]
    sized = SIZE_FROM_A_CALL.replace("v.numel()", "v.size(0)")
    assert findings(sized.replace("(n + BLOCK - 1) / BLOCK", "n / BLOCK")) == [(10, "BC302")]


WARP_ROWS_CG = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void row_sums(float* out, const float* inp, int N, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= N) { return; }
    const float* x = inp + row * C;
    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        sum += x[i];
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    if (warp.thread_rank() == 0) { out[row] = sum; }
}
"""


def test_cooperative_group_ranks_are_thread_indices():
    """`warp.thread_rank()` / `warp.size()` drive the same lane-strided loop as `threadIdx.x % 32`
    / 32, so its bound is checked (`i <= C` is BC104), and `block.thread_rank()` is threadIdx.x."""
    assert findings(WARP_ROWS_CG) == []
    assert findings(WARP_ROWS_CG.replace("i < C;", "i <= C;")) == [(10, "BC104")]
    by_block = WARP_ROWS_CG.replace("i = warp.thread_rank(); i < C; i += warp.size()",
                                    "i = block.thread_rank(); i <= C; i += block.size()")
    assert findings(by_block) == [(10, "BC104")]


DECOMPOSED_INDEX = """\
__global__ void add_positions(float* out, const float* inp, const float* wpe, int B, int T, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T * C;
    if (idx < N) {
        int bt = idx / C;
        int b = bt / T;
        int t = bt % T;
        int c = idx % C;
        out[b * T * C + t * C + c] = inp[b * T * C + t * C + c] + wpe[t * C + c];
    }
}
"""


def test_a_decomposed_index_is_wrapped_only_where_every_part_is():
    """`t = i / C % T` and `c = i % C` stay in bounds, but `b = i / C / T` does not: dropping the
    guard leaves `inp[b * T * C + …]` unbounded (`wpe[t * C + c]` stays in bounds), and a guard
    on threadIdx.x bounds only the first block (BC105)."""
    assert findings(DECOMPOSED_INDEX) == []
    assert findings(DECOMPOSED_INDEX.replace("if (idx < N) {", "{")) == [(9, "BC101"), (9, "BC102")]
    assert findings(DECOMPOSED_INDEX.replace("if (idx < N)", "if (threadIdx.x < N)")) == [(4, "BC105")]


BLOCK_SOFTMAX = """\
#include <float.h>
template <const int W = 32>
__device__ float warp_max(float v) {
    for (int m = W >> 1; m >= 1; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m));
    return v;
}
template <const int W = 32>
__device__ float warp_sum(float v) {
    for (int m = W >> 1; m >= 1; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    return v;
}
template <const int THREADS = 256>
__device__ float block_max(float v) {
    __shared__ float part[THREADS / 32];
    v = warp_max<32>(v);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = (threadIdx.x % 32 < THREADS / 32) ? part[threadIdx.x % 32] : -FLT_MAX;
    return warp_max<THREADS / 32>(v);
}
template <const int THREADS = 256>
__device__ float block_sum(float v) {
    __shared__ float part[THREADS / 32];
    v = warp_sum<32>(v);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = (threadIdx.x % 32 < THREADS / 32) ? part[threadIdx.x % 32] : 0.0f;
    return warp_sum<THREADS / 32>(v);
}
template <const int THREADS = 256>
__global__ void softmax(const float* x, float* y, int N) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    float val = (idx < N) ? x[idx] : -FLT_MAX;
    float max_val = block_max<THREADS>(val);
    float e = (idx < N) ? expf(val - max_val) : 0.0f;
    float total = block_sum<THREADS>(e);
    if (idx < N) y[idx] = e / total;
}
"""


def test_padding_reaches_a_block_reduction_built_from_warp_helpers():
    """`block_max<THREADS>(val)` (a call the kernel template leaves unnamed) is a max through the
    warp helper it calls: 0 padding there is BC202. Its result is one value for the block, and
    `idx < N ? expf(val - m) : 0` pads the sum with 0 again: -FLT_MAX reaches no sum."""
    assert findings(BLOCK_SOFTMAX) == []
    assert findings(BLOCK_SOFTMAX.replace("x[idx] : -FLT_MAX", "x[idx] : 0.0f")) == [(33, "BC202")]


# vllm's paged cache copy: a byte buffer read as int4 vectors, two per step, under a limit that
# counts vectors (`copy_bytes / sizeof(int4)`), not bytes
VEC_BYTES = """\
__global__ void copy(const char* src_cache, char* dst, int entry_bytes, int tokens, long offset) {
    const int4* src = reinterpret_cast<const int4*>(src_cache + offset);
    int4* output = reinterpret_cast<int4*>(dst);
    const int num_vectors = tokens * entry_bytes / SIZE;
    int idx = threadIdx.x;
    for (; idx + blockDim.x < num_vectors; idx += 2 * blockDim.x) {
        const int4 first = src[idx];
        const int4 second = src[idx + blockDim.x];
        output[idx] = first;
        output[idx + blockDim.x] = second;
    }
}
"""


def test_a_limit_in_vectors_of_sizeof_the_vector_covers_every_byte() -> None:
    assert findings(VEC_BYTES.replace("SIZE", "sizeof(int4)")) == []


def test_a_limit_in_smaller_units_than_the_vector_is_still_reported() -> None:
    assert findings(VEC_BYTES.replace("SIZE", "sizeof(int2)")) == [(7, "BC106"), (8, "BC106")]
