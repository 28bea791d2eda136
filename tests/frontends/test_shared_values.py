"""A value built from itself over and over (a sorting network's ``x = f(x, x)``, warp_sort-style
helpers) is a tree that doubles with every step; boundcheck keeps it shared and replaces a value
too large to be an index by an opaque one, so the kernel is analysed in linear time and its
accesses are still checked."""

from __future__ import annotations

from boundcheck.model import Language
from boundcheck.symbolic import Bin, Kind, Num, Sym, tree_size
from tests.checking import findings, line_of


def test_tree_size_counts_shared_subexpressions_without_walking_them() -> None:
    e = Sym("x", Kind.OTHER)
    for _ in range(60):
        e = Bin("+", e, e)  # 2**61 - 1 nodes as a tree, 61 objects
    assert tree_size(e, 1000) == 1001
    assert tree_size(Bin("*", Num(2), Sym("y", Kind.OTHER)), 1000) == 3


DOUBLING = "\n".join(f"    v = fmaxf(v, v + {i}.f);" for i in range(30))

KERNEL = f'''\
__global__ void network(const float* x, float* y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
{DOUBLING}
    y[i] = v;
}}
'''


def test_a_value_doubled_thirty_times_is_analysed_and_its_accesses_checked() -> None:
    found = findings(KERNEL, Language.CUDA)
    assert (line_of(KERNEL, "float v = x[i];"), "BC101") in found
    assert (line_of(KERNEL, "y[i] = v;"), "BC102") in found


TRITON_DOUBLING = "\n".join(f"    o = o + o * 0\n    v = tl.maximum(v, v + {i})" for i in range(30))

TRITON = f'''\
import triton
import triton.language as tl


@triton.jit
def network(X, Y, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    o = offs
    v = tl.load(X + offs)
{TRITON_DOUBLING}
    tl.store(Y + offs, v, mask=offs < n)
'''


def test_a_triton_value_doubled_thirty_times_is_analysed() -> None:
    assert findings(TRITON) == [(line_of(TRITON, "v = tl.load(X + offs)"), "BC101")]
