"""Each mutation operator on a small kernel: the exact change, a valid mutant, and no mutant (or a
counted skip) where the operator does not apply."""

from __future__ import annotations

import difflib
import textwrap

import libcst as cst

from bench.quality import mutate_cuda, mutate_triton
from bench.quality.mutant import Mutant, Mutations

TRITON = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        tl.store(y_ptr + row * n_cols + cols, num / tl.sum(num, axis=0), mask=mask)


    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr):
        offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            kk = k * BLOCK_K + offs_k
            a = tl.load(a_ptr + offs_m[:, None] * K + kk[None, :],
                        mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + kk[:, None] * N + offs_n[None, :], mask=kk[:, None] < K, other=0.0)
            acc += tl.dot(a, b)
        c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=c_mask)


    @triton.jit
    def copy_kernel(src, dst, M, N, BLOCK: tl.constexpr):
        s = tl.make_block_ptr(src, (M, N), (N, 1), (tl.program_id(0) * BLOCK, 0), (BLOCK, BLOCK), (1, 0))
        d = tl.make_block_ptr(dst, (M, N), (N, 1), (tl.program_id(0) * BLOCK, 0), (BLOCK, BLOCK), (1, 0))
        tl.store(d, tl.load(s, boundary_check=(0, 1), padding_option="zero"), boundary_check=(0, 1))


    def matmul(a, b, c, M, N, K):
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        matmul_kernel[grid](a, b, c, M, N, K, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)


    def not_a_kernel(x, n):
        return tl.load(x, mask=n < 3)
    ''')


def changes(source: str, m: Mutant) -> tuple[list[str], list[str]]:
    """(removed lines, added lines), stripped."""
    diff = list(difflib.unified_diff(source.splitlines(), m.source.splitlines(), lineterm="", n=0))
    removed = [d[1:].strip() for d in diff if d.startswith("-") and not d.startswith("---")]
    added = [d[1:].strip() for d in diff if d.startswith("+") and not d.startswith("+++")]
    return removed, added


def only(muts: Mutations, operator: str, line: int) -> Mutant:
    found = [m for m in muts.mutants if m.operator == operator and m.line == line]
    assert len(found) == 1, [(m.operator, m.line) for m in muts.mutants]
    return found[0]


def added(source: str, muts: Mutations, operator: str, line: int) -> list[str]:
    return changes(source, only(muts, operator, line))[1]


# -- Triton --------------------------------------------------------------------------------------

T = mutate_triton.mutate("k.py", TRITON)


def test_triton_mutants_parse_and_change_one_statement() -> None:
    assert T.mutants
    for m in T.mutants:
        cst.parse_module(m.source)
        removed, _ = changes(TRITON, m)
        assert removed and m.source != TRITON
        assert m.targets and all(lo <= hi for lo, hi in m.targets)


def test_triton_drop_mask_of_a_load_drops_other_too() -> None:
    m = only(T, "drop-mask", 10)
    assert m.rule == "BC101"
    assert changes(TRITON, m)[1] == ['x = tl.load(x_ptr + row * n_cols + cols)']
    assert m.targets == ((10, 10),)


def test_triton_drop_mask_of_a_store() -> None:
    m = only(T, "drop-mask", 13)
    assert m.rule == "BC102"
    assert changes(TRITON, m)[1] == ['tl.store(y_ptr + row * n_cols + cols, num / tl.sum(num, axis=0))']


def test_triton_drop_one_dimension_of_a_named_2d_mask_targets_its_users() -> None:
    m = only(T, "drop-mask-dim", 29)
    assert m.rule == "BC103"
    assert changes(TRITON, m)[1] == ['c_mask = (offs_m[:, None] < M)']
    assert m.targets == ((30, 30),)


def test_triton_drop_k_term_and_row_term_of_a_k_loop_mask() -> None:
    assert added(TRITON, T, "drop-k-term", 26) == ['mask=(offs_m[:, None] < M), other=0.0)']
    assert added(TRITON, T, "drop-mask-dim", 26) == ['mask=(kk[None, :] < K), other=0.0)']


def test_triton_k_term_not_dropped_when_it_is_the_whole_mask() -> None:
    assert not [m for m in T.mutants if m.operator.startswith("drop-") and m.rule == "BC103" and m.line == 27]


def test_triton_off_by_one_on_a_named_mask() -> None:
    m = only(T, "off-by-one", 9)
    assert m.rule == "BC104"
    assert changes(TRITON, m)[1] == ["mask = cols <= n_cols"]


def test_triton_off_by_one_inline_keeps_parentheses_single() -> None:
    assert added(TRITON, T, "off-by-one", 26) == ['mask=(offs_m[:, None] <= M) & (kk[None, :] < K), other=0.0)']


def test_triton_neg_inf_padding_becomes_zero_before_max() -> None:
    m = only(T, "padding-neginf-to-zero", 10)
    assert m.rule == "BC202"
    assert changes(TRITON, m)[1] == ['x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)']


def test_triton_zero_padding_becomes_neg_inf_before_dot() -> None:
    assert added(TRITON, T, "padding-zero-to-neginf", 27) == [
        'b = tl.load(b_ptr + kk[:, None] * N + offs_n[None, :], mask=kk[:, None] < K, other=float("-inf"))']


def test_triton_drop_other_only_where_a_max_consumes_it() -> None:
    m = only(T, "drop-other", 10)
    assert m.rule == "BC201"
    assert changes(TRITON, m)[1] == ['x = tl.load(x_ptr + row * n_cols + cols, mask=mask)']
    assert [m.line for m in T.mutants if m.operator == "drop-other"] == [10]  # dot consumers: none


def test_triton_cdiv_becomes_floor_in_the_trip_count_and_the_grid() -> None:
    m = only(T, "floor-trip", 23)
    assert (m.rule, changes(TRITON, m)[1]) == ("BC301", ["for k in range(0, K // BLOCK_K):"])
    grid = [m for m in T.mutants if m.operator == "floor-grid"]
    assert [changes(TRITON, m)[1] for m in grid] == [["grid = (M // 32, triton.cdiv(N, 32))"],
                                                    ["grid = (triton.cdiv(M, 32), N // 32)"]]
    assert all(m.rule == "BC302" and (42, 42) in m.targets for m in grid)


def test_triton_padding_mutants_need_padding_that_reaches_a_reduction() -> None:
    src = textwrap.dedent('''\
        import triton.language as tl
        from triton import jit


        @jit
        def k(x_ptr, q_ptr, k_ptr, o_ptr, N, M, mean, BLOCK: tl.constexpr, D: tl.constexpr):
            cols = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + cols, mask=cols < N, other=0.0)
            x = tl.where(cols < N, x - mean, 0.0)
            acc = tl.sum(x * x, axis=0)
            rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            d = tl.arange(0, D)
            q = tl.load(q_ptr + rows[:, None] * D + d[None, :], mask=rows[:, None] < M, other=0.0)
            kt = tl.load(k_ptr + d[:, None] + cols[None, :] * D, mask=cols[None, :] < N, other=0.0)
            s = tl.dot(q, kt)
            v = tl.load(x_ptr + cols, mask=cols < N, other=0.0)
            total = tl.zeros([BLOCK], dtype=tl.float32)
            total += v
            tl.store(o_ptr + rows[:, None] * BLOCK + cols[None, :], s + acc + tl.sum(total, axis=0))
        ''')
    muts = mutate_triton.mutate("r.py", src)
    # x is re-padded by tl.where; q and kt are padded only on axes the dot keeps apart;
    # v reaches the sum through `+=`.
    assert [m.line for m in muts.mutants if m.operator == "padding-zero-to-neginf"] == [16]


def test_triton_no_padding_mutant_without_a_reduction() -> None:
    src = textwrap.dedent('''\
        import triton.language as tl
        from triton import jit


        @jit
        def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n, other=-float("inf"))
            tl.store(y_ptr + offs, tl.exp(x), mask=offs < n)
        ''')
    ops = {m.operator for m in mutate_triton.mutate("e.py", src).mutants}
    assert ops == {"drop-mask", "off-by-one"}


def test_triton_drop_boundary_check_of_block_pointer_load_and_store() -> None:
    rules = sorted(m.rule for m in T.mutants if m.operator == "drop-boundary-check")
    assert rules == ["BC101", "BC102"]
    load = next(m for m in T.mutants if m.operator == "drop-boundary-check" and m.rule == "BC101")
    assert changes(TRITON, load)[1] == ["tl.store(d, tl.load(s), boundary_check=(0, 1))"]


def test_triton_ignores_code_outside_jit_functions() -> None:
    assert not [m for m in T.mutants if m.line >= 45]


def test_triton_positional_mask_is_skipped_and_counted() -> None:
    src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, n):\n" \
          "    o = tl.arange(0, 16)\n    tl.load(x + o, o < n)\n"
    muts = mutate_triton.mutate("p.py", src)
    assert muts.mutants == []
    assert muts.skipped[("drop-mask", "BC101", "mask passed positionally")] == 1


def test_triton_floor_division_with_compound_operands_is_parenthesised() -> None:
    src = ("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, K, S, B: tl.constexpr):\n"
           "    for i in range(2 * tl.cdiv(K, B * S)):\n        tl.store(x + i * B + tl.arange(0, B), 0.0)\n")
    muts = mutate_triton.mutate("p.py", src)
    floors = [changes(src, m)[1] for m in muts.mutants if m.operator == "floor-trip"]
    assert floors == [["for i in range(2 * (K // (B * S))):"]]


def test_triton_unparseable_file_yields_nothing() -> None:
    assert mutate_triton.mutate("bad.py", "def (:\n").mutants == []


# -- CUDA ----------------------------------------------------------------------------------------

CUDA = textwrap.dedent('''\
    #include <cuda_runtime.h>
    #define TILE 16

    __global__ void add(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = x[i] + 1.0f;
    }

    __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
        __shared__ float As[TILE][TILE];
        __shared__ float Bs[TILE][TILE];
        int row = blockIdx.y * TILE + threadIdx.y;
        int col = blockIdx.x * TILE + threadIdx.x;
        float sum = 0.0f;
        for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
            if (row < M && t * TILE + threadIdx.x < K)
                As[threadIdx.y][threadIdx.x] = A[row * K + t * TILE + threadIdx.x];
            else
                As[threadIdx.y][threadIdx.x] = 0.0f;
            Bs[threadIdx.y][threadIdx.x] = (col < N) ? B[(t * TILE + threadIdx.y) * N + col] : 0.0f;
            __syncthreads();
            for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
            __syncthreads();
        }
        if (row < M && col < N) {
            C[row * N + col] = sum;
        }
    }

    __global__ void rowmax(const float* x, float* out, int n) {
        __shared__ float s[256];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        s[threadIdx.x] = i < n ? x[i] : -INFINITY;
        __syncthreads();
        for (int st = 128; st > 0; st >>= 1) {
            if (threadIdx.x < st) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + st]);
            __syncthreads();
        }
        if (threadIdx.x == 0) out[blockIdx.x] = s[0];
    }

    __global__ void scale4(float* x, int n) {
        int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
        if (i + 3 < n) {
            float4 v = reinterpret_cast<float4*>(x + i)[0];
            reinterpret_cast<float4*>(x + i)[0] = v;
        }
    }

    __global__ void blocksum(const float* x, float* out, int n) {
        __shared__ float s[256];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        s[threadIdx.x] = 0.0f;
        if (i < n) {
            s[threadIdx.x] = x[i];
        }
        __syncthreads();
        if (threadIdx.x == 0) out[blockIdx.x] = s[0];
    }

    __global__ void scaled(const float* x, float* y, int n) {
        __shared__ float s[256];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        s[threadIdx.x] = 1.0f;
        __syncthreads();
        if (i >= n) return;
        y[i] = x[i] * s[threadIdx.x];
    }

    void launch(const float* A, const float* B, float* C, int M, int N, int K) {
        dim3 block(TILE, TILE);
        dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
        matmul<<<grid, block>>>(A, B, C, M, N, K);
        add<<<(N + 255) / 256, 256>>>(A, C, N);
    }
    ''')

C = mutate_cuda.mutate("/tmp/k.cu", CUDA)


def test_cuda_mutants_parse_cleanly() -> None:
    assert C.mutants and not C.skipped
    for m in C.mutants:
        assert mutate_cuda.parse(m.path, m.source, []).diagnostics == []


def test_cuda_off_by_one_in_guard_and_early_exit() -> None:
    assert added(CUDA, C, "off-by-one", 6) == ["if (i <= n) y[i] = x[i] + 1.0f;"]
    assert added(CUDA, C, "off-by-one", 66) == ["if (i > n) return;"]
    assert only(C, "off-by-one", 6).targets == ((6, 6),)


def test_cuda_off_by_one_ignores_non_extent_limits() -> None:
    assert not [m for m in C.mutants if m.line == 36]  # `threadIdx.x < st`: a stride, not an extent


def test_cuda_thread_index_guard_uses_the_matching_component() -> None:
    assert added(CUDA, C, "thread-index-guard", 6) == ["if (threadIdx.x < n) y[i] = x[i] + 1.0f;"]
    assert added(CUDA, C, "thread-index-guard", 25) == ["if (threadIdx.y < M && col < N) {"]
    assert only(C, "thread-index-guard", 25).rule == "BC105"


def test_cuda_drop_guard_store_load_and_early_exit() -> None:
    store = only(C, "drop-guard", 25)
    assert (store.rule, changes(CUDA, store)[1], store.targets) == ("BC102", ["{"], ((26, 26),))
    load = only(C, "drop-guard", 54)
    assert load.rule == "BC101" and load.targets == ((55, 55),)
    exit_ = only(C, "drop-guard", 66)
    assert (exit_.rule, changes(CUDA, exit_)[1]) == ("BC102", [";"])


def test_cuda_drop_zero_fill_else_and_ternary() -> None:
    els = only(C, "drop-zero-fill", 18)
    assert els.rule == "BC201" and els.targets == ((17, 17),)
    assert changes(CUDA, els)[0] == ["else", "As[threadIdx.y][threadIdx.x] = 0.0f;"]
    assert added(CUDA, C, "drop-zero-fill", 20) == [
        "if ((col < N)) Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];"]


def test_cuda_ceil_to_floor_in_trip_count_and_grid() -> None:
    assert added(CUDA, C, "floor-trip", 15) == ["for (int t = 0; t < K / TILE; ++t) {"]
    grids = [changes(CUDA, m)[1] for m in C.mutants if m.operator == "floor-grid"]
    assert all((73, 73) in m.targets for m in C.mutants if m.operator == "floor-grid" and m.line == 72)
    assert grids == [["dim3 grid(N / TILE, (M + TILE - 1) / TILE);"],
                     ["dim3 grid((N + TILE - 1) / TILE, M / TILE);"],
                     ["add<<<N / 256, 256>>>(A, C, N);"]]
    assert only(C, "floor-grid", 74).targets == ((74, 74),)


def test_cuda_vector_guard_widened_to_first_lane() -> None:
    m = only(C, "vector-tail", 44)
    assert (m.rule, changes(CUDA, m)[1], m.targets) == ("BC106", ["if (i < n) {"], ((44, 47),))


def test_cuda_off_by_one_in_a_last_lane_vector_guard_is_an_off_by_one() -> None:
    m = only(C, "off-by-one", 44)
    assert (m.rule, changes(CUDA, m)[1], m.targets) == ("BC104", ["if (i + 3 <= n) {"], ((44, 44),))


def test_cuda_exit_before_barrier_both_forms() -> None:
    block = only(C, "exit-before-barrier", 54)
    assert changes(CUDA, block)[1] == ["if (!(i < n)) return;", "{"]
    moved = only(C, "exit-before-barrier", 65)
    assert moved.source.split("\n")[64:66] == ["    if (i >= n) return;", "    __syncthreads();"]
    assert moved.targets == ((65, 65),)


def test_cuda_neg_inf_padding_becomes_zero_before_max() -> None:
    m = only(C, "padding-neginf-to-zero", 33)
    assert changes(CUDA, m)[1] == ["s[threadIdx.x] = i < n ? x[i] : 0.0f;"]


def test_cuda_neg_inf_padding_in_an_else_branch() -> None:
    src = textwrap.dedent('''\
        __global__ void m(const float* x, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v;
            if (i < n) v = x[i];
            else v = -INFINITY;
            out[blockIdx.x] = fmaxf(v, 0.0f);
        }
        ''')
    m = only(mutate_cuda.mutate("/tmp/e.cu", src), "padding-neginf-to-zero", 5)
    assert (m.rule, changes(src, m)[1], m.targets) == ("BC202", ["else v = 0.0f;"], ((4, 4),))


def test_cuda_no_mutants_in_a_kernel_without_guards() -> None:
    src = "__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }\n"
    muts = mutate_cuda.mutate("/tmp/n.cu", src)
    assert muts.mutants == [] and not muts.skipped


ATTENTION = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def attn(q_ptr, k_ptr, v_ptr, b_ptr, o_ptr, M, N, scale, BM: tl.constexpr, BN: tl.constexpr,
             D: tl.constexpr):
        offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
        offs_n = tl.arange(0, BN)
        offs_d = tl.arange(0, D)
        q = tl.load(q_ptr + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < M, other=0.0)
        m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
        l_i = tl.zeros([BM], dtype=tl.float32)
        acc = tl.zeros([BM, D], dtype=tl.float32)
        for start in range(0, N, BN):
            cols = start + offs_n
            k = tl.load(k_ptr + cols[None, :] * D + offs_d[:, None], mask=cols[None, :] < N, other=0.0)
            qk = tl.dot(q, k) * scale
            bias = tl.load(b_ptr + offs_m[:, None] * N + cols[None, :],
                           mask=(offs_m[:, None] < M) & (cols[None, :] < N), other=0.0)
            qk = qk + bias
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.exp(qk - m_ij[:, None])
            l_i = l_i + tl.sum(p, 1)
            v = tl.load(v_ptr + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < N, other=0.0)
            acc += tl.dot(p, v)
            m_i = m_ij
        tl.store(o_ptr + offs_m[:, None] * D + offs_d[None, :], acc / l_i[:, None], mask=offs_m[:, None] < M)
    ''')


