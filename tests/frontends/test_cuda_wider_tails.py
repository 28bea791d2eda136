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


HELPER = """\
template <unsigned BLOCK_THREADS, unsigned VEC_SIZE>
__device__ __forceinline__ void load_chunk(const float* input, float* out, unsigned start, unsigned size, unsigned tx) {
  const unsigned aligned_size = (size / VEC_SIZE) * VEC_SIZE;
  for (unsigned i = tx * VEC_SIZE; i < aligned_size; i += BLOCK_THREADS * VEC_SIZE) {
    for (unsigned j = 0; j < VEC_SIZE; ++j) out[start + i + j] = input[start + i + j];
  }
TAIL
}
template <unsigned BLOCK_THREADS, unsigned VEC_SIZE>
__global__ void k(const float* input, float* out, unsigned length, unsigned chunk, unsigned groups) {
  const unsigned start = blockIdx.x % groups * chunk;
  load_chunk<BLOCK_THREADS, VEC_SIZE>(input, out, start, min(start + chunk, length) - start, threadIdx.x);
}
"""
TAIL = """\
  for (unsigned i = aligned_size + tx; i < size; i += BLOCK_THREADS) {
    out[start + i] = input[start + i];
  }
"""


def test_a_helper_that_finishes_its_own_tail_skips_nothing() -> None:
    """flashinfer's top-k loads a chunk in whole vectors up to ``size / V * V`` inside an inlined
    helper, then the elements past it: the helper's tail start, read under its arguments."""
    assert findings(HELPER.replace("TAIL\n", TAIL), Language.CUDA) == []


def test_a_helper_walking_a_floor_it_never_rounds_skips_the_tail() -> None:
    src = HELPER.replace("TAIL\n", "").replace("(size / VEC_SIZE) * VEC_SIZE", "size / VEC_SIZE").replace(
        "i = tx * VEC_SIZE; i < aligned_size; i += BLOCK_THREADS * VEC_SIZE", "i = tx; i < aligned_size; i += BLOCK_THREADS").replace(
        "[start + i + j]", "[start + i * VEC_SIZE + j]")
    assert (line_of(src, "i < aligned_size"), "BC301") in findings(src, Language.CUDA)
