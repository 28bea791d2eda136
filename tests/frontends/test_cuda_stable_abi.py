"""Extensions built on PyTorch's stable ABI (``torch::stable::Tensor``, ``STD_TORCH_CHECK`` from
``torch/headeronly``) parse without PyTorch, and their checks hold for the launches below them: also
through a dispatch chain four calls deep whose calls name a template by an argument libclang leaves
dependent (``launch<aphrodite::kFloat16.id(), true>(…)``, GPTQModel's swordfish kernels). A check of
another size, or none, leaves the floored grid reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

SOURCE = """\
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/util/Exception.h>

namespace aphrodite {
using ScalarTypeId = long;
struct ScalarType {
  constexpr ScalarTypeId id() const { return 0; }
};
constexpr ScalarType kFloat16{};
}  // namespace aphrodite

constexpr int kBlockN = 64;

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * kBlockN + threadIdx.x;
  x[i] = 2.0f * x[i];
}

template <int T>
void launch_t(float* x, int n) {
  scale<<<n / kBlockN, kBlockN>>>(x, n);
}

template <aphrodite::ScalarTypeId type_id, bool Z>
void launch_atomic(int T, float* x, int n) {
  if (T == 1) launch_t<1>(x, n);
  else launch_t<2>(x, n);
}

template <aphrodite::ScalarTypeId type_id, bool Z>
void launch(float* x, int n) {
  launch_atomic<type_id, Z>(1, x, n);
}

torch::stable::Tensor entry(torch::stable::Tensor& x, int64_t size_k, int64_t size_n) {
  CHECK
  launch<aphrodite::kFloat16.id(), true>(x.mutable_data_ptr<float>(), size_n);
  return x;
}
"""


def _check(check: str) -> list[tuple[int, str]]:
    return findings(SOURCE.replace("CHECK", check), Language.CUDA)


def test_a_stable_abi_check_holds_four_calls_down() -> None:
    assert _check('STD_TORCH_CHECK(size_n % kBlockN == 0, "N % ", kBlockN, " != 0");') == []


@pytest.mark.parametrize("check", ["", 'STD_TORCH_CHECK(size_k % kBlockN == 0, "K");',
                                   'STD_TORCH_CHECK(x.dim() == 2, "x must be 2-D");'])
def test_without_a_check_of_the_size_the_floored_grid_is_reported(check: str) -> None:
    assert _check(check) == at(SOURCE, "scale<<<", "BC302")
