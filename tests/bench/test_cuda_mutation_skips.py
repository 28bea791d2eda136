"""The thread-index-guard operator's counted skips, each beside a near variant that is still
mutated: a guard whose every protected use sits in loops ``for (v = i; v < n; ...)`` that already
bound it; a guarded name that is ``threadIdx`` itself; floating-point data is no bound at all. A
guard that never binds (a remainder by the extent, or an extent stated a multiple of the rows a block
takes) is still mutated: comparing ``threadIdx`` instead drops threads where the extent is smaller
than the block."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_cuda
from bench.quality.mutate_cuda import LOOP_IMPLIES, SAME_INDEX
from bench.quality.mutant import Mutations

KERNEL = textwrap.dedent('''\
    #include <cassert>
    template <int BR, int BC>
    __global__ void rows(const float* q, float* o, int seqlen) {
        static_assert(BR >= BC);
        int tile = blockIdx.x;
        int local = threadIdx.x / 2;
        int row = tile * BR + local;
        if (row >= seqlen) return;
        o[row * 2 + threadIdx.x % 2] = q[row * 2 + threadIdx.x % 2];
    }

    void launch(const float* q, float* o, int seqlen) {
        constexpr int BR = 64;
        constexpr int BC = 32;
        assert(seqlen % CHECK == 0);
        rows<BR, BC><<<(seqlen + BR - 1) / BR, 2 * BR>>>(q, o, seqlen);
    }
    ''')


def mutate(check: str, src: str = KERNEL) -> Mutations:
    return mutate_cuda.mutate("/tmp/skip.cu", src.replace("CHECK", check))


def guard_mutants(m: Mutations) -> list[int]:
    return [x.line for x in m.mutants if x.operator == "thread-index-guard"]


def test_guard_that_never_binds_is_still_mutated() -> None:
    """With the extent a multiple of the rows each block takes, ``row >= seqlen`` never binds, but
    ``threadIdx.x >= seqlen`` drops the threads past seqlen in blocks wider than it (seqlen = 64
    over 128 threads): a wrong result and an exit before the barrier, not an equivalent program."""
    m = mutate("BR")
    assert guard_mutants(m) == [8]


LOOPED = textwrap.dedent('''\
    __global__ void tri(float* out, const float* a, int T) {
        int t3 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t3 >= T) { return; }
        float s = 2.0f;
        for (int t = t3; t < T; t++) {
            out[t * T + t3] = s * a[t * T + t3];
        }
    }
    ''')


def test_guard_implied_by_the_loops_that_start_at_its_index_is_skipped() -> None:
    m = mutate_cuda.mutate("/tmp/loop.cu", LOOPED)
    assert (guard_mutants(m), m.skipped[("thread-index-guard", "BC105", LOOP_IMPLIES)]) == ([], 1)


def test_guard_with_an_access_outside_such_a_loop_is_still_mutated() -> None:
    src = LOOPED.replace("float s = 2.0f;", "float s = a[t3];")
    assert guard_mutants(mutate_cuda.mutate("/tmp/loop.cu", src)) == [3]
    src = LOOPED.replace("int t = t3; t < T", "int t = t3; t < 2 * T")  # the loop bounds t by another limit
    assert guard_mutants(mutate_cuda.mutate("/tmp/loop.cu", src)) == [3]


SAME = textwrap.dedent('''\
    __global__ void rowcopy(float* out, const float* inp, int n) {
        int tid = threadIdx.x;
        if (tid >= n) return;
        const float* x = inp + blockIdx.x * n;
        out[blockIdx.x * n + tid] = x[tid];
    }
    ''')


def test_guard_on_a_name_that_is_threadidx_itself_is_skipped() -> None:
    # `x` names a row pointer set from blockIdx, so a naive read of `threadIdx.x` would take `tid` for a global index
    m = mutate_cuda.mutate("/tmp/same.cu", SAME)
    assert (guard_mutants(m), m.skipped[("thread-index-guard", "BC105", SAME_INDEX)]) == ([], 1)
    m = mutate_cuda.mutate("/tmp/same.cu", SAME.replace("int tid = threadIdx.x;", "int tid = blockIdx.x * 32 + threadIdx.x;"))
    assert guard_mutants(m) == [3]


SCORES = textwrap.dedent('''\
    __global__ void mark(int* keep, const float* score, float threshold, int n) {
        int idx = blockIdx.x * blockDim.x + threadIdx.x;
        if (idx >= n) return;
        float s = score[idx] * 2.0f;
        if (s > threshold) {
            keep[idx] = 0;
        }
    }
    ''')


def test_comparison_of_floating_point_data_is_no_guard_to_mutate() -> None:
    """``s > threshold`` compares data, not an index with an extent: no operator takes it as a
    bound (dropping it, moving it by one or comparing a thread index there is no boundary bug)."""
    m = mutate_cuda.mutate("/tmp/float.cu", SCORES)
    assert guard_mutants(m) == [3]
    assert sorted({x.line for x in m.mutants}) == [3]
    assert not m.skipped


TRANSPOSE = textwrap.dedent('''\
    __global__ void transpose(const float* x, float* y, int rows, int cols) {
        int g = blockIdx.x * blockDim.x + threadIdx.x;
        int r = g % rows;
        int c = g / rows;
        if (r < rows && c < cols) {
            y[r * cols + c] = x[c * rows + r];
        }
    }
    ''')


def test_remainder_by_the_extent_is_still_mutated() -> None:
    """``r = g % rows`` never reaches ``rows``, but ``threadIdx.x < rows`` drops threads past it."""
    m = mutate_cuda.mutate("/tmp/tr.cu", TRANSPOSE)
    assert [x.description for x in m.mutants if x.operator == "thread-index-guard"] == \
        ["guard on `r` now compares `threadIdx.x`"]


def test_off_by_one_whose_accesses_sit_in_loops_from_the_index_is_skipped() -> None:
    """``t3 > T`` lets t3 == T through, where ``for (t = t3; t < T; ...)`` runs no iteration."""
    m = mutate_cuda.mutate("/tmp/loop.cu", LOOPED)
    assert [x.line for x in m.mutants if x.operator == "off-by-one" and x.line == 3] == []
    assert m.skipped[("off-by-one", "BC104", LOOP_IMPLIES)] == 1


def test_off_by_one_with_an_access_outside_the_loop_is_mutated() -> None:
    m = mutate_cuda.mutate("/tmp/loop.cu", LOOPED.replace("float s = 2.0f;", "float s = a[t3];"))
    assert [x.line for x in m.mutants if x.operator == "off-by-one" and x.line == 3] == [3]


HELPER = textwrap.dedent('''\
    __device__ void pairs(float* dst, const float* src, unsigned len) {
        if (threadIdx.x < len) {
            dst[threadIdx.x] = 2.f * src[threadIdx.x];
        }
    }

    __global__ void scale(float* out, const float* in, unsigned n) {
        __shared__ float s[256];
        unsigned i = blockIdx.x * 256 + threadIdx.x;
        if (i < n) s[threadIdx.x] = in[i];
        __syncthreads();
        pairs(ARGS, n - blockIdx.x * 256);
        __syncthreads();
        if (i < n) out[i] = s[threadIdx.x];
    }
    ''')


def test_guard_in_a_helper_called_on_shared_arrays_is_no_global_guard() -> None:
    """Every call passes ``pairs`` shared arrays: its guard protects no global memory."""
    m = mutate_cuda.mutate("/tmp/helper.cu", HELPER.replace("ARGS", "s, s"))
    assert [x.line for x in m.mutants if x.operator == "drop-guard"] == [10, 14]


def test_guard_in_a_helper_called_on_global_memory_is_mutated() -> None:
    m = mutate_cuda.mutate("/tmp/helper.cu", HELPER.replace("ARGS", "out + blockIdx.x * 256, s"))
    assert [x.line for x in m.mutants if x.operator == "drop-guard"] == [2, 10, 14]


def test_a_multiple_checked_through_a_one_parameter_macro_is_an_exact_division() -> None:
    from bench.quality.divisible import stated_multiple

    src = """#define WARP_SIZE 32
#define ASSERT_K_IS_MULTIBLE_OF(V) \\\\
  if (K % (V) != 0) {                 \\\\
    throw std::runtime_error("K must be multiple of " #V); \\\\
  }
void launch(int K) {
  ASSERT_K_IS_MULTIBLE_OF(32)
}
"""
    assert stated_multiple(src, "K", "WARP_SIZE") is not None
    assert stated_multiple(src, "K", "64") is None
    assert stated_multiple(src.replace("ASSERT_K_IS_MULTIBLE_OF(32)\n", ""), "K", "WARP_SIZE") is None
