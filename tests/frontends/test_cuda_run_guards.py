"""A thread that writes a run of EPT elements (EPT a compile-time size) and tests the run's last
element (``tok + EPT - 1 < n``) bounds the whole run: the ``- 1`` names the last element, it is no
step below the lane, so BC104 stays silent. The same test with ``<=``, or without the run's size
(``tok - 1 < n``), lets an element reach ``n`` and stays BC104."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

RUNS = """\
template <int TM>
__global__ void store_runs(float* out, const float* acc, int seqlen) {
    constexpr int EPT = TM / 4;
    const int tok = blockIdx.x * TM + (threadIdx.x & 3) * EPT;
    if (GUARD) {
        for (int e = 0; e < EPT; e++) out[tok + e] = acc[e];
    } else {
        for (int e = 0; e < EPT; e++)
            if (tok + e < seqlen) out[tok + e] = acc[e];
    }
}
"""


def test_the_last_element_of_a_run_below_the_extent_is_no_off_by_one() -> None:
    assert findings(RUNS.replace("GUARD", "tok + EPT - 1 < seqlen"), Language.CUDA) == []


@pytest.mark.parametrize("guard", ["tok + EPT - 1 <= seqlen", "tok - 1 < seqlen"])
def test_a_run_guard_that_admits_the_extent_stays_reported(guard: str) -> None:
    src = RUNS.replace("GUARD", guard)
    assert findings(src, Language.CUDA) == [(line_of(src, "if (tok"), "BC104")]
