"""Cooperative groups name the thread indices too: a grid group's ``thread_rank()`` is the global
index ``blockIdx.x * blockDim.x + threadIdx.x`` (gsplat's kernels write ``idx =
cg::this_grid().thread_rank()``), so a store before the kernel's ``idx >= n`` exit is unguarded."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

KERNEL = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void project(const int n, const float* x, int* radii, float* y) {
    unsigned idx = cg::this_grid().thread_rank();
@EARLY@    if (idx >= n) {
        return;
    }
@LATE@    y[idx] = 2.0f * x[idx];
}
"""


def _kernel(early: str = "", late: str = "") -> str:
    return KERNEL.replace("@EARLY@", early).replace("@LATE@", late)


def test_a_store_before_the_exit_on_the_grid_rank_is_unguarded() -> None:
    src = _kernel(early="    radii[idx] = 0;\n")
    assert findings(src, Language.CUDA) == [(line_of(src, "radii[idx] = 0;"), "BC102")]


def test_a_store_after_the_exit_on_the_grid_rank_is_guarded() -> None:
    assert findings(_kernel(late="    radii[idx] = 0;\n"), Language.CUDA) == []


def test_a_block_rank_is_the_thread_index_and_bounds_nothing_of_the_grid() -> None:
    src = _kernel().replace("unsigned idx = cg::this_grid().thread_rank();",
                            "unsigned idx = cg::this_thread_block().thread_rank();").replace(
        "y[idx] = 2.0f * x[idx];", "y[blockIdx.x * blockDim.x + idx] = 2.0f;")
    assert findings(src, Language.CUDA) == [(line_of(src, "if (idx >= n)"), "BC105")]
