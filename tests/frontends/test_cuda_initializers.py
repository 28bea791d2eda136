"""A local's initializer is the expression after its name: a type's template arguments
(``Vec<float, 4> v = …``, ``std::array<float, 2> p{…}``) and an array's size (``float w[2] = {…}``)
come before it and are no initializer, and the reads that fill a register array are reads."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

_VEC = """
template <typename T, int N> struct alignas(sizeof(T) * N) Vec { T v[N]; };
__global__ void scale(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (GUARD) {
    Vec<float, 4> v = *reinterpret_cast<const Vec<float, 4> *>(x + 4 * i);
    y[i] = v.v[0];
  }
}
"""


def test_a_vector_load_into_a_template_typed_local_is_read() -> None:
    src = _VEC.replace("GUARD", "4 * i < n")
    assert findings(src, Language.CUDA) == [(line_of(src, "Vec<float, 4> v ="), "BC106")]


def test_the_same_load_guarded_on_its_last_lane_is_clean() -> None:
    assert findings(_VEC.replace("GUARD", "4 * i + 3 < n"), Language.CUDA) == []


@pytest.mark.parametrize("decl", ["float w[2] = {x[i], x[i + 1]};", "std::array<float, 2> w{x[i], x[i + 1]};"])
def test_the_reads_that_fill_a_local_are_accesses(decl: str) -> None:
    src = f"""
#include <array>
__global__ void pairs(float *y, const float *x, int n) {{
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  {decl}
  if (i + 1 < n) y[i] = w[0] + w[1];
}}
"""
    assert findings(src, Language.CUDA) == [(line_of(src, decl), "BC101")] * 2


def test_a_local_declared_by_a_macro_keeps_its_initializer() -> None:
    """A macro that declares the index (``GLOBAL_INDEX(i);``) places the name and its value at one
    point of the expansion."""
    src = """
#define GLOBAL_INDEX(i) int i = blockIdx.x * blockDim.x + threadIdx.x
__global__ void copy(float *y, const float *x, int n) {
  GLOBAL_INDEX(i);
  y[i] = x[i];
}
"""
    assert findings(src, Language.CUDA) == [(line_of(src, "y[i] = x[i]"), "BC101"), (line_of(src, "y[i] = x[i]"), "BC102")]
