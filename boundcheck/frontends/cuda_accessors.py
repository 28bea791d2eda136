"""Elements of PyTorch tensor accessors: ``out[n][c][h][w]`` on a ``PackedTensorAccessor32<T, 4>``.

An extension kernel indexes its tensors through accessors, whose ``operator[]`` does not check its
index: ``out[n][c][h][w] = v`` with ``h = blockIdx.y * blockDim.y + threadIdx.y`` and no ``h < H``
writes past the tensor's row as ``p[(n * C + c) * H * W + h * W + w]`` would. A chain of as many
subscripts as the accessor has dimensions, from a kernel parameter, is one access of the tensor at
the row-major position its indices name, each dimension's extent ``acc.size(d)``. Inside a template
the chain is a nest of array subscripts; with concrete types, calls of ``operator[]``.
"""

from __future__ import annotations

import re

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import children, strip

K = ci.CursorKind
_ACCESSOR = re.compile(r"TensorAccessor\w*<(?:[^<>,]|<[^<>]*>)+,\s*(\d+)")


def accessor_rank(t: ci.Type) -> int | None:
    """The number of dimensions of an accessor type (``PackedTensorAccessor32<float, 4, …>``)."""
    for spelling in (t.get_canonical().spelling, t.spelling):
        m = _ACCESSOR.search(spelling)
        if m:
            return int(m.group(1))
    return None


def element(c: ci.Cursor) -> tuple[str, list[ci.Cursor]] | None:
    """The accessor parameter and the indices, outermost dimension first, of a subscript chain that
    reaches one element of it; None for a partial chain (a row accessor) or anything else."""
    indices: list[ci.Cursor] = []
    node = strip(c)
    while True:
        kids = children(node)
        if node.kind == K.ARRAY_SUBSCRIPT_EXPR and len(kids) == 2:
            indices.append(kids[1])
            node = strip(kids[0])
        elif node.kind == K.CALL_EXPR and node.spelling == "operator[]" and len(kids) == 3:
            indices.append(kids[2])
            node = strip(kids[0])
        else:
            break
    decl = node.referenced if node.kind == K.DECL_REF_EXPR and indices else None
    if decl is None or decl.kind != K.PARM_DECL or accessor_rank(decl.type) != len(indices):
        return None  # a helper's pointer of an accessor's name is no accessor
    return node.spelling, indices[::-1]
