"""A launcher that picks a kernel by what the sizes divide (``if (c % 4 == 0) vec4<32, 4><<<…>>>``)
hands that to the kernel even where the tile's number is also one of its template arguments, and a
count of blocks written as a quotient of a quotient (``n / 16 / 4``, also as a factor of the grid)
is exact under a test of the product (``n % 64 == 0``)."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

VECTORS = '''\
#define DIV_UP(x, y) (((x) + (y) - 1) / (y))

template <int BLOCK_SIZE, int N_LOOP>
__global__ void scale4(const float* __restrict__ w, float* __restrict__ out, int c_out) {
    int c = BLOCK_SIZE * blockIdx.x + (threadIdx.x << 2);
    if (c < c_out)
        *((float4*)(&out[c])) = *((const float4*)(&w[c]));
}

void run(const float* w, float* out, int out_channel) {
    if (out_channel % 4 == 0) {
        scale4<32, 4><<<DIV_UP(out_channel, 32), 8>>>(w, out, out_channel);
    }
}
'''


def test_a_branch_on_the_vector_width_reaches_a_kernel_given_that_width_as_a_template_argument() -> None:
    assert findings(VECTORS, Language.CUDA) == []


def test_without_the_branch_the_vector_tail_is_reported() -> None:
    src = VECTORS.replace("    if (out_channel % 4 == 0) {", "    {")
    assert findings(src, Language.CUDA) == [(line_of(src, "*((float4*)(&out[c]))"), "BC106")] * 2


def test_a_branch_on_another_width_proves_nothing() -> None:
    src = VECTORS.replace("out_channel % 4 == 0", "out_channel % 2 == 0")
    assert findings(src, Language.CUDA) == [(line_of(src, "*((float4*)(&out[c]))"), "BC106")] * 2


GRID = '''\
__global__ void tiles(const float* x, float* y, int n) {
    int col = (blockIdx.x % (n / 64)) * 64 + threadIdx.x;
    int row = blockIdx.x / (n / 64);
    y[row * n + col] = x[row * n + col];
}

void run(const float* x, float* y, int m, int n) {
    if (n % 64 == 0) {
        int j_factors = n / 16 / 4;
        dim3 blocks((m + 127) / 128 * j_factors);
        tiles<<<blocks, 64>>>(x, y, n);
    }
}
'''


def test_a_quotient_of_a_quotient_is_exact_under_a_test_of_the_product() -> None:
    assert [f for f in findings(GRID, Language.CUDA) if f[1] == "BC302"] == []


def test_a_test_of_a_smaller_product_leaves_the_floor() -> None:
    src = GRID.replace("n % 64 == 0", "n % 32 == 0")
    assert [f for f in findings(src, Language.CUDA) if f[1] == "BC302"] == [(line_of(src, "dim3 blocks("), "BC302")]
