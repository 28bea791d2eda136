"""The drop-guard operator's intended rule follows the accesses the dropped guard bounds: a store
is its target only when the store's index moves with the index the guard compares."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_cuda
from bench.quality.mutant import Mutant

CUDA = textwrap.dedent('''\
    __global__ void scatter(const int *dst, const float *x, float *out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            out[dst[i]] = x[i];
        }
    }

    __global__ void copy(const float *x, float *out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            out[i] = x[i];
        }
    }

    __global__ void fold(const float *x, float *out, int n, int C) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            int c = i % C;
            out[c] = x[i];
        }
    }

    __global__ void rows(const float *x, float *out, int n, int C) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            int r = i / C;
            int c = i % C;
            out[r * C + c] = x[i];
        }
    }

    __global__ void remap(const float *a, float *c, int M) {
        int tid = threadIdx.y * blockDim.x + threadIdx.x;
        int load_m = blockIdx.y * 64 + tid / 2;
        if (load_m >= M) return;
        float v = a[load_m];
        for (int m = 0; m < 4; ++m) {
            int store_m = blockIdx.y * 64 + threadIdx.y * 4 + m;
            c[store_m] = v;
        }
    }

    __global__ void same_rows(const float *a, float *c, int M) {
        int load_m = blockIdx.y * 64 + threadIdx.y;
        if (load_m >= M) return;
        float v = a[load_m];
        c[load_m] = v;
    }

    __global__ void rows_base(const float *x, float *out, int n, int C) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            int r = i / C;
            float *row = out + r * C;
            row[i % C] = x[i];
        }
    }

    __global__ void vec_rows(const float *x, float *y, int rows, int cols) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        int c = (i * 4) / rows;
        int r = (i * 4) % rows;
        if (r < rows && c < cols) {
            float v = x[r * cols + c];
            y[i] = v;
        }
    }
''')
MUTS = mutate_cuda.mutate("/tmp/guards.cu", CUDA)


def dropped(line: int) -> Mutant:
    found = [m for m in MUTS.mutants if m.operator == "drop-guard" and m.line == line]
    assert len(found) == 1, [(m.operator, m.line) for m in MUTS.mutants]
    return found[0]


def test_store_at_a_loaded_index_leaves_the_reads_as_the_target() -> None:
    assert (dropped(3).rule, dropped(3).targets) == ("BC101", ((4, 4),))


def test_store_at_the_guarded_index_is_the_target() -> None:
    assert (dropped(10).rule, dropped(10).targets) == ("BC102", ((11, 11),))


def test_store_wrapped_by_a_remainder_stays_in_bounds() -> None:
    assert (dropped(17).rule, dropped(17).targets) == ("BC101", ((19, 19),))


def test_store_whose_row_is_the_quotient_still_moves_with_the_index() -> None:
    assert (dropped(25).rule, dropped(25).targets) == ("BC102", ((28, 28),))


def test_store_indexed_by_another_thread_mapping_is_not_the_guards() -> None:
    assert (dropped(35).rule, dropped(35).targets) == ("BC101", ((36, 36),))


def test_store_at_the_exit_guarded_index_is_the_target() -> None:
    assert (dropped(45).rule, dropped(45).targets) == ("BC102", ((47, 47),))


def test_store_through_a_pointer_offset_by_the_index_is_the_target() -> None:
    assert (dropped(52).rule, dropped(52).targets) == ("BC102", ((55, 55),))



def test_store_at_the_index_the_guarded_names_are_built_from_is_the_target() -> None:
    assert (dropped(63).rule, dropped(63).targets) == ("BC102", ((65, 65),))


LOOPS = textwrap.dedent('''\
    __global__ void tri(const float *a, float *out, int T) {
        int t3 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t3 >= T) { return; }
        float s = 0.0f;
        for (int t = t3; t < T; t++) {
            out[t * T + t3] = a[t * T + t3] * s;
        }
    }

    __global__ void tri_tail(const float *a, float *out, int T) {
        int t3 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t3 >= T) { return; }
        out[t3] = 0.0f;
        for (int t = t3; t < T; t++) {
            out[t * T + t3] = a[t * T + t3];
        }
    }

    __global__ void tri_if(const float *a, float *out, int T) {
        int t3 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t3 < T) {
            for (int t = t3; t < T; t += 2) {
                out[t * T + t3] = a[t * T + t3];
            }
        }
    }

    __global__ void tri_other_limit(const float *a, float *out, int T, int n) {
        int t3 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t3 < n) {
            for (int t = t3; t < T; t++) {
                out[t * T + t3] = a[t * T + t3];
            }
        }
    }

    __global__ void tri_moved(const float *a, float *out, int T) {
        int t3 = blockIdx.x * blockDim.x + threadIdx.x;
        if (t3 >= T) { return; }
        ++t3;
        for (int t = t3; t < T; t++) {
            out[t * T + t3] = a[t * T + t3];
        }
    }
''')


def test_guard_implied_by_loops_from_the_index_to_the_limit_is_skipped() -> None:
    muts = mutate_cuda.mutate("/tmp/loops.cu", LOOPS)
    assert muts.skipped[("drop-guard", "BC102", mutate_cuda.LOOP_IMPLIES)] == 2  # tri, tri_if
    lines = sorted(m.line for m in muts.mutants if m.operator == "drop-guard")
    # bugs: a store before the loop; a loop bounded by another limit. Not followed: the index moved
    assert lines == [12, 30, 39]
