"""A one-armed ``if constexpr`` that changes an index (``if constexpr (use_half2) column *= 2;``):
each instantiation of the template runs one side, so the index is what that side made it, not
an unknown value. exllama's rope kernel read and wrote ``column`` and ``column + half_dim`` past
the half row this way, under a guard on the row alone. (A runtime ``if`` is not read this way:
both of its sides run in one program.)"""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import at, findings

KERNEL = """\
template <bool use_half2>
__global__ void rotate(float* x, int rows, int half_dim) {
    int column = blockIdx.x * 32 + threadIdx.x; IF (use_half2) column *= 2;
    int row = blockIdx.y * 4 + threadIdx.y;
    if (row >= rows) return;
    GUARD
    float l = x[row * 2 * half_dim + column];
    float r = x[row * 2 * half_dim + column + half_dim];
    x[row * 2 * half_dim + column] = l - r;
    x[row * 2 * half_dim + column + half_dim] = l + r;
}
void run(float* x, int rows, int half_dim) {
    rotate<true><<<dim3((half_dim + 63) / 64, (rows + 3) / 4), dim3(32, 4)>>>(x, rows, half_dim);
}
"""

LINES = ["float l =", "float r =", "] = l - r", "] = l + r"]


def test_an_index_changed_by_a_compile_time_branch_keeps_its_lanes() -> None:
    src = KERNEL.replace("IF", "if constexpr").replace("GUARD", "")
    assert findings(src, Language.CUDA) == sorted(p for line in LINES for p in at(src, line, "BC103"))


def test_with_the_column_guarded_it_is_clean() -> None:
    src = KERNEL.replace("IF", "if constexpr").replace("GUARD", "if (column >= half_dim) return;")
    assert findings(src, Language.CUDA) == []



EXITS = """\
template <bool strict>
__global__ void pick(const float* x, float* scale, int rows, int cols) {
    int group = blockIdx.x * blockDim.x + threadIdx.x;
    int r = group / cols;
    int c = group % cols;
    if constexpr (strict) {
        if (r >= rows || c >= cols) return;
    } else {
        if (OTHER) return;
    }
    scale[r * cols + c] = x[r * cols + c];
}
void run(const float* x, float* s, int rows, int cols) {
    pick<true><<<(rows * cols + 255) / 256, 256>>>(x, s, rows, cols);
}
"""


def test_a_bound_both_sides_of_a_compile_time_branch_exit_on_holds_after_it() -> None:
    assert findings(EXITS.replace("OTHER", "r >= rows"), Language.CUDA) == []


def test_a_bound_only_one_side_exits_on_holds_for_that_side_alone() -> None:
    src = EXITS.replace("OTHER", "c >= cols")
    assert findings(src, Language.CUDA) == sorted(at(src, "scale[r * cols + c] =", "BC102", "BC101"))


CONSTANT = """\
constexpr int ELTS = WIDTH;
__global__ void store_scales(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if constexpr (ELTS == 16) {
        if (i < n) out[i] = v;
    } else {
        out[i] = v;
    }
}
"""


def test_the_side_a_constant_condition_discards_is_not_checked() -> None:
    assert findings(CONSTANT.replace("WIDTH", "16"), Language.CUDA) == []


def test_the_side_a_constant_condition_keeps_is_checked() -> None:
    src = CONSTANT.replace("WIDTH", "8")
    assert findings(src, Language.CUDA) == at(src, "        out[i] = v;", "BC102")
