"""Elements of PyTorch tensor accessors (``out[n][c][h][w]``) are accesses of the tensor, indexed as
the row-major position their subscripts name: an unguarded one is reported as a pointer's would be
(mmcv's correlation kernel wrote ``output[n][ph][pw][h][w]`` with no ``h < oH``, fixed in
b0646e0ec9), a guarded one is not, in a template (subscripts) and with concrete types (calls of
``operator[]``) alike. A row of an accessor (a partial chain) is no element."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

_CONCRETE = '''\
#include <torch/extension.h>

__global__ void k(at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> out,
                  const at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> in, int H, int W) {
    const int h = blockIdx.y * blockDim.y + threadIdx.y;
    const int w = blockIdx.x * blockDim.x + threadIdx.x;
@GUARD@    out[h][w] = in[h][w] * 2.0f;
}
'''

_TEMPLATE = '''\
#include <torch/extension.h>

template <typename scalar_t>
__global__ void correlation(const at::PackedTensorAccessor32<scalar_t, 4, at::RestrictPtrTraits> input,
                            at::PackedTensorAccessor32<scalar_t, 4, at::RestrictPtrTraits> output, int oH, int oW) {
    const int n = blockIdx.x;
    const int h = blockIdx.y * blockDim.y + threadIdx.y;
    const int w = blockIdx.z * blockDim.z + threadIdx.z;
@GUARD@    for (int c = 0; c < input.size(3); ++c) {
        output[n][h][w][c] += input[n][h][w][c];
    }
}
'''


def _check(src: str, guard: str) -> tuple[str, list[tuple[int, str]]]:
    src = src.replace("@GUARD@", guard)
    return src, findings(src, Language.CUDA)


def test_an_unguarded_accessor_element_is_reported() -> None:
    src, found = _check(_CONCRETE, "")
    line = line_of(src, "out[h][w] = in[h][w]")
    assert found == [(line, "BC101"), (line, "BC102")]


def test_a_guarded_accessor_element_is_not_reported() -> None:
    for guard in ("    if (h < H && w < W)\n", "    if (h >= out.size(0) || w >= out.size(1)) return;\n"):
        assert _check(_CONCRETE, guard)[1] == [], guard


def test_an_accessor_element_guarded_on_one_index_is_a_partial_guard() -> None:
    src, found = _check(_CONCRETE, "    if (h < H)\n")
    line = line_of(src, "out[h][w] = in[h][w]")
    assert found == [(line, "BC103"), (line, "BC103")]


def test_an_off_by_one_bound_on_an_accessor_index_is_reported() -> None:
    src, found = _check(_CONCRETE, "    if (h < H && w <= W)\n")
    assert found == [(line_of(src, "w <= W"), "BC104")]


def test_an_accessor_of_a_templates_dependent_type_is_read_through_its_subscripts() -> None:
    src, found = _check(_TEMPLATE, "")
    line = line_of(src, "output[n][h][w][c] +=")
    assert found == [(line, "BC101"), (line, "BC101"), (line, "BC102")]  # output and input read, output written
    assert _check(_TEMPLATE, "    if (h >= oH || w >= oW) return;\n")[1] == []


def test_a_row_of_an_accessor_is_no_element() -> None:
    src = '''\
#include <torch/extension.h>

__device__ float first(at::TensorAccessor<float, 1, at::RestrictPtrTraits, int> row);

__global__ void k(at::PackedTensorAccessor32<float, 2, at::RestrictPtrTraits> x, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = first(x[i]);
}
'''
    assert findings(src, Language.CUDA) == []
