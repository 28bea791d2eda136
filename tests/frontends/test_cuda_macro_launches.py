"""Launches written inside a macro the host function uses (``#define LAUNCH … kernel<<<grid,
block>>>(…);``, generated GEMM launchers): the function holds a launch its own text does not show,
and the macro, a run of statements, is no value every cursor of its expansion stands for. A grid
divided by 1 after a floor (``n / 64 / 1``) still drops the tail."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

MACRO = '''\
template <int CTA_N>
__global__ void kern(float* out, int n) {
    int i = blockIdx.x * CTA_N + threadIdx.x;
    out[i] = 0.f;
}

#define KERNEL_LAUNCH_CODE                                      \\
    int j_factors1 = n / CTA_N / 1;                             \\
    dim3 num_blocks((m + CTA_M - 1) / CTA_M * j_factors1);      \\
    auto kernel_func = kern<CTA_N>;                             \\
    kernel_func<<<num_blocks, CTA_N>>>(out, n);

void run(float* out, int m, int n) {
    constexpr int CTA_M = 128;
    constexpr int CTA_N = 64;
    KERNEL_LAUNCH_CODE
}
'''


def test_a_floored_grid_launched_from_a_macro_is_reported_where_the_macro_is_used() -> None:
    assert findings(MACRO, Language.CUDA) == [(line_of(MACRO, "    KERNEL_LAUNCH_CODE"), "BC302")]


def test_a_ceiling_launched_from_a_macro_is_not() -> None:
    src = MACRO.replace("n / CTA_N / 1;", "(n + CTA_N - 1) / CTA_N;")
    assert src != MACRO
    assert findings(src, Language.CUDA) == [(line_of(src, "out[i] = 0.f"), "BC102")]


def test_a_floor_divided_by_one_is_still_a_floor() -> None:
    src = ("__global__ void k(float* out, int n) { out[blockIdx.x * 64 + threadIdx.x] = 0.f; }\n"
           "void run(float* out, int m, int n) {\n"
           "    k<<<(m + 127) / 128 * (n / 64 / 1), 64>>>(out, n);\n"
           "}\n")
    assert findings(src, Language.CUDA) == [(3, "BC302")]
