"""A thread index offset by a loop counter times a runtime size (``i * Br + tx``) is a tile walk
where the kernel compares that sum as one position, and a row walk (a whole-dimension column)
where it does not."""

from __future__ import annotations

import textwrap

from boundcheck.model import Language
from tests.checking import findings, line_of

TILES = textwrap.dedent('''\
    __global__ void rows(const float* q, float* m, int N, int Tr, int Br) {
        int tx = threadIdx.x;
        int off = blockIdx.x * N;
        for (int i = 0; i < Tr; i++) {
            GUARD
            float s = q[off + i * Br + tx];
            if (i * Br + tx < N / 2) s = 0.0f;
            m[off + i * Br + tx] = s;
        }
    }
    ''')


def check(guard: str, src: str = TILES) -> list[tuple[int, str]]:
    return findings(src.replace("GUARD", guard), Language.CUDA)


def test_compared_tile_walk_without_guard_is_reported() -> None:
    """``i * Br + tx`` compared as one position (here with a half-way mark) walks tiles of Br
    threads; nothing bounds the last tile by N, so the load and the store run past the row."""
    src = TILES.replace("GUARD", "")
    assert check("") == [(line_of(src, "float s = q["), "BC101"), (line_of(src, "m[off"), "BC102")]


def test_compared_tile_walk_with_exit_is_clean() -> None:
    """The exit on the same position bounds both."""
    assert check("if (i * Br + tx >= N) break;") == []


def test_uncompared_row_walk_stays_a_column() -> None:
    """Without a comparison of the sum, ``i * Br + tx`` is column tx of row i (pitch Br): a whole
    dimension that no guard in the kernel bounds, so nothing is reported."""
    src = TILES.replace("if (i * Br + tx < N / 2) s = 0.0f;", "")
    assert check("", src) == []


WARP_ROWS = textwrap.dedent('''\
    __global__ void rows(float* out, const float* inp, int N, int C) {
        const int warps = blockDim.x / warpSize;
        int tid = threadIdx.x;
        if (tid >= C) return;
        int row = blockIdx.x * warps + tid / warpSize;
        ROW_EXIT
        const float* x = inp + row * C;
        float* y = out + row * C;
        for (int i = tid % warpSize; i < C; i += warpSize) {
            y[i] = 2.0f * x[i];
        }
    }

    void launch(float* out, const float* inp, int N, int C, int block_size) {
        rows<<<(N * 32 + block_size - 1) / block_size, block_size>>>(out, inp, N, C);
    }
    ''')


def test_thread_guard_on_the_column_extent_bounds_no_warp_row() -> None:
    """``tid >= C`` compares the thread with the row length C, which the lane loop already walks
    to: it says nothing of the warp's row, so without a row exit the rows that the rounded-up grid
    runs past N are unguarded."""
    src = WARP_ROWS.replace("ROW_EXIT", "")
    line = line_of(src, "y[i] =")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


def test_warp_rows_with_their_exit_are_clean() -> None:
    src = WARP_ROWS.replace("ROW_EXIT", "if (row >= N) return;")
    assert findings(src, Language.CUDA) == []
