"""Checks written as a project's error macros hold after them, as ``assert`` does: a ``do { if
(!(c)) throw …; } while (false)`` wrapper (TransformerEngine's ``NVTE_CHECK``), an ``if (!(c))``
calling a ``noreturn`` function (ggml's ``GGML_ASSERT``), ``throw std::runtime_error(…)``
(answered by the stub header when ``<stdexcept>`` is missing), and a macro named as a check whose
error branch libclang dropped (a message helper from a header that was not found). Each beside a near variant whose
check does not leave the function, which is still reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

SCALE = """\
__global__ void scale(float* y, const float* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i];
}

void launch(float* y, const float* x, int n) {
    @CHECK@;
    scale<<<n / 256, 256>>>(y, x);
}
"""

LAUNCH = """\
#include <stdexcept>
#define ERROR_OUT(...) do { throw std::runtime_error("failed"); } while (false)
#define CHECK(expr, ...) do { if (!(expr)) { ERROR_OUT(__VA_ARGS__); } } while (false)
#define WARN_IF_NOT(expr) do { if (!(expr)) { warn(); } } while (false)
#define LIB_CHECK(expr, ...) do { if (!(expr)) { lib::format_error(__VA_ARGS__); } } while (false)
[[noreturn]] void fatal(const char* file, int line);
#define ASSERT(x) if (!(x)) fatal(__FILE__, __LINE__)
void warn();

""" + SCALE


@pytest.mark.parametrize("check", ['CHECK(n % 256 == 0, "n must be a multiple of 256")', "ASSERT(n % 256 == 0)",
                                   'if (n % 256 != 0) throw std::runtime_error("n % 256")',
                                   'LIB_CHECK(n % 256 == 0, "n must be a multiple of 256")'])
def test_a_check_that_leaves_the_function_is_a_contract(check: str) -> None:
    assert findings(LAUNCH.replace("@CHECK@", check), Language.CUDA) == []


def test_a_check_that_only_warns_is_none() -> None:
    src = LAUNCH.replace("@CHECK@", "WARN_IF_NOT(n % 256 == 0)")
    assert findings(src, Language.CUDA) == [(line_of(src, "scale<<<"), "BC302")]


def test_a_comparison_of_padded_lanes_is_a_test_not_the_padding() -> None:
    # `count += id < expert` over lanes padded with INT_MAX adds the test's 0, not INT_MAX
    src = """\
#include <climits>
__global__ void count_before(const int* ids, int n, int expert, int* out) {
    int i = threadIdx.x;
    int id = i < n ? ids[i] : INT_MAX;
    int count = 0;
    count += id < expert;
    for (int offset = 16; offset > 0; offset >>= 1) {
        count += __shfl_xor_sync(0xffffffffu, count, offset);
    }
    if (i == 0) out[0] = count;
}
"""
    assert findings(src, Language.CUDA) == []


UNDECLARED = """\
#include <torch/csrc/stable/library.h>
#include <tvm/ffi/error.h>
void RuntimeCheck(bool ok, const char* why);
void record(int n);

""" + SCALE


@pytest.mark.parametrize("check", ['STD_TORCH_CHECK(n % 256 == 0, "n must be a multiple of 256")',
                                   'TVM_FFI_ICHECK(n % 256 == 0) << "n must be a multiple of 256"',
                                   'TVM_FFI_ICHECK_EQ(n % 256, 0) << "n must be a multiple of 256"',
                                   'RuntimeCheck(n % 256 == 0, "n must be a multiple of 256")'])
def test_a_check_macro_whose_header_is_missing_or_a_check_function_is_a_contract(check: str) -> None:
    # the headers are not found: libclang keeps the macro as a call of an undeclared name
    assert findings(UNDECLARED.replace("@CHECK@", check), Language.CUDA) == []


@pytest.mark.parametrize("check", ['STD_TORCH_CHECK(n > 0, "n must be positive")',
                                   'TVM_FFI_ICHECK_EQ(n % 256, 1) << "odd"',
                                   "record(n % 256 == 0)", "undeclared_log(n % 256 == 0)"])
def test_a_check_of_something_else_or_a_call_named_otherwise_is_none(check: str) -> None:
    src = UNDECLARED.replace("@CHECK@", check)
    assert findings(src, Language.CUDA) == [(line_of(src, "scale<<<"), "BC302")]
