"""An index that swaps neighbours (``rk_swap = rk + ((rk + 1) % 2) * 2 - 1``: 1, 0, 3, 2, …, as
rotary kernels load their odd and even halves) holds its lane in two terms, so the ``- 1`` is no
offset of the lane: ``rk_swap < n`` bounds the index the load reads, in both languages. The
same test written ``<=`` is still an off-by-one."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

TRITON = '''\
import triton
import triton.language as tl


@triton.jit
def swap_pairs(X, OUT, n, BLOCK: tl.constexpr):
    rk = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    rk_swap = rk + ((rk + 1) % 2) * 2 - 1
    x1 = tl.load(X + rk_swap, mask=rk_swap OP n, other=0.0)
    tl.store(OUT + rk, x1, mask=rk < n)
'''

CUDA = """\
__global__ void swap_pairs(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = i + ((i + 1) % 2) * 2 - 1;
    if (i < n && j OP n) out[i] = x[j];
}
"""


@pytest.mark.parametrize(("src", "language"), [(TRITON, Language.TRITON), (CUDA, Language.CUDA)])
def test_a_strict_bound_on_a_swapped_index_is_no_off_by_one(src: str, language: Language) -> None:
    assert findings(src.replace("OP", "<"), language) == []


@pytest.mark.parametrize(("src", "language"), [(TRITON, Language.TRITON), (CUDA, Language.CUDA)])
def test_an_inclusive_bound_on_a_swapped_index_is_one(src: str, language: Language) -> None:
    src = src.replace("OP", "<=")
    assert findings(src, language) == at(src, "<= n", "BC104")
