"""BC302 on CUDA grids followed through host locals (constants, operators of unresolved types,
ternaries, a count adjusted after its floor), the facts that do or do not make a floored grid
exact, and the kernel tiles a floored grid fills."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


ADD = """\
__global__ void add(const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + 1.0f;
}
"""

CONSTANT = ADD + """\
void run(const float* a, float* c) {
    int n = 50000;
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    add<<<blocks, threads>>>(a, c, n);
}
"""


def test_a_floored_grid_over_locals_holding_constants_that_do_not_divide_is_reported():
    floored = CONSTANT.replace("(n + threads - 1) / threads", "n / threads")
    assert cuda(floored) == [(line_of(floored, "int blocks ="), "BC302")]
    assert cuda(CONSTANT) == []


def test_a_floored_grid_over_constants_that_divide_is_exact():
    exact = CONSTANT.replace("(n + threads - 1) / threads", "n / threads").replace("50000", "4096 * 4096")
    assert cuda(exact) == []


# `Int<256>` is a library type the stub does not declare: `n / BN` is a call libclang cannot name
UNRESOLVED = ADD + """\
void run(const float* a, float* c, int n, int stride, bool swizzle) {
    auto BN = Int<256>{};
    int bx = (n + BN - 1) / BN;
    int bz = swizzle ? (n + stride - 1) / stride : 1;
    bx = swizzle ? (bx + bz - 1) / bz : bx;
    dim3 grid(bx, 1, bz);
    add<<<grid, 256>>>(a, c, n);
}
"""


def test_a_floored_grid_written_with_an_operand_of_unresolved_type_is_reported():
    floored = UNRESOLVED.replace("int bx = (n + BN - 1) / BN", "int bx = n / BN")
    assert (line_of(floored, "int bx ="), "BC302") in cuda(floored)
    assert not [f for f in cuda(UNRESOLVED) if f[1] == "BC302"]


def test_a_floored_arm_of_a_ternary_grid_is_reported():
    floored = UNRESOLVED.replace("(n + stride - 1) / stride", "n / stride")
    assert (line_of(floored, "int bz ="), "BC302") in cuda(floored)


def test_a_ternary_that_tests_the_remainder_is_the_ceiling():
    src = ADD + """\
void run(const float* a, float* c, int n) {
    int blocks = n % 256 == 0 ? n / 256 : n / 256 + 1;
    add<<<blocks, 256>>>(a, c, n);
}
"""
    assert cuda(src) == []


def test_a_count_incremented_after_its_floor_is_the_ceiling_in_two_steps():
    src = ADD + """\
void run(const float* a, float* c, int n) {
    int blocks = n / 256;
    if (n % 256) blocks++;
    add<<<blocks, 256>>>(a, c, n);
}
void run2(const float* a, float* c, int n) {
    int blocks = n / 256;
    if (n % 256 != 0) blocks += 1;
    dim3 grid(blocks);
    add<<<grid, 256>>>(a, c, n);
}
"""
    assert cuda(src) == []


STATIC = ADD + """\
#include <assert.h>
template <int BN>
void run(const float* a, float* c, int n) {
    static_assert(BN % 4 == 0, "vector width");
    assert(n % 4 == 0);
    dim3 grid((n + BN - 1) / BN);
    add<<<grid, BN>>>(a, c, n);
}
void go(const float* a, float* c, int n) { run<64>(a, c, n); }
"""


def test_a_fact_on_a_part_of_the_tile_does_not_make_the_grid_exact():
    floored = STATIC.replace("(n + BN - 1) / BN", "n / BN")
    assert cuda(floored) == [(line_of(floored, "dim3 grid("), "BC302")]
    assert cuda(STATIC) == []


def test_a_fact_on_the_tile_itself_still_makes_the_grid_exact():
    exact = STATIC.replace("(n + BN - 1) / BN", "n / BN").replace("n % 4 == 0", "n % BN == 0")
    assert cuda(exact) == []


PAIRS = """\
__global__ void swap_pairs(float* x, unsigned stride) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned pos = 2 * i - (i & (stride - 1));
    float a = x[pos];
    float b = x[pos + stride];
    x[pos] = b;
    x[pos + stride] = a;
}
void run(float* x, unsigned n, unsigned stride) {
    swap_pairs<<<n / 512, 256>>>(x, stride);
}
"""


def test_a_floored_grid_fills_the_tiles_of_a_block_that_divides_its_tile():
    # n / 512 blocks of 256 threads, two elements each: the grid is the defect, once
    assert cuda(PAIRS) == [(line_of(PAIRS, "<<<n / 512"), "BC302")]


def test_a_block_that_does_not_divide_the_grid_tile_leaves_the_kernel_findings():
    odd = PAIRS.replace("<<<n / 512, 256>>>", "<<<n / 500, 256>>>")
    codes = [code for _, code in cuda(odd)]
    assert "BC302" in codes and "BC101" in codes


def test_a_ternary_whose_test_reads_a_remainder_held_in_a_local_is_not_followed():
    # the count of whole segments: n - rest is a multiple of 2 * stride, a multiple of 128
    src = ADD + """\
