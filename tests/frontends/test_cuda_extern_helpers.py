"""A host helper declared ``extern`` in one file and defined in another file of the run is read
from its definition: an odd-part helper (``factorRadix2``-style) asserted to return 1 makes the
length a power of two in the launching file as it would beside the helper. Analysed alone, or
beside a helper that does not strip factors of two, or with the helper's definition in two places
near the caller, the floored grid is still reported. (A file is read when it holds a kernel or a
launch: a helper file of host code alone is not parsed, so not read.)"""

from __future__ import annotations

from pathlib import Path

from tests.checking import line_of, run_tree
from tests.frontends.test_cuda_precision6 import ODD_PART

# the sorting network of test_cuda_precision6, with its odd-part helper moved to a file beside it
_BODY = ODD_PART[ODD_PART.index("unsigned odd_part"):ODD_PART.index("void sort_batches")]

HELPER = """\
__global__ void fill(unsigned* keys, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        keys[i] = 0;
}

""" + 'extern "C" ' + _BODY

SORT = ODD_PART.replace(_BODY, 'extern "C" unsigned odd_part(unsigned* shifts, unsigned n);\n\n')

UNREAD = [("sort.cu", line_of(SORT, "unsigned blocks ="), "BC302"), ("sort.cu", line_of(SORT, "/ 512, 256"), "BC302")]


def test_a_helper_defined_in_a_sibling_file_is_read_at_the_call(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"helper.cu": HELPER, "sort.cu": SORT}) == []


def test_the_launching_file_alone_keeps_the_finding(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"helper.cu": HELPER, "sort.cu": SORT}, only="sort.cu") == UNREAD


def test_a_sibling_helper_that_strips_factors_of_three_proves_nothing(tmp_path: Path) -> None:
    thirds = HELPER.replace("(n & 1) == 0; n >>= 1", "n % 3 == 0; n /= 3")
    assert run_tree(tmp_path, {"helper.cu": thirds, "sort.cu": SORT}) == UNREAD


def test_a_static_helper_of_another_file_is_not_the_one_called(tmp_path: Path) -> None:
    private = HELPER.replace('extern "C" unsigned odd_part', "static unsigned odd_part")
    assert private != HELPER
    assert run_tree(tmp_path, {"helper.cu": private, "sort.cu": SORT}) == UNREAD


def test_two_definitions_near_the_caller_leave_the_call_unread(tmp_path: Path) -> None:
    thirds = HELPER.replace("(n & 1) == 0; n >>= 1", "n % 3 == 0; n /= 3")
    found = run_tree(tmp_path, {"a/helper.cu": HELPER, "a/other/helper.cu": thirds, "a/sort.cu": SORT})
    assert found == UNREAD


def test_a_helper_in_an_unrelated_directory_is_not_read(tmp_path: Path) -> None:
    found = run_tree(tmp_path, {"lib/x/y/helper.cu": HELPER, "app/sort.cu": SORT})
    assert found == UNREAD


def test_the_process_pool_hands_the_summary_over_too(tmp_path: Path) -> None:
    files = {"helper.cu": HELPER, "sort.cu": SORT}
    files |= {f"pad{i}.cu": f"__global__ void k{i}(float* x, int n) {{ x[n] = 0.f; }}\n" for i in range(30)}
    found = run_tree(tmp_path, files, jobs=2)
    assert found == []
