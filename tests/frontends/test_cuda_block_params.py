"""A parameter every launch passes the block's x size for (``Br`` with ``dim3 block(Bc)`` and
``const int Bc = 32, Br = 32``) is the tile a loop steps by: ``m[row + i * Br + tx]`` for ``i <
Tr`` walks tiles of the block, and with ``Tr`` rounded up from N (flash-attention-minimal's
forward kernel) the last tile runs past N unless a guard stops it. A block index times such a size
(``row * dim + d`` under ``<<<rows, dim>>>``) stays one block spanning its row."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import at, findings

TILES = """\
__global__ void fwd(const float* Q, float* m, int N, int Tr, int Br) {
    int tx = threadIdx.x;
    int offset = blockIdx.x * N;
    for (int i = 0; i < Tr; i++) {
        BODY
    }
}
void launch(const float* Q, float* m, int B, int N) {
    const int Bc = 32; const int Br = 32;
    const int Tr = (N + Br - 1) / Br;
    dim3 block(Bc);
    fwd<<<B, block>>>(Q, m, N, Tr, Br);
}
"""


def test_a_loop_stepping_by_a_parameter_the_launch_sets_to_the_block_walks_tiles() -> None:
    src = TILES.replace("BODY", "m[offset + Br * i + tx] = Q[offset + Br * i + tx];")
    assert findings(src, Language.CUDA) == at(src, "m[offset + Br * i + tx] =", "BC101", "BC102")


def test_a_guard_on_the_tiled_position_bounds_it() -> None:
    src = TILES.replace("BODY", "if (Br * i + tx < N) m[offset + Br * i + tx] = Q[offset + Br * i + tx];")
    assert findings(src, Language.CUDA) == []


def test_a_step_the_launch_does_not_tie_to_the_block_stays_a_row() -> None:
    src = TILES.replace("BODY", "m[offset + Br * i + tx] = Q[offset + Br * i + tx];").replace("const int Br = 32;", "const int Br = 64;")
    assert findings(src, Language.CUDA) == []


def test_a_block_index_times_the_block_size_spans_a_row() -> None:
    src = """\
__global__ void scale_rows(const float* x, float* y, int dim) {
    int d = threadIdx.x;
    y[blockIdx.x * dim + d] = 2.0f * x[blockIdx.x * dim + d];
}
void run(const float* x, float* y, int rows, int dim) {
    scale_rows<<<rows, dim>>>(x, y, dim);
}
"""
    assert findings(src, Language.CUDA) == []
