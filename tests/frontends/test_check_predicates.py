"""A host check of a predicate function holds the test the function returns, in the call's
arguments: ``STD_TORCH_CHECK(shape_ok(size_k, size_n))`` with ``shape_ok`` returning ``n %
kBlockN == 0 && …`` (GPTQModel's swordfish kernels), ``assert shape_ok(k, n)`` or ``if not
shape_ok(k, n): raise`` in Python. A predicate that tests another size, or computes its answer in
more than one statement, holds nothing."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import COPY_KERNEL, at, findings

CUDA = """\
constexpr int kBlockN = 64;

__host__ __device__ inline constexpr bool shape_ok(long k, long n) {
  BODY
}

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * kBlockN + threadIdx.x;
  x[i] = 2.0f * x[i];
}

void run(float* x, int k, int n) {
  CHECK
  scale<<<n / kBlockN, kBlockN>>>(x, n);
}
"""


def _cuda_source(body: str, check: str = "assert(shape_ok(k, n));") -> str:
    return CUDA.replace("BODY", body).replace("CHECK", check)


def _cuda(body: str, check: str = "assert(shape_ok(k, n));") -> list[tuple[int, str]]:
    return findings(_cuda_source(body, check), Language.CUDA)


@pytest.mark.parametrize("check", ["assert(shape_ok(k, n));", "if (!shape_ok(k, n)) return;",
                                   "TORCH_CHECK(shape_ok(k, n), \"n must be a multiple of \", kBlockN);"])
def test_a_cuda_predicate_holds_its_test(check: str) -> None:
    assert _cuda("return k > 0 && n > 0 && (n % kBlockN) == 0;", check) == []


@pytest.mark.parametrize("body", [
    "return k > 0 && (k % 16) == 0;",  # another size
    "bool ok = (n % kBlockN) == 0;\n  return ok;",  # more than a return
    "return k > 0 && n > 0;",  # no divisibility
])
def test_a_cuda_predicate_that_does_not_test_the_size_holds_nothing(body: str) -> None:
    assert _cuda(body) == at(_cuda_source(body), "scale<<<", "BC302")


PYTHON = '''\
import triton
import triton.language as tl


def shape_ok(k, n):
    BODY


''' + COPY_KERNEL + '''

def run(x, y):
    N = x.shape[0]
    CHECK
    copy[(N // 64,)](x, y, N, BLOCK=64)
'''


def _triton_source(body: str, check: str = "assert shape_ok(1, N)") -> str:
    return PYTHON.replace("BODY", body).replace("CHECK", check.replace("\n", "\n    "))


def _triton(body: str, check: str = "assert shape_ok(1, N)") -> list[tuple[int, str]]:
    return findings(_triton_source(body, check))


@pytest.mark.parametrize("check", ["assert shape_ok(1, N)", "if not shape_ok(1, N):\n    raise ValueError(N)",
                                   "assert N > 0 and shape_ok(k=1, n=N)"])
def test_a_python_predicate_holds_its_test(check: str) -> None:
    assert _triton('"""Whole tiles only."""\n    return k > 0 and n % 64 == 0', check) == []


@pytest.mark.parametrize("body", [
    "return k % 64 == 0",  # another size
    "ok = n % 64 == 0\n    return k > 0 and ok",  # more than a return
])
def test_a_python_predicate_that_does_not_test_the_size_holds_nothing(body: str) -> None:
    assert _triton(body) == at(_triton_source(body), "copy[(N // 64,)]", "BC302")  # the floored grid
