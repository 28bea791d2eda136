"""A bool flag a kernel passes to a device helper (``bool active = threadIdx.x < block_size;``,
then ``epilogue(…, active)`` whose body stores under ``if (active)``) holds in the helper what it
holds in the caller: the helper's store is guarded by the caller's test. A flag of another test,
or none, guards nothing."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import at, findings

SRC = """\
__device__ void epilogue(float* out, const float* in, int idx, bool active) {
    if (active) out[idx] = in[idx] * 2.0f;
}
__global__ void fused(float* out, const float* in, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    bool active = FLAG;
    epilogue(out, in, idx, active);
}
void run(float* out, const float* in, int n) { fused<<<(n + 255) / 256, 256>>>(out, in, n); }
"""


def test_a_flag_passed_to_a_helper_guards_its_store() -> None:
    assert findings(SRC.replace("FLAG", "idx < n"), Language.CUDA) == []


def test_a_flag_of_another_test_guards_nothing() -> None:
    src = SRC.replace("FLAG", "idx > 0")
    assert findings(src, Language.CUDA) == sorted(at(src, "if (active) out[idx]", "BC102", "BC101"))
