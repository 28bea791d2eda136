"""BC104 reads the constant a comparison itself adds past the extent. A limit written as one name
(``u < myGLen`` with ``myGLen = txtLen + 1``: the author sizes the dimension txtLen + 1) and a
ceiling (``i < (n - 1) / 32 + 1``) reach no element past the extent; ``<=`` against them, and a
``+ 1`` written in the comparison, still do. A descending index's constants are no lane offset."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

KERNEL = '''\
__global__ void k(const float* x, float* y, const int* lens, int n) {
    int u = threadIdx.x;
    const int len = lens[blockIdx.x] + 1;
    const int last = n - 1;
    if (@COND@) {
        y[blockIdx.x * 1024 + u] = x[blockIdx.x * 1024 + u];
    }
}
'''


@pytest.mark.parametrize("cond", ["u < len", "u < (n - 1) / 32 + 1", "u <= last", "u < n"])
def test_sized_limits_are_no_off_by_one(cond: str) -> None:
    src = KERNEL.replace("@COND@", cond)
    assert not any(code == "BC104" for _, code in findings(src, Language.CUDA)), cond


@pytest.mark.parametrize("cond", ["u <= len", "u < lens[blockIdx.x] + 2", "u <= (n - 1) / 32 + 1", "u <= n"])
def test_limits_that_reach_past_the_extent_are_reported(cond: str) -> None:
    src = KERNEL.replace("@COND@", cond)
    assert (line_of(src, "if ("), "BC104") in findings(src, Language.CUDA), cond


def test_a_descending_index_base_is_no_lane_offset() -> None:
    src = KERNEL.replace("@COND@", "n + 1 - 2 - u < n").replace("x[blockIdx.x * 1024 + u]", "x[n - 1 - u]")
    assert not any(code == "BC104" for _, code in findings(src, Language.CUDA))
