"""A floor loop over vectors whose tail a later loop takes up by a remainder of a multiple of the
vector (flashinfer's activations: ``d / vec_size`` vectors, then the elements past
``d - d % (stride * vec_size)``): past the last multiple of the larger size lie all the elements
past the last multiple of the vector, so nothing is skipped. A remainder by a size the vector does
not divide, or of another extent, leaves the floor reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

KERNEL = """\
#include <cstdint>
template <typename T>
__global__ void act(T* __restrict__ out, const T* __restrict__ input, const int d, const int e) {
    constexpr uint32_t vec_size = 16 / sizeof(T);
    const int64_t stride = blockDim.x;
    for (uint32_t idx = threadIdx.x; idx < d / vec_size; idx += stride) {
        for (uint32_t i = 0; i < vec_size; ++i) {
            out[blockIdx.x * d + idx * vec_size + i] = input[blockIdx.x * d + idx * vec_size + i];
        }
    }
    const int64_t rest = REST;
    for (int64_t idx = threadIdx.x; idx < REMAINDER; idx += stride) {
        out[blockIdx.x * d + rest + idx] = input[blockIdx.x * d + rest + idx];
    }
}
"""


@pytest.mark.parametrize("rest, remainder", [
    ("d - d % (stride * vec_size)", "d % (stride * vec_size)"),
    ("d - d % vec_size", "d % vec_size"),
])
def test_a_tail_past_a_multiple_of_the_vector_takes_up_the_floor(rest: str, remainder: str) -> None:
    src = KERNEL.replace("REST", rest).replace("REMAINDER", remainder)
    assert [f for f in findings(src, Language.CUDA) if f[1] == "BC301"] == []


@pytest.mark.parametrize("rest, remainder", [
    ("d - d % (stride * 3)", "d % (stride * 3)"),
    ("e - e % (stride * vec_size)", "e % (stride * vec_size)"),
])
def test_a_tail_of_another_size_or_extent_leaves_the_floor_reported(rest: str, remainder: str) -> None:
    src = KERNEL.replace("REST", rest).replace("REMAINDER", remainder)
    assert (line_of(src, "idx < d / vec_size"), "BC301") in findings(src, Language.CUDA)
