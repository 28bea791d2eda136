"""A loop over groups of U elements (``for (j = tid; j < N / U; …) { i = j * U; … }``) that reads
its group with vectors of a width dividing U (two ``__half2`` of a group of four) keeps every lane
of every vector below U * (N / U) <= N: the guard counts groups, not first lanes. The group size
may be a literal or a ``const`` local. A group narrower than the vector (``N / 1`` read as
``__half2``) still checks the first lane only."""

from boundcheck.model import Language
from tests.checking import findings, line_of

GROUPS = """\
#include <cuda_fp16.h>
__global__ void scale_groups(const int N, const float scale, __half* out, const __half* x) {
    const int unroll = UNROLL;
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < N / unroll; j += blockDim.x * gridDim.x) {
        int i = j * unroll;
        const __half2* v = reinterpret_cast<const __half2*>(x + i);
        float2 a = __half22float2(v[0]);
        float2 b = __half22float2(v[1]);
        out[i] = __float2half(a.x * scale);
        out[i + 1] = __float2half(a.y * scale);
        out[i + 2] = __float2half(b.x * scale);
        out[i + 3] = __float2half(b.y * scale);
    }
}
"""

LOOP = line_of(GROUPS, "for (int j = ")


def test_vectors_inside_a_counted_group_are_in_bounds() -> None:
    # the tail N % 4 is skipped (BC301 says so); no vector reads past N
    assert findings(GROUPS.replace("UNROLL", "4"), Language.CUDA) == [(LOOP, "BC301")]


def test_a_group_narrower_than_the_vector_leaves_its_last_lane_unchecked() -> None:
    src = GROUPS.replace("UNROLL", "1").replace("out[i + 1]", "// out[i + 1]").replace(
        "out[i + 2]", "// out[i + 2]").replace("out[i + 3]", "// out[i + 3]").replace(
        "        float2 b = __half22float2(v[1]);\n", "").replace("b.x", "a.x").replace("b.y", "a.y")
    assert (line_of(src, "float2 a = __half22float2(v[0]);"), "BC106") in findings(src, Language.CUDA)
