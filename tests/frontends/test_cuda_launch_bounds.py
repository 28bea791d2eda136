"""``__launch_bounds__(N)`` caps the block at N threads (a launch with more fails), so a kernel
no file of the run launches still has a thread reach: flashinfer's router GEMMs, generated per
(M, K), read ``mat_a[m * 6144 + k * 1024 + tid * 8]`` for m < 14, k < 6 under
``__launch_bounds__(128)``, inside each of the 14 rows of 6144. Without the bound, with a row the
walk overruns, with a block index that walks tiles along x, or with a larger bound, the read is
reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

ROUTER = """\
#define THREADS 128
__global__ BOUNDS void router(const float* __restrict__ mat_a, float* __restrict__ out) {
    const int tid = threadIdx.x;
    float acc[14];
    for (int m = 0; m < 14; m++) acc[m] = 0.0f;
    for (int ki = 0; ki < 6; ki++) {
        int k_base = ki * 1024 + tid * 8;
        for (int m = 0; m < 14; m++) {
            acc[m] += mat_a[ROW + k_base];
        }
    }
    out[blockIdx.x * 14 + tid % 14] = acc[tid % 14];
}
"""


def _router(bounds: str, row: str = "m * 6144") -> str:
    return ROUTER.replace("BOUNDS", bounds).replace("ROW", row)


@pytest.mark.parametrize("bounds", ["__launch_bounds__(128, 1)", "__launch_bounds__(THREADS)"])
def test_a_capped_block_walking_whole_rows_stays_inside_them(bounds: str) -> None:
    src = _router(bounds)
    assert (line_of(src, "mat_a["), "BC101") not in findings(src, Language.CUDA)


@pytest.mark.parametrize("bounds, row", [
    ("", "m * 6144"),
    ("__launch_bounds__(256)", "m * 6144"),
    ("__launch_bounds__(128)", "m * 6000"),
    ("__launch_bounds__(128)", "blockIdx.x * 86016 + m * 6144"),
])
def test_an_uncapped_block_an_overrun_row_or_a_tile_walk_is_reported(bounds: str, row: str) -> None:
    src = _router(bounds, row)
    assert (line_of(src, "mat_a["), "BC101") in findings(src, Language.CUDA)