def test_neg_inf_bias_padding_that_only_reaches_max_and_exp_then_sum_is_no_mutant() -> None:
    muts = mutate_triton.mutate("a.py", ATTENTION)
    lines = [m.line for m in muts.mutants if m.operator == "padding-zero-to-neginf"]
    # the bias (line 19): -inf + qk reaches the max (its identity) and exp(-inf) = 0 the sum and
    # the dot (theirs): no bug. v (line 25) is padded along the dot's reduced axis: -inf there is.
    # k (line 17) is padded along N, which the first dot keeps: a -inf column times q has no known sign.
    assert lines == [25]
    assert muts.skipped[("padding-zero-to-neginf", "BC202", "not a bug: the new padding is the identity of"
                         " every reduction it reaches along a padded axis (or the original was no identity"
                         " there either)")] >= 1


def test_row_padded_q_into_dot_then_max_along_columns_is_no_padding_mutant() -> None:
    muts = mutate_triton.mutate("a.py", ATTENTION)
    # q is padded along M only; the dot reduces D and the max reduces N: padded rows stay rows
    assert not [m for m in muts.mutants if m.line == 11 and m.operator.startswith("padding")]
    assert not [m for m in muts.mutants if m.operator == "drop-other"]  # every other= is already 0


def test_zero_padding_before_max_makes_drop_other_and_neg_inf_to_zero_mutants() -> None:
    src = textwrap.dedent('''\
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            cols = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + cols, mask=cols < n, other=float("-inf"))
            y = tl.load(y_ptr + cols, mask=cols < n, other=float("-inf"))
            w = tl.exp(y - tl.max(y, axis=0))
            tl.store(y_ptr, tl.max(x * 2.0, axis=0) + tl.sum(w, axis=0))
        ''')
    muts = mutate_triton.mutate("m.py", src)
    assert sorted((m.operator, m.line) for m in muts.mutants if m.rule in ("BC201", "BC202")) == [
        ("drop-other", 8), ("drop-other", 9), ("padding-neginf-to-zero", 8), ("padding-neginf-to-zero", 9)]


