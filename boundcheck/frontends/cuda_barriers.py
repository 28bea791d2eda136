"""Calls that every thread of a block must reach.

A ``__syncthreads()`` is one; so is a CUB block collective (``BlockReduce(tmp).Sum(v)`` syncs the
block inside, and its documentation requires every thread to call it), and so is a call of a
``__device__`` helper that makes one (``float m = block_max(v);`` with the barrier in the helper).
A thread that returns before any of them leaves the others waiting.
"""

from __future__ import annotations

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import callee
from boundcheck.frontends.cuda_parse import child_list, preorder

K = ci.CursorKind

BARRIERS = frozenset({"__syncthreads", "__syncthreads_or", "__syncthreads_and", "__syncthreads_count"})
# CUB's block-wide collectives: each method is a cooperative call of the whole block
_COLLECTIVES = frozenset({"BlockReduce", "BlockScan", "BlockRadixSort", "BlockExchange", "BlockHistogram",
                          "BlockAdjacentDifference", "BlockDiscontinuity", "BlockMergeSort"})
# the collectives' methods (a dependent call, `BR(tmp).Sum(v)` in a template, has no name at all)
_METHODS = frozenset({"", "Reduce", "Sum", "InclusiveSum", "ExclusiveSum", "InclusiveScan", "ExclusiveScan",
                      "Sort", "SortDescending", "SortBlockedToStriped", "SortDescendingBlockedToStriped",
                      "BlockedToStriped", "StripedToBlocked", "BlockedToWarpStriped", "WarpStripedToBlocked",
                      "ScatterToBlocked", "ScatterToStriped", "Histogram", "Composite", "InitHistogram",
                      "FlagHeads", "FlagTails", "FlagHeadsAndTails", "SubtractLeft", "SubtractRight"})
_DEPTH = 3  # helpers followed, as the walker inlines them


def _collective(call: ci.Cursor) -> bool:
    """``BlockReduce(tmp).Reduce(v, op)``: a method of a CUB block collective (also where a
    dependent template argument leaves the call unresolved: the object's type names the class)."""
    ref = call.referenced
    owner = ref.semantic_parent if ref is not None and ref.kind in (K.CXX_METHOD, K.FUNCTION_TEMPLATE) else None
    if owner is not None:
        return owner.spelling in _COLLECTIVES
    member = next((k for k in child_list(call) if k.kind == K.MEMBER_REF_EXPR), None)
    if member is None:
        return False
    base = next(iter(child_list(member)), None)
    spelled = base.type.get_canonical().spelling if base is not None else ""
    return any(f"{name}<" in spelled for name in _COLLECTIVES)


class Barriers:
    """Which calls synchronise the block, with each helper's answer kept."""

    def __init__(self, helpers: dict[str, ci.Cursor]) -> None:
        self.helpers = helpers
        self._syncs: dict[str, bool] = {}

    def __call__(self, call: ci.Cursor, depth: int = 0) -> bool:
        name = callee(call)
        if name in BARRIERS or name in _METHODS and _collective(call):
            return True
        helper = self.helpers.get(name)
        if helper is None or depth >= _DEPTH:
            return False
        if name not in self._syncs:
            self._syncs[name] = False  # a recursive helper reaches itself: no barrier by that path
            body = next((k for k in child_list(helper) if k.kind == K.COMPOUND_STMT), None)
            self._syncs[name] = body is not None and any(
                c.kind == K.CALL_EXPR and self(c, depth + 1) for c in preorder(body))
        return self._syncs[name]

    @staticmethod
    def made_in(call: ci.Cursor) -> str:
        """The helper or collective a barrier call is (``compute_max``, ``Sum``); "" for the builtin."""
        name = callee(call) or _member_name(call)
        return "" if name in BARRIERS else name


def _member_name(call: ci.Cursor) -> str:
    """``Sum`` of a dependent ``BR(tmp).Sum(v)``: the word before the argument list's ``(``."""
    tokens = [t.spelling for t in call.get_tokens()]
    depth = 0
    for i in range(len(tokens) - 1, 0, -1):
        depth += {")": 1, "(": -1}.get(tokens[i], 0)
        if depth == 0:
            return tokens[i - 1]
    return "call"
