"""A divisibility the kernel's own documentation states in words is a contract, as an assert is:
``WARNING: This kernel assumes that K is a multiple of BLOCK_SIZE_K.`` in a Triton docstring
(S-LoRA's int4 GEMM, whose host asserts are commented out), ``// n must be a multiple of 256`` above
a CUDA kernel. A condition (``if``, ``when``), a negation, or a sentence about names the kernel does
not take states none."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from boundcheck.prose import stated_multiples
from tests.checking import at, findings

TRITON = '''\
import triton
import triton.language as tl


@triton.jit
def copy(x, y, K, BLOCK_SIZE_K: tl.constexpr):
    """Copies K values.
    DOC
    """
    offs = tl.program_id(0) * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
    tl.store(y + offs, tl.load(x + offs))  # COMMENT
'''


@pytest.mark.parametrize("doc, comment", [
    ("WARNING: This kernel assumes that K is a multiple of BLOCK_SIZE_K.", ""),
    ("K must be divisible by BLOCK_SIZE_K.", ""),
    ("", "K is always a multiple of BLOCK_SIZE_K here"),
])
def test_a_triton_kernel_documenting_its_divisibility_is_not_reported(doc: str, comment: str) -> None:
    assert findings(TRITON.replace("DOC", doc).replace("COMMENT", comment)) == []


@pytest.mark.parametrize("doc", [
    "If K is a multiple of BLOCK_SIZE_K no mask is needed.",
    "K is not a multiple of BLOCK_SIZE_K in general.",
    "M is a multiple of BLOCK_SIZE_K.",  # not a parameter of the kernel
    "K is a multiple of 16.",  # another size
])
def test_a_conditional_negated_or_unrelated_sentence_states_nothing(doc: str) -> None:
    src = TRITON.replace("DOC", doc).replace("COMMENT", "")
    assert findings(src) == at(src, "tl.store(y + offs", "BC101", "BC102")


CUDA = """\
// Scales x in place.
// DOC
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  x[i] = 2.0f * x[i];
}
"""


def test_a_cuda_kernel_documenting_its_divisibility_is_not_reported() -> None:
    assert findings(CUDA.replace("DOC", "n must be a multiple of 256."), Language.CUDA) == []


@pytest.mark.parametrize("doc", ["When n is a multiple of 256 no guard is needed.", "m must be a multiple of 256."])
def test_a_cuda_comment_that_states_no_contract_leaves_the_access_reported(doc: str) -> None:
    src = CUDA.replace("DOC", doc)
    assert findings(src, Language.CUDA) == at(src, "x[i] = 2.0f", "BC101", "BC102")


def test_stated_multiples_reads_the_tile_as_written() -> None:
    assert stated_multiples("N must be divisible by (BLOCK_N * 2); x is a multiple of 16.") == [
        ("N", "BLOCK_N * 2"), ("x", "16")]


def test_an_assumption_may_name_what_the_extent_sizes_and_leave_the_verb_unsaid() -> None:
    assert stated_multiples("assume width of weight matrix divisible by THREADS_X") == [("width", "THREADS_X")]
    assert stated_multiples("The width of the matrix must be a multiple of 32.") == [("width", "32")]
    assert stated_multiples("if the width of the matrix is a multiple of 32") == []


def test_a_cuda_comment_beside_the_index_may_name_a_file_constant_as_the_tile() -> None:
    src = """\
const int THREADS_X = 32;
__global__ void scale(float* x, int width) {
  int col = THREADS_X * blockIdx.x + threadIdx.x;  // assume width of weight matrix divisible by THREADS_X
  x[col] = 2.0f * x[col];
}
"""
    assert findings(src, Language.CUDA) == []
