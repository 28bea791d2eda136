"""CUDA guards on a block-local or shifted index: which rule an access gets when the only bound on a
dimension is a loop over a fixed-size span, a block-local comparison next to a vector-width
contract, a guard on the thread's first element only, or a loop counter reused by name; and the
benchmark's skip of a guard that every launch's floored grid keeps from binding."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_cuda
from bench.quality.mutate_cuda import FLOORED
from boundcheck.model import Language
from tests.checking import findings, line_of

VECTOR_BIAS = textwrap.dedent('''\
    #define VEC 8
    __global__ void bias_grad(float* dbias, const float* partial, int OC) {
        int oc = (blockIdx.x * blockDim.y + threadIdx.y) * VEC;
        for (int k = threadIdx.z; k < VEC; k += blockDim.z) {
            float a = partial[k];
            if (oc < OC) {
                dbias[oc + k] = a + dbias[oc + k];
            }
        }
    }
    ''')


def test_store_in_a_block_stride_loop_over_a_fixed_size_vector_is_guarded_by_the_extent_only() -> None:
    src = VECTOR_BIAS
    assert findings(src, Language.CUDA) == []


def test_dropped_extent_guard_in_a_fixed_size_loop_is_an_unguarded_store_not_a_partial_guard() -> None:
    # `k < VEC` walks the elements of one vector: no guard on any extent, so the store is
    # unguarded (BC102), not bounded along one dimension and not the other (BC103)
    src = VECTOR_BIAS.replace("        if (oc < OC) {\n", "        {\n")
    line = line_of(src, "dbias[oc + k] = ")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


PACKED_SUM = textwrap.dedent('''\
    __global__ void add_packs(float* dst, const float* src, unsigned n) {
        const unsigned idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
        assert(n % 4 == 0);
        if (idx < n) {
            for (int k = 0; k < 4; ++k) {
                dst[idx + k] = dst[idx + k] + src[idx + k];
            }
        }
    }
    ''')


def test_global_pack_guard_with_a_vector_width_contract_is_silent() -> None:
    assert findings(PACKED_SUM, Language.CUDA) == []


def test_vector_width_contract_does_not_excuse_a_block_local_guard() -> None:
    # n % 4 == 0 says n holds whole packs; `threadIdx.x < n` still lets every block past the first
    # run past n
    src = PACKED_SUM.replace("if (idx < n)", "if (threadIdx.x < n)")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x < n"), "BC105")]


TWO_PER_THREAD = textwrap.dedent('''\
    template <unsigned B>
    __global__ void sum2(const float* in, float* out, unsigned n) {
        __shared__ float s[B];
        unsigned i = blockIdx.x * B * 2 + threadIdx.x;
        float acc = 0.0f;
        while (i < n) {
            acc += in[i];
            if (i + B < n) {
                acc += in[i + B];
            }
            i += B * 2 * gridDim.x;
        }
        s[threadIdx.x] = acc;
        __syncthreads();
        if (threadIdx.x == 0) {
            float t = 0.0f;
            for (int i = 0; i < B; i++) {
                t += s[i];
            }
            out[blockIdx.x] = t;
        }
    }
    ''')


def test_second_element_guarded_in_a_while_loop_is_silent() -> None:
    assert findings(TWO_PER_THREAD, Language.CUDA) == []


def test_unguarded_second_element_in_a_while_loop_whose_counter_a_later_for_reuses() -> None:
    # the later `for (int i ...)` is another variable: it is no loop of the while loop's accesses
    src = TWO_PER_THREAD.replace("        if (i + B < n) {\n            acc += in[i + B];\n        }\n",
                                 "        acc += in[i + B];\n")
    assert findings(src, Language.CUDA) == [(line_of(src, "in[i + B]"), "BC101")]


UNROLLED = textwrap.dedent('''\
    #define UNROLL 4
    __global__ void scale_rows(float* out, const float* inp, float* sums, int C) {
        const float* x = inp + blockIdx.x * C;
        float* y = out + blockIdx.x * C;
        float sum = 0.0f;
        for (int i = threadIdx.x; i < C; i += blockDim.x * UNROLL) {
            for (int u = 0; u < UNROLL; u++) {
                if (i + u * blockDim.x < C) {
                    y[i + u * blockDim.x] = x[i + u * blockDim.x] * 2.0f;
                }
            }
        }
    }
    ''')


def test_unrolled_elements_each_guarded_are_silent() -> None:
    assert findings(UNROLLED, Language.CUDA) == []


def test_unrolled_elements_under_the_first_elements_loop_bound_only_are_unguarded() -> None:
    # `i < C` bounds the thread's first element; `i + u * blockDim.x` for u >= 1 runs past C
    src = UNROLLED.replace("            if (i + u * blockDim.x < C) {\n", "            {\n")
    line = line_of(src, "y[i + u * blockDim.x]")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


SPLIT_THREAD = textwrap.dedent('''\
    template <const unsigned BS>
    __global__ void gemm(int M, int N, int K, const float* A, const float* B, float* C) {
        const int row = blockIdx.x * BS + (threadIdx.x / BS);
        const int col = blockIdx.y * BS + (threadIdx.x % BS);
        if (row < M && col < N) {
            float acc = 0.0f;
            for (int i = 0; i < K; ++i) {
                acc += A[row * K + i] * B[i * N + col];
            }
            C[row * N + col] = acc;
        }
    }
    ''')


def test_rows_and_columns_split_from_one_thread_index_guarded_globally_are_silent() -> None:
    assert findings(SPLIT_THREAD, Language.CUDA) == []


def test_thread_index_guard_on_a_row_split_by_any_tile_is_a_block_local_guard() -> None:
    # `threadIdx.x < M` bounds the thread the row is split from (threadIdx.x / BS), not the row
    src = SPLIT_THREAD.replace("if (row < M", "if (threadIdx.x < M")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x < M"), "BC105")]


VECTOR_MATH = textwrap.dedent('''\
    #include <helper_math.h>
    __global__ void rows(unsigned* od, const float4* in, int w, int h, int r) {
        unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
        if (y < h) {
            float4 t = make_float4(0.0f);
            for (int x = 0; x < w; x++) {
                t += in[y * w + x] * 0.5f;
                od[y * w + x] = (unsigned)(t.x + t.y);
            }
        }
    }
    ''')


def test_kernel_using_the_samples_vector_arithmetic_is_understood() -> None:
    # helper_math.h is not on the include path: its float4 operators come from the stub
    assert findings(VECTOR_MATH, Language.CUDA) == []


def test_unguarded_store_in_a_kernel_using_the_samples_vector_arithmetic_is_reported() -> None:
    src = VECTOR_MATH.replace("    if (y < h) {\n", "    {\n")
    line = line_of(src, "od[y * w + x]")
    assert findings(src, Language.CUDA) == [(line_of(src, "t += in["), "BC101"), (line, "BC102")]


FLOORED_LAUNCH = textwrap.dedent('''\
    __global__ void rows_x(unsigned* od, int w, int h) {
        unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
        if (y < h) {
            for (int x = 0; x < w; x++) {
                od[y * w + x] = x;
            }
        }
    }

    void run(unsigned* d, int width, int height, int nthreads) {
        rows_x<<<GRID, nthreads, 0>>>(d, width, height);
    }
    ''')


def _guard_mutants(grid: str) -> tuple[list[str], int]:
    m = mutate_cuda.mutate("/tmp/floored.cu", FLOORED_LAUNCH.replace("GRID", grid))
    ops = sorted(x.operator for x in m.mutants if x.line == 3 and x.operator != "off-by-one")
    return ops, sum(n for (op, _, why), n in m.skipped.items() if why == FLOORED)


def test_guard_that_a_floored_launch_never_lets_bind_is_skipped() -> None:
    # height / nthreads blocks of nthreads threads: y < height for every launched thread, and
    # threadIdx.x < nthreads <= height wherever a block runs at all
    assert _guard_mutants("height / nthreads") == ([], 2)


def test_guard_under_a_ceiling_launch_is_still_mutated() -> None:
    assert _guard_mutants("(height + nthreads - 1) / nthreads") == (["drop-guard", "thread-index-guard"], 0)


def test_guard_under_a_floored_grid_of_another_extent_is_still_mutated() -> None:
    # the grid floors the width, but the guard bounds y by the height
    assert _guard_mutants("width / nthreads") == (["drop-guard", "thread-index-guard"], 0)



def test_guard_of_a_kernel_also_launched_on_a_ceiling_grid_is_still_mutated() -> None:
    src = FLOORED_LAUNCH.replace("GRID", "height / nthreads") + textwrap.dedent('''\
        void run_any(unsigned* d, int width, int height) {
            rows_x<<<(height + 63) / 64, 64>>>(d, width, height);
        }
        ''')
    m = mutate_cuda.mutate("/tmp/floored.cu", src)
    assert sorted(x.operator for x in m.mutants if x.line == 3 and x.operator != "off-by-one") == \
        ["drop-guard", "thread-index-guard"]

DEVICE_LIBRARY = textwrap.dedent('''\
    __device__ void load_diagonal(float* s_d, const float* g_d, unsigned n) {
        if (threadIdx.x < n) {
            s_d[threadIdx.x] = g_d[threadIdx.x];
        }
    }
    ''')


def test_device_function_of_a_file_without_kernels_guarded_is_silent() -> None:
    assert findings(DEVICE_LIBRARY, Language.CUDA) == []


def test_device_function_of_a_file_without_kernels_is_checked_as_a_kernel() -> None:
    # the kernels that call it live in another file: its own off-by-one is reported where written
    src = DEVICE_LIBRARY.replace("threadIdx.x < n", "threadIdx.x <= n")
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x <= n"), "BC104")]


OWN_MIN = textwrap.dedent('''\
    template <class T> __device__ inline T min(const T& a, const T& b) { return a < b ? a : b; }
    __global__ void chunks(const float* g_d, float* out, unsigned n) {
        __shared__ float s_d[256];
        unsigned rem = n;
        for (unsigned i = 0; i < n; i += blockDim.x) {
            if (i + threadIdx.x < n) {
                s_d[threadIdx.x] = g_d[i + threadIdx.x];
            }
            int e;
            float m = frexp(s_d[0], &e);
            out[blockIdx.x] = m + (float)min(rem, blockDim.x);
        }
    }
    ''')


def test_kernel_beside_a_file_template_min_and_frexp_is_understood() -> None:
    # the stub's min/max have plain overloads, as CUDA's headers do: `min(unsigned, unsigned)` picks
    # one over the file's own template instead of being ambiguous between two templates
    assert findings(OWN_MIN, Language.CUDA) == []


def test_off_by_one_beside_a_file_template_min_is_reported() -> None:
    src = OWN_MIN.replace("i + threadIdx.x < n", "i + threadIdx.x <= n")
    assert findings(src, Language.CUDA) == [(line_of(src, "i + threadIdx.x <= n"), "BC104")]


SHORT_CIRCUIT = """\
__global__ void flagged(const int* mask, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i < n && mask[i];
    bool positive = (i < n) && (mask[i] > 0);
    if (valid || positive) {
        if (i < n) y[i] = 1.0f;
    }
}
"""


def test_the_right_side_of_a_short_circuit_reads_under_its_left_side():
    # `i < n && mask[i]` in an initializer reads mask only where i < n, as in an `if` condition
    assert findings(SHORT_CIRCUIT, Language.CUDA) == []
    unguarded = SHORT_CIRCUIT.replace("i < n && mask[i]", "i > 0 && mask[i]")
    assert findings(unguarded, Language.CUDA) == [(line_of(unguarded, "const bool valid"), "BC101")]
    # `||` reads its right side where the left side failed: `i >= n || mask[i]` is guarded too
    either = SHORT_CIRCUIT.replace("i < n && mask[i]", "i >= n || mask[i]")
    assert findings(either, Language.CUDA) == []


KERNEL_LOOP = """\
#define CUDA_KERNEL_LOOP(i, n)                          \\
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;   \\
      i < (n);                                          \\
      i += blockDim.x * gridDim.x)