def test_padding_through_a_helper_call_is_skipped_as_cannot_tell() -> None:
    src = textwrap.dedent('''\
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            cols = tl.arange(0, BLOCK)
            x = tl.load(x_ptr + cols, mask=cols < n, other=0.0)
            tl.store(y_ptr, tl.sum(helper(x), axis=0))
        ''')
    muts = mutate_triton.mutate("h.py", src)
    assert not [m for m in muts.mutants if m.rule == "BC202"]
    assert muts.skipped[("padding-zero-to-neginf", "BC202", "cannot tell: the padding's value at the sum is not"
                         " known")] == 1


def test_accumulator_started_at_zero_carries_the_padding_to_the_sum() -> None:
    src = textwrap.dedent('''\
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for off in range(0, n, BLOCK):
                cols = off + tl.arange(0, BLOCK)
                acc += tl.load(x_ptr + cols, mask=cols < n, other=0.0)
            tl.store(y_ptr, tl.sum(acc, axis=0))
        ''')
    muts = mutate_triton.mutate("s.py", src)
    assert [(m.operator, m.line) for m in muts.mutants if m.rule == "BC202"] == [("padding-zero-to-neginf", 10)]


def test_floor_trip_only_on_loops_that_walk_tiles() -> None:
    src = textwrap.dedent('''\
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, n, BLOCK: tl.constexpr):
            total = 0
            for i in range(tl.cdiv(n, BLOCK)):
                total += i
            for j in range(tl.cdiv(n, BLOCK)):
                offs = j * BLOCK + tl.arange(0, BLOCK)
                tl.store(x_ptr + offs, total, mask=offs < n)
        ''')
    muts = mutate_triton.mutate("f.py", src)
    assert [m.line for m in muts.mutants if m.operator == "floor-trip"] == [10]
    assert muts.skipped[("floor-trip", "BC301", "not a tile loop: the body makes no access that steps by the"
                         " tile")] == 1


