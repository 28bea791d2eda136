"""CUDA guards on a block-local or shifted index: which rule an access gets when the only bound on a
dimension is a loop over a fixed-size span, a block-local comparison next to a vector-width
contract, a guard on the thread's first element only, or a loop counter reused by name."""

from __future__ import annotations

import textwrap

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
