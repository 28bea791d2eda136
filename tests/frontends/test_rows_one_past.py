"""A row of n + 1 entries: an address that steps a row index by ``n + 1`` (``out + row * (K + 1)
+ col``, a prefix list per row, a schedule of ``NUM_SMS + 1`` pairs) holds K + 1 entries, so
``col <= K`` walks to its last entry and is no off-by-one (BC104). So does a Triton parameter whose
own comment documents n + 1 entries (``offsets_ptr,  # [num_reqs + 1] int32``). A row pitch of K,
or another documented size, keeps it one."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

TRITON = '''\
import triton
import triton.language as tl


@triton.jit
def emit_regions(Current, Out, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    current = tl.load(Current + row)
    col = tl.arange(0, BLOCK)
    region = col - (K - current)
    tl.store(Out + row.to(tl.int64) * (PITCH) + col, tl.where(region >= 0, region, -1), col <= K)
'''

CUDA = """\
__global__ void emit_regions(const int* current, int* out, int K) {
    int row = blockIdx.x;
    int col = threadIdx.x;
    if (col <= K) out[row * (PITCH) + col] = col - (K - current[row]);
}
"""


@pytest.mark.parametrize(("src", "language"), [(TRITON, Language.TRITON), (CUDA, Language.CUDA)])
def test_a_row_of_n_plus_one_entries_is_walked_to_its_end(src: str, language: Language) -> None:
    assert findings(src.replace("PITCH", "K + 1"), language) == []


@pytest.mark.parametrize(("src", "language", "guard"), [(TRITON, Language.TRITON, "tl.store("),
                                                        (CUDA, Language.CUDA, "if (col <= K)")])
@pytest.mark.parametrize("pitch", ["K", "K + 2", "2 * K"])
def test_a_row_of_another_length_keeps_the_off_by_one(src: str, language: Language, guard: str, pitch: str) -> None:
    src = src.replace("PITCH", pitch)
    assert (line_of(src, guard), "BC104") in findings(src, language)


OFFSETS = '''\
import triton
import triton.language as tl


@triton.jit
def fill_offsets(
    out_ptr,  # SHAPE int32
    num_reqs,
    total,
    BLOCK: tl.constexpr,
):
    block = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + block, total, mask=block <= num_reqs)
'''


def test_a_list_its_parameter_documents_as_n_plus_one_entries_is_walked_to_its_end() -> None:
    assert findings(OFFSETS.replace("SHAPE", "[num_reqs + 1]")) == []


@pytest.mark.parametrize("shape", ["[num_reqs]", "[num_reqs + 2]", "num_reqs + 1"])
def test_another_documented_size_or_no_shape_keeps_the_off_by_one(shape: str) -> None:
    src = OFFSETS.replace("SHAPE", shape)
    assert findings(src) == [(line_of(src, "tl.store("), "BC104")]


def test_a_comment_on_a_line_of_several_parameters_is_not_read_as_one_of_theirs() -> None:
    src = OFFSETS.replace("    out_ptr,  # SHAPE int32\n    num_reqs,\n", "    out_ptr, num_reqs,  # [num_reqs + 1]\n")
    assert findings(src) == [(line_of(src, "tl.store("), "BC104")]