__global__ void copy_kernel(const int n, const float* x, float* y) {
  CUDA_KERNEL_LOOP(index, n)
  {
    y[index] = x[index];
  }
}
"""


def test_a_grid_stride_loop_written_by_a_macro_bounds_its_index():
    # the for header comes from the macro: its parts are told apart by kind, not by its semicolons
    assert findings(KERNEL_LOOP, Language.CUDA) == []
    unbounded = KERNEL_LOOP.replace("i < (n);", "i >= 0;")
    line = line_of(unbounded, "y[index] = x[index]")
    assert findings(unbounded, Language.CUDA) == [(line, "BC101"), (line, "BC102")]
    off_by_one = KERNEL_LOOP.replace("i < (n);", "i <= (n);")
    assert findings(off_by_one, Language.CUDA) == [(line_of(off_by_one, "CUDA_KERNEL_LOOP(index, n)"), "BC104")]


FAST_PATH = """\
__global__ void copy(const float* in, float* out, int n) {
    const int base = blockIdx.x * 128;
    if (base + 128 <= n) {
        out[base + threadIdx.x] = in[base + threadIdx.x];
    } else if (base + threadIdx.x < n) {
        out[base + threadIdx.x] = in[base + threadIdx.x];
    }
}
"""


def test_a_test_that_the_whole_tile_fits_guards_the_fast_path() -> None:
    assert findings(FAST_PATH, Language.CUDA) == []
    flag = FAST_PATH.replace("    if (base + 128 <= n) {", "    const bool full = base + 128 <= n;\n    if (full) {")
    assert findings(flag, Language.CUDA) == []


def test_a_test_of_the_first_lane_or_half_the_tile_does_not() -> None:
    for test in ("base < n", "base + 64 <= n"):
        bad = FAST_PATH.replace("base + 128 <= n", test)
        line = line_of(bad, "    out[base + threadIdx.x] = in[base + threadIdx.x];")
        assert findings(bad, Language.CUDA) == [(line, "BC101"), (line, "BC102")]
