"""A buffer allocated with a number of elements the launch's numbers cover exactly: ``const int N
= 32 * 1024 * 1024``, ``cudaMalloc(&d, N * sizeof(float))``, ``dim3 grid(N / THREAD_PER_BLOCK)``
and ``k<<<grid, block>>>(d)`` give every thread its own element, so the kernel's unguarded
``d[blockIdx.x * blockDim.x + threadIdx.x]`` stays inside. The room is read in the host's
numbers: macros put in, quotients of numbers computed, and ``dim3`` locals that nothing writes
read through their declarations. Only for a kernel given no extent: one given ``n`` is held to
bound its index by it. A size the grid rounds up past, or a ``dim3`` written after its
declaration, still leaves the access reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

PROGRAM = """\
#define THREAD_PER_BLOCK 256
__global__ void twice(float* d_in, float* d_out) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    d_out[i] = d_in[i] * 2.0f;
}
__global__ void twice4(float* a, float* b) {
    int idx = (threadIdx.x + blockIdx.x * blockDim.x) * 4;
    float4 v = reinterpret_cast<float4*>(&a[idx])[0];
    reinterpret_cast<float4*>(&b[idx])[0] = v;
}
int main() {
    const int N = SIZE;
    float *d_a, *d_out;
    cudaMalloc((void **)&d_a, N * sizeof(float));
    cudaMalloc((void **)&d_out, N * sizeof(float));
    dim3 Grid(GRID, 1);
    dim3 Block(THREAD_PER_BLOCK, 1);
    WRITE
    twice<<<Grid, Block>>>(d_a, d_out);
    dim3 Grid4(N / THREAD_PER_BLOCK / 4);
    twice4<<<Grid4, THREAD_PER_BLOCK>>>(d_a, d_out);
    return 0;
}
"""


def program(size: str = "32 * 1024 * 1024", grid: str = "N / THREAD_PER_BLOCK", write: str = "") -> str:
    return PROGRAM.replace("SIZE", size).replace("GRID", grid).replace("WRITE", write)


TWICE = at(PROGRAM, "d_out[i] =", "BC102", "BC101")
TWICE4 = at(PROGRAM, "float4 v =", "BC101") + at(PROGRAM, "reinterpret_cast<float4*>(&b", "BC102")


def test_numbers_that_cover_the_allocation_exactly_leave_nothing_to_guard() -> None:
    assert findings(program(), Language.CUDA) == []


def test_the_launch_written_with_numbers_in_place_is_the_same() -> None:
    src = program().replace("twice<<<Grid, Block>>>", "twice<<<N / THREAD_PER_BLOCK, THREAD_PER_BLOCK>>>")
    assert findings(src, Language.CUDA) == []


@pytest.mark.parametrize(("size", "grid"), [("1000", "(N + THREAD_PER_BLOCK - 1) / THREAD_PER_BLOCK"),
                                            ("32 * 1024 * 1024", "N / THREAD_PER_BLOCK + 1")])
def test_a_grid_that_runs_past_the_allocation_is_reported(size: str, grid: str) -> None:
    found = findings(program(size, grid), Language.CUDA)
    assert [f for f in found if f in TWICE] == sorted(TWICE)


def test_a_vector_grid_for_a_size_that_is_no_multiple_of_its_tile_is_reported() -> None:
    # 1000 / 256 / 4 == 0 blocks cover nothing past; 1030 / 256 / 4 == 1 block of 1024 elements fits;
    # only a size the floors do not divide leaves the twice kernel's rounded-up grid reported
    assert findings(program("1030", "(N + THREAD_PER_BLOCK - 1) / THREAD_PER_BLOCK"), Language.CUDA) == sorted(TWICE)


def test_a_dim3_written_after_its_declaration_is_not_read_through_it() -> None:
    assert findings(program(write="Grid.x += 1;"), Language.CUDA) == sorted(TWICE)


def test_a_kernel_given_its_extent_is_held_to_it_whatever_this_launch_passes() -> None:
    # `twice(d_a, d_out, N)`: a kernel that takes the extent is expected to bound its index by
    # it for any N, so the numbers of the one launch in the file do not excuse the missing guard
    src = program().replace("float* d_out) {", "float* d_out, int n) {").replace("(d_a, d_out);\n    dim3 Grid4",
                                                                                "(d_a, d_out, N);\n    dim3 Grid4")
    assert findings(src, Language.CUDA) == sorted(TWICE)