def test_drop_mask_only_where_the_mask_bounds_an_index() -> None:
    src = textwrap.dedent('''\
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, flag_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            keep = tl.load(flag_ptr + offs, mask=offs < n, other=0) != 0
            tl.store(x_ptr + offs, 1.0, mask=keep)
        ''')
    muts = mutate_triton.mutate("d.py", src)
    assert [m.line for m in muts.mutants if m.operator == "drop-mask"] == [8]
    assert muts.skipped[("drop-mask", "BC102", "not a bound: the mask compares no index with an extent")] == 1


def test_cuda_floor_trip_only_on_loops_that_walk_tiles() -> None:
    src = textwrap.dedent('''\
        __global__ void k(float* x, int n, int tile) {
            int count = 0;
            for (int t = 0; t < (n + tile - 1) / tile; ++t) count += 1;
            for (int t = 0; t < (n + tile - 1) / tile; ++t) x[t * tile + threadIdx.x] = count;
        }
        ''')
    muts = mutate_cuda.mutate("/tmp/f.cu", src)
    assert [m.line for m in muts.mutants if m.operator == "floor-trip"] == [4]
    assert muts.skipped[("floor-trip", "BC301", "not a tile loop: the body indexes nothing by the tile")] == 1


def test_whole_tile_against_a_compile_time_bound_is_skipped_as_cannot_tell() -> None:
    src = textwrap.dedent('''\
        import triton
        import triton.language as tl


        @triton.jit
        def k(x_ptr, T, BT: tl.constexpr, BC: tl.constexpr):
            o_t = tl.program_id(0) * BC + tl.arange(0, BC)
            o_i = tl.arange(0, BC)
            m = (o_t[:, None] < T) & (o_i[None, :] < BT)
            x = tl.load(x_ptr + o_t[:, None] * BT + o_i[None, :], mask=m, other=0.0)
            y = tl.load(x_ptr + o_i, mask=o_i < BT, other=0.0)
            tl.store(x_ptr + o_t[:, None] * BT + o_i[None, :], x + y[None, :], mask=m)
        ''')
    muts = mutate_triton.mutate("w.py", src)
    made = sorted((m.operator, m.line) for m in muts.mutants)
    # o_i < BT holds for every lane when BC == BT and not when BC is BT's next power of two
    assert ("drop-mask", 11) not in made and ("drop-mask-dim", 9) not in made
    assert ("drop-mask", 10) in made and ("off-by-one", 9) in made  # o_t < T bounds a program tile
    why = "cannot tell: a whole tile arange(0, B) against a compile-time bound (no tail when B equals it)"
    assert muts.skipped[("drop-mask", "BC101", why)] == 1
    assert muts.skipped[("drop-mask-dim", "BC103", why)] == 1


