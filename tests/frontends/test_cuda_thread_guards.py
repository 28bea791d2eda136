"""BC105 (thread-index-guard) on CUDA kernels: where the finding goes when several block-local
guards bound the same dimension of an access."""

from __future__ import annotations

import textwrap

from boundcheck.model import Language
from tests.checking import findings, line_of

WARP_ROWS = textwrap.dedent('''\
    __global__ void rowscale(float* out, const float* inp, int N, int C) {
        int tid = threadIdx.x;
        if (tid >= C) {
            return;
        }
        int warp = tid / 32;
        int lane = tid % 32;
        int row = blockIdx.x * (blockDim.x / 32) + warp;
        if (threadIdx.x >= N) {
            return;
        }
        const float* x = inp + row * C;
        for (int i = lane; i < C; i += 32) {
            out[row * C + i] = 2.0f * x[i];
        }
    }
    ''')


def test_block_local_row_guard_is_reported_on_the_row_extent_not_the_column_one() -> None:
    # `tid < C` compares the thread with the column extent (the lanes' loop bounds the columns by C);
    # `threadIdx.x < N` is the row guard that should have compared `row`
    src = WARP_ROWS
    assert findings(src, Language.CUDA) == [(line_of(src, "threadIdx.x >= N"), "BC105")]
