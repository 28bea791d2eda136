"""A warp's lanes guarded against the row length they index inside (``elem = lane * 4; if (elem <
128)`` over ``(token * H + head) * 128 + elem``): the lanes stay inside their row whatever rows a
warp index or a runtime pitch adds (flashinfer's KDA decode kernels read q, k and the gate that
way, the gate's row at ``token * g_stride_token + head * 128``). A vector of 4 at multiples of 4
under a limit that is a multiple of 4 is whole below it. Stays reported: a pitch other than the
guard's limit, the guarded lane in the pitch term, a vector off its alignment, a limit no multiple
of the vector."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

KERNEL = """\
#include <cuda_bf16.h>
__global__ void k(const __nv_bfloat16* q, float* out, int H, int stride_token) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    int head = blockIdx.y;
    int elem = lane * 4;
    int base = ROW;
    if (elem < LIMIT) {
        ACCESS
    }
}
"""
SCALAR = "out[blockIdx.x] = (float)q[base];"
VECTOR = "uint2 v = *reinterpret_cast<const uint2*>(q + base); out[blockIdx.x] = (float)v.x;"


def _kernel(row: str, limit: str, access: str) -> str:
    return KERNEL.replace("ROW", row).replace("LIMIT", limit).replace("ACCESS", access)


@pytest.mark.parametrize("row, access", [
    ("(warp * H + head) * 128 + elem", SCALAR),
    ("(warp * H + head) * 128 + elem", VECTOR),
    ("warp * stride_token + head * 128 + elem", VECTOR),
    ("blockIdx.x * stride_token + head * 128 + elem", SCALAR),
])
def test_lanes_guarded_by_their_row_length_stay_in_the_row(row: str, access: str) -> None:
    assert findings(_kernel(row, "128", access), Language.CUDA) == []


@pytest.mark.parametrize("row, limit, access, code", [
    ("(warp * H + head) * 100 + elem", "128", SCALAR, "BC101"),
    ("lane * stride_token + head * 128 + elem", "128", SCALAR, "BC101"),
    ("(warp * H + head) * 128 + elem + 2", "128", VECTOR, "BC101"),
    ("(warp * H + head) * 126 + elem", "126", VECTOR, "BC106"),
])
def test_a_row_the_guard_does_not_measure_is_reported(row: str, limit: str, access: str, code: str) -> None:
    src = _kernel(row, limit, access)
    assert findings(src, Language.CUDA) == [(line_of(src, "out[blockIdx.x]"), code)]