unsigned segments(unsigned n);
void run(const float* a, float* c, unsigned n, unsigned stride) {
    unsigned rest = n % (2 * stride);
    unsigned pairs = rest > stride ? segments(n) : (n - rest) / 128;
    add<<<pairs, 128>>>(a, c, n);
}
"""
    assert cuda(src) == []


def test_kernel_index_arithmetic_on_template_types_is_left_as_measured():
    src = """\
template <int B, typename size_type>
__device__ void body(float* c, const float* a, size_type w) {
    size_type begin = w * B * blockIdx.y;
    for (size_type k = begin; k <= begin + w - 1; k += B) {
        c[k + w * threadIdx.y + threadIdx.x] = a[k + w * threadIdx.y + threadIdx.x];
    }
}
extern "C" __global__ void kern(float* c, const float* a, int w) { body<16, int>(c, a, w); }
"""
    assert (line_of(src, "c[k + w"), "BC101") in cuda(src)


ELSE = ADD + """\
template <int C, int W>
void run(const float* a, float* c, int n) {
    if (n % (C * W) != 0) {
        int blocks = (n + C * W - 1) / (C * W);
        add<<<blocks, W * 32>>>(a, c, n);
    } else {
        int blocks = n / C / W;
        add<<<blocks, W * 32>>>(a, c, n);
    }
}
void go(const float* a, float* c, int n) { run<2, 4>(a, c, n); }
"""


def test_the_else_of_a_remainder_test_makes_a_grid_divided_twice_exact():
    assert cuda(ELSE) == []


def test_a_grid_divided_twice_without_the_test_is_reported():
    floored = ELSE.replace("if (n % (C * W) != 0)", "if (n > 4096)")
    assert cuda(floored) == [(line_of(floored, "int blocks = n / C / W"), "BC302")]


def test_a_tile_written_as_a_product_of_constants_is_its_value():
    src = ADD + """\
#include <assert.h>
void run(const float* a, float* c, int n) {
    const int BN = 16 * 8;
    static_assert(BN % 4 == 0, "vector width");
    assert(n % 4 == 0);
    dim3 grid(n / BN);
    add<<<grid, 128>>>(a, c, n);
}
"""
    assert cuda(src) == [(line_of(src, "dim3 grid("), "BC302")]
    assert cuda(src.replace("n % 4 == 0", "n % 128 == 0")) == []


def test_a_grid_local_is_read_at_the_launch_not_at_its_declaration():
    src = ADD + """\
void run(const float* a, float* c, int n, int m) {
    int blocks = n / 256;
    add<<<blocks, 256>>>(a, c, n);
    blocks = (m + 255) / 256;
    add<<<blocks, 256>>>(a, c, m);
    blocks = m / 128;
    add<<<blocks, 128>>>(a, c, m);
}
"""
    assert cuda(src) == [(line_of(src, "int blocks = n / 256"), "BC302"), (line_of(src, "blocks = m / 128"), "BC302")]


INIT = """\
__global__ void init_states(float* states, unsigned long long seed) {
    const auto id = threadIdx.x + blockIdx.x * blockDim.x;
    states[id] = seed;
}

template <typename State>
class ScopedStates {
  public:
    ScopedStates(size_t num_states) {
        constexpr size_t threads = 32;
        const size_t blocks = @BLOCKS@;
        cudaMalloc(&_states, blocks * threads * sizeof(float));
        init_states<<<blocks, threads>>>(_states, 1234);
    }
  private:
    float* _states;
};
"""


def test_a_launch_in_a_constructor_written_in_its_class_is_checked() -> None:
    """A class template's constructor allocates whole blocks and launches: host code as a free
    function is; ``max(n / 32, 1)`` keeps one block for small counts and still floors the rest."""
    for blocks in ("num_states / threads", "std::max(num_states / threads, size_t(1))"):
        src = INIT.replace("@BLOCKS@", blocks)
        assert cuda(src) == [(line_of(src, "const size_t blocks ="), "BC302")], blocks


def test_a_ceiling_in_a_constructor_is_clean() -> None:
    src = INIT.replace("@BLOCKS@", "(num_states + threads - 1) / threads")
    assert "BC302" not in [code for _, code in cuda(src)]


STRIDED_Y = """\
__global__ void col_sums(float* out, const float* x, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += @STEP@) {
        s += x[r * cols + c];
    }
    atomicAdd(&out[c], s);
}

