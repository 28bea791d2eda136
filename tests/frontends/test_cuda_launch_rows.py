"""Rows a launch covers exactly by names alone (cuda_launch_rows), the two-part ceiling of a grid
(`blocks = n / B; blocks = n % B == 0 ? blocks : blocks + 1`), and a block walking a table of
compile-time size."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, path: str = "k.cu") -> list[tuple[int, str]]:
    found, _ = check_source(path, Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


LAYOUT = """\
template <int N>
__global__ void fwd(int T, int H, const float* r, float* y) {
    const int bb = blockIdx.y, hh = blockIdx.x, i = threadIdx.x;
    for (int t = 0; t < T; t++) {
        const int idx = ((bb * T + t) * H + hh) * N + i;
        y[idx] = 2.0f * r[idx];
    }
}
void run(int B, int T, int H, const float* r, float* y) {
    fwd<HEAD><<<dim3(H, B), dim3(HEAD)>>>(T, H, r, y);
}
"""


def test_a_layout_row_the_grid_and_block_cover_exactly():
    """`[B, T, H, N]` with H blocks of N threads along x: the x part `hh * N + i` walks a row of
    `H * N` that the next term steps over, so no tile is partial (HEAD a build-time constant)."""
    assert findings(LAYOUT) == []


def test_the_same_index_under_a_rounded_grid_is_reported():
    """Launched over `cdiv(H * N, 128)` blocks of 128, the row's tiles are the launch's, not N."""
    src = LAYOUT.replace("fwd<HEAD><<<dim3(H, B), dim3(HEAD)>>>", "fwd<HEAD><<<dim3((H * HEAD + 127) / 128, B), dim3(128)>>>")
    assert (6, "BC101") in findings(src) and (6, "BC102") in findings(src)


def test_the_classic_tiled_index_stays_a_tiled_dimension():
    """`blockIdx.x * 256 + threadIdx.x` with the grid's count passed: no term shows a row of
    `blocks * 256`, so the extent n may still end inside the last tile."""
    src = ("__global__ void k(float* x, int blocks, int n) {\n"
           "    x[blockIdx.x * 256 + threadIdx.x] = 0.0f;\n"
           "}\n"
           "void run(float* x, int n) { int blocks = (n + 255) / 256; k<<<blocks, 256>>>(x, blocks, n); }\n")
    assert findings(src) == [(2, "BC102")]


def test_a_remainder_row_of_the_block_size():
    """`(blockIdx.x % H) * N + threadIdx.x` with N threads: each block stays in its head's row."""
    src = ("__global__ void k(int T, int C, int H, float* x) {\n"
           "    const int b = blockIdx.x / H, h = blockIdx.x % H, i = threadIdx.x;\n"
           "    for (int t = b * T * C + h * _N_ + i; t < (b + 1) * T * C + h * _N_ + i; t += C)\n"
           "        x[t] = 0.0f;\n"
           "}\n"
           "void run(int B, int T, int C, int H, float* x) { k<<<dim3(B * H), dim3(_N_)>>>(T, C, H, x); }\n")
    assert findings(src) == []


TWO_PART = """\
__global__ void k(float* x, int n) {
    int i = blockIdx.x * 512 + threadIdx.x;
    if (i < n) x[i] = 0.0f;
}
void run(float* x, int n) {
    int blocks = n / 512;
    blocks = n % 512 == 0 ? blocks : blocks + 1;
    k<<<blocks, 512>>>(x, n);
}
"""


def test_a_floor_made_a_ceiling_by_its_own_update():
    assert findings(TWO_PART) == []
    assert findings(TWO_PART.replace("    blocks = n % 512 == 0 ? blocks : blocks + 1;\n", "")) == [(6, "BC302")]


def test_a_two_part_ceiling_read_through_a_template_launch():
    """The launch of a template kernel inside a template is read from its tokens: its grid is the
    local's value there, the ceiling, not the floor it was declared with."""
    src = ("template <int B> __global__ void k(float* x, int n) {\n"
           "    int i = blockIdx.x * B + threadIdx.x;\n"
           "    if (i < n) x[i] = 0.0f;\n"
           "}\n"
           "template <typename T> void run(float* x, int n, int bs) {\n"
           "    int blocks = n / bs;\n"
           "    blocks = n % bs == 0 ? blocks : blocks + 1;\n"
           "    if (bs == 256) k<256><<<blocks, 256>>>(x, n);\n"
           "    int grid = (blocks + 3) / 4;\n"
           "    k<1024><<<grid, 1024>>>(x, n);\n"
           "}\n")
    assert findings(src) == []


def test_a_block_walks_a_table_of_compile_time_size():
    """`for (i = threadIdx.x; i < 256; i += blockDim.x) smem[i] = code[i]`: the condition bounds
    every step of the counter (a 256-entry table)."""
    src = ("__global__ void k(const float* code, float* out, int n) {\n"
           "    __shared__ float table[256];\n"
           "    for (int i = threadIdx.x; i < 256; i += blockDim.x) table[i] = code[i];\n"
           "    __syncthreads();\n"
           "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (j < n) out[j] = table[j % 256];\n"
           "}\n")
    assert findings(src) == []
    # the region bounds the loop's own counter, not a global index read inside it
    other = src.replace("table[i] = code[i]", "table[i] = code[blockIdx.x * blockDim.x + threadIdx.x]")
    assert findings(other) == [(3, "BC101")]
    # a size written as arithmetic on numbers (two 128-entry codebooks) is as fixed
    two = src.replace("i < 256;", "i < 2 * 128;")
    assert two != src and findings(two) == []
    assert findings(two.replace("table[i] = code[i]", "table[i] = code[blockIdx.x * blockDim.x + threadIdx.x]")) \
        == [(3, "BC101")]


def test_a_counter_name_reused_by_a_lane_walk_is_not_counted():
    """`i` counts 0..3 in one loop and walks the lanes (`i = threadIdx.x; i <= C`) in another: the
    second's `i * blockDim.x` is a walk over C, not a counted row, so its `<=` stays reported."""
    src = ("__global__ void k(float* out, const float* inp, int C) {\n"
           "    const float* x = inp + blockIdx.x * C;\n"
           "    float acc = 0.0f;\n"
           "    for (int i = 0; i < 4; i++) acc += 1.0f;\n"
           "    for (int i = threadIdx.x; i <= C; i += blockDim.x) acc += x[i];\n"
           "    out[blockIdx.x] = acc;\n"
           "}\n"
           "void run(float* out, const float* inp, int N, int C) { k<<<N, 256>>>(out, inp, C); }\n")
    assert (5, "BC104") in findings(src)
