"""The thread-index-guard operator's counted skips, each beside a near variant that is still
mutated: a guard that never binds (the code states the extent is a multiple of the tile each block
steps by, and the grid divides the extent by it); a guard whose every protected use sits in loops
``for (v = i; v < n; ...)`` that already bound it; an index that is a remainder by the extent it is
compared with; a guarded name that is ``threadIdx`` itself; floating-point data, which is no index."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_cuda
from bench.quality.mutate_cuda import LOOP_IMPLIES, NEVER_BINDS, REMAINDER, SAME_INDEX
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


def skipped(m: Mutations) -> int:
    return m.skipped[("thread-index-guard", "BC105", NEVER_BINDS)]


def test_guard_made_redundant_by_a_host_multiple_is_skipped() -> None:
    m = mutate("BR")
    assert (guard_mutants(m), skipped(m)) == ([], 1)


def test_multiple_of_the_larger_of_two_tiles_is_read_with_the_static_assert() -> None:
    m = mutate("max(BR, BC)")
    assert (guard_mutants(m), skipped(m)) == ([], 1)


def test_guard_that_can_bind_is_still_mutated() -> None:
    # only the other tile is asserted: seqlen = 96 leaves a partial block of rows
    m = mutate("BC")
    assert (guard_mutants(m), skipped(m)) == ([8], 0)
    # max(BR, BC) without a statement of which is larger says nothing of BR
    m = mutate("max(BR, BC)", KERNEL.replace("static_assert(BR >= BC);", ""))
    assert (guard_mutants(m), skipped(m)) == ([8], 0)


def test_grid_by_another_extent_or_a_reassigned_index_is_still_mutated() -> None:
    m = mutate("BR", KERNEL.replace("(seqlen + BR - 1) / BR", "4096 / BR"))
    assert (guard_mutants(m), skipped(m)) == ([8], 0)
    m = mutate("BR", KERNEL.replace("int row = tile * BR + local;", "int row = tile * BR + local;\n    row += 1;"))
    assert (guard_mutants(m), skipped(m)) == ([9], 0)  # the guard moved down a line


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
    m = mutate_cuda.mutate("/tmp/float.cu", SCORES)
    reason = ("thread-index-guard", "BC105", "not a bound: the compared value is floating-point data")
    assert (guard_mutants(m), m.skipped[reason]) == ([3], 1)


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


def test_remainder_by_the_extent_is_no_guard_and_the_next_conjunct_is_mutated() -> None:
    m = mutate_cuda.mutate("/tmp/tr.cu", TRANSPOSE)
    assert m.skipped[("thread-index-guard", "BC105", REMAINDER)] == 1
    assert [x.description for x in m.mutants if x.operator == "thread-index-guard"] == \
        ["guard on `c` now compares `threadIdx.x`"]
    # a remainder by another size can pass the extent: still mutated
    m = mutate_cuda.mutate("/tmp/tr.cu", TRANSPOSE.replace("int r = g % rows;", "int r = g % (2 * rows);"))
    assert [x.description for x in m.mutants if x.operator == "thread-index-guard"] == \
        ["guard on `r` now compares `threadIdx.x`"]
