"""Kernels that share a name (overloads by parameter list) are each checked under the launches
that run them: a launch is matched to the one definition taking as many arguments as it passes.
A launch that fits several (in a template, where the argument types are open) is read at each.
Before, the last definition of a name took every launch, and the first, launched on whole blocks,
was reported as if nothing launched it."""

from boundcheck.model import Language
from tests.checking import findings, line_of

OVERLOADS = """\
#define TILE 32
template <typename T>
__global__ void col_sum(const T* x, T* out, int rows, int width, bool scale) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    float s = 0.f;
    for (int r = 0; r < rows; r++) s += (float)x[r * width + idx];
    out[idx] = scale ? s / rows : s;
}

template <typename T>
__global__ void col_sum(const T* x, T* out, int rows, int width) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    float s = 0.f;
    for (int r = 0; r < rows; r++) s += (float)x[r * width + idx];
    out[idx] = s;
}

void launch(const float* x, float* out, int rows, int width) {
    col_sum<float><<<width / TILE, TILE>>>(x, out, rows, width, true);
}
"""


def test_the_overload_a_floored_grid_launches_sees_whole_tiles() -> None:
    # the floored grid is reported at the launch; the five-argument kernel it runs is not, the
    # four-argument overload, launched nowhere, is (BC302 and the unlaunched reads and writes)
    second = OVERLOADS.index("int width) {")
    read = line_of(OVERLOADS[second:], "s += (float)x[") + OVERLOADS[:second].count("\n")
    write = line_of(OVERLOADS[second:], "out[idx] = s;") + OVERLOADS[:second].count("\n")
    assert findings(OVERLOADS, Language.CUDA) == [
        (read, "BC101"), (write, "BC102"), (line_of(OVERLOADS, "col_sum<float><<<"), "BC302")]


def test_overloads_of_one_arity_are_each_read_under_the_launch() -> None:
    # `k<<<g, b>>>(x, y, n)` in a template over T may run the `__half*` or the `float*` overload
    src = OVERLOADS.replace("int rows, int width) {", "int rows, int width, float unused) {")
    assert findings(src, Language.CUDA) == [(line_of(src, "col_sum<float><<<"), "BC302")]