def test_cuda_thread_guard_uses_the_axis_of_a_block_local_name() -> None:
    """`m = bx * blockDim.y + ty` with `ty = threadIdx.y`: the mutant compares threadIdx.y, the
    block-local part of m, not threadIdx.x (which would not bound m's rows at all)."""
    src = ("__global__ void gemv(const float* a, float* y, int M) {\n"
           "    int ty = threadIdx.y;\n"
           "    int m = blockIdx.x * blockDim.y + ty;\n"
           "    if (m < M) y[m] = a[m];\n"
           "}\n")
    muts = mutate_cuda.mutate("/tmp/g.cu", src)
    assert added(src, muts, "thread-index-guard", 4) == ["if (threadIdx.y < M) y[m] = a[m];"]


def test_no_floor_mutant_where_the_code_states_the_division_exact() -> None:
    """`assert(n % 256 == 0)` in the file, or literals that divide: flooring is no bug there."""
    from bench.quality.divisible import stated_multiple
    assert stated_multiple("assert(n % 256 == 0);", "n", "256")
    assert stated_multiple("if ((N) % (BLOCK) != 0) return;", "N", "(BLOCK)")
    assert stated_multiple("", "4096", "256")
    assert not stated_multiple("", "4097", "256")
    assert not stated_multiple("assert(M % 4 == 0);", "M", "BM")
    src = ("__global__ void k(float* x, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i < n) x[i] = 0.0f;\n"
           "}\n"
           "void run(float* x, int n) {\n"
           "    assert(n % 256 == 0);\n"
           "    k<<<(n + 255) / 256, 256>>>(x, n);\n"
           "}\n")
    muts = mutate_cuda.mutate("/tmp/d.cu", src)
    assert not [m for m in muts.mutants if m.operator == "floor-grid"]
    assert any("exact division" in why for (_, _, why) in muts.skipped)