void launch(float* out, const float* x, int rows, int cols, int sms) {
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, max(1, sms * 2048 / (256 * ((cols + 31) / 32))));
    col_sums<<<grid, block>>>(out, x, rows, cols);
}
"""


def test_a_floored_grid_axis_the_kernel_strides_over_drops_nothing() -> None:
    """Blocks along y walk rows by ``gridDim.y * blockDim.y``: any count of them covers the rows."""
    assert cuda(STRIDED_Y.replace("@STEP@", "gridDim.y * blockDim.y")) == []
    src = STRIDED_Y.replace("@STEP@", "blockDim.y")  # no stride by the grid: each block walks its own
    assert (line_of(src, "dim3 grid("), "BC302") in cuda(src)


SPLITS = """\
__global__ void permute(float* out, const float* in, int S, int D, unsigned int splits) {
    const unsigned int part = blockIdx.y;
    const int begin = (S * part) / @DIVISOR@;
    const int end = (S * (part + 1)) / @DIVISOR@;
    for (int s = begin + threadIdx.x; s < end; s += blockDim.x) {
        out[blockIdx.x * S + s] = in[blockIdx.x * S + s];
    }
}

void launch(float* out, const float* in, int B, int S, int D) {
    const unsigned int splits = max(1u, (unsigned int)(S / 128));
    dim3 grid(B, splits);
    permute<<<grid, 128>>>(out, in, S, D, splits);
}
"""


def test_a_floored_count_of_splits_the_kernel_divides_by_drops_nothing() -> None:
    """``S * part / splits``: the blocks split S however many there are."""
    assert cuda(SPLITS.replace("@DIVISOR@", "splits")) == []
    src = SPLITS.replace("@DIVISOR@", "128u")  # the count is only a count of 128-wide parts
    assert (line_of(src, "const unsigned int splits ="), "BC302") in cuda(src)


HOT_BLOCKS = """\
__global__ void gather(float* out, const float* in, const int* idx, int n) {
    int i = blockIdx.x * 64 + threadIdx.x;
    out[i] = in[idx[i]];
}

__global__ void gather_tail(float* out, const float* in, const int* idx, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

void launch(float* out, const float* in, const int* idx, int size) {
    int hot = (size / 64) * 64;
    if (hot >= 64) gather<<<size / 64, 64>>>(out, in, idx, hot);
    @TAIL@
}
"""


def test_a_tail_the_host_launches_apart_is_no_floor_grid_defect() -> None:
    """``hot = size / 64 * 64`` whole blocks, then a launch for ``size - hot``: nothing is dropped,
    and the first kernel still sees only full tiles."""
    tail = "if (size > hot) gather_tail<<<1, 64>>>(out + hot, in, idx + hot, size - hot);"
    assert cuda(HOT_BLOCKS.replace("@TAIL@", tail)) == []
    src = HOT_BLOCKS.replace("    int hot = (size / 64) * 64;\n", "    int hot = size;\n").replace("@TAIL@", "")
    assert (line_of(src, "gather<<<"), "BC302") in cuda(src)


CEILED = ADD + """\
#include <cmath>
void run(const float* a, float* c, int n) {
    int threads = 1024;
    int blocks = ceil(@QUOTIENT@);
    add<<<blocks, threads>>>(a, c, n);
}
"""


def test_ceil_of_an_integer_quotient_is_still_its_floor() -> None:
    # the division of two ints truncates before ceil sees it: one block short whenever n % 1024 != 0
    src = CEILED.replace("@QUOTIENT@", "n / threads")
    assert cuda(src) == [(line_of(src, "int blocks"), "BC302")]


def test_ceil_of_a_floating_quotient_rounds_up() -> None:
    assert cuda(CEILED.replace("@QUOTIENT@", "(double)n / threads")) == []
    assert cuda(CEILED.replace("@QUOTIENT@", "n / (float)threads")) == []
