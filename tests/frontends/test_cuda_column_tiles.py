"""A 2-D layout's column inside a column tile the block writes whole (implicit-GEMM kernels of
the AWQ family): ``C[row * OC + (by % jn) * 64 + (threadIdx.y / 2) * 32 + (threadIdx.x % 4) * 2 +
ax1 * 16 + (local_id / 4) * 8 + local_id % 2]`` under ``dim3(32, 4)`` at every launch reaches at
most 63 past the tile's start, and ``jn = (OC + 63) / 64`` tiles are whole where the launcher
rejects ``OC % 64 != 0``. The row keeps its own guard. Without the check, under a block whose
lanes reach past the tile, or under a block of unknown size, the column is reported as before."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

GEMM = '''\
#include <stdexcept>

__global__ void gemm_tile(const float* __restrict__ A, float* __restrict__ C, int M, int OC) {
    int jn = (OC + 63) / 64;
    int by = blockIdx.x % ((M + 127) / 128 * jn);
    float acc[16];
    for (int i = 0; i < 16; ++i) acc[i] = A[i];
    float* c_ptr = C + (by % jn) * 64 + (threadIdx.y / 2) * 32 + (threadIdx.x % 4) * 2;
    for (int ax0 = 0; ax0 < 4; ++ax0) {
        for (int ax1 = 0; ax1 < 2; ++ax1) {
            for (int local_id = 0; local_id < 8; ++local_id) {
                int row = (by / jn) * 128 + (threadIdx.y % 2) * 64 + ax0 * 16 + (local_id % 4) / 2 * 8 + threadIdx.x / 4;
                if (row < M)
                    *(c_ptr + ax1 * 16 + row * OC + (local_id / 4) * 8 + local_id % 2) = acc[ax1 * 8 + local_id];
            }
        }
    }
}

void run(const float* A, float* C, int M, int OC) {
    if (OC % 64 != 0)
        throw std::invalid_argument("OC is not a multiple of 64");
    dim3 blocks((M + 127) / 128 * ((OC + 63) / 64));
    dim3 threads(32, 4);
    gemm_tile<<<blocks, threads>>>(A, C, M, OC);
}
'''

STORE = "*(c_ptr + ax1 * 16"


def test_a_column_inside_a_whole_tile_under_the_launch_block_is_not_reported() -> None:
    assert findings(GEMM, Language.CUDA) == []


def test_without_the_launchers_check_the_column_is_reported() -> None:
    src = GEMM.replace("if (OC % 64 != 0)", "if (OC < 0)")
    assert findings(src, Language.CUDA) == [(line_of(src, STORE), "BC103")]


def test_a_block_whose_lanes_reach_past_the_tile_is_reported() -> None:
    src = GEMM.replace("dim3 threads(32, 4)", "dim3 threads(32, 8)")
    assert findings(src, Language.CUDA) == [(line_of(src, STORE), "BC103")]


def test_a_block_of_unknown_size_is_reported() -> None:
    src = GEMM.replace("void run(const float* A, float* C, int M, int OC)", "void run(const float* A, float* C, int M, int OC, int wy)")
    src = src.replace("dim3 threads(32, 4)", "dim3 threads(32, wy)")
    assert findings(src, Language.CUDA) == [(line_of(src, STORE), "BC103")]
