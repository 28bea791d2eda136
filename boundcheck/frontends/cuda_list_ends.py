"""Lists a kernel keeps one entry past a count: an exclusive scan of n values stores its total at
index n (``list[n] = total``), so a copy of the scan under ``i <= n`` walks the list's n + 1 entries
and its inclusive bound is intended, not one past the end (BC104)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from boundcheck.model import Access, AccessKind
from boundcheck.symbolic import Expr, collect, expand, lanes, terms_text

if TYPE_CHECKING:
    from boundcheck.frontends.cuda_kernel import Rec


def _text(e: Expr) -> str:
    return terms_text(collect(expand(e)))


def inclusive_ends(recs: list[Rec], accesses: list[Access]) -> list[Access]:
    """``accesses`` (one per record) with each ``i <= n`` guard read as ``i < n + 1`` where the
    kernel writes, at index n itself, a list that guard covers."""
    # a size written as an index (`list[n] = total`), not an element read (`a[a[i]] = …`)
    ends = {(r.buffer, _text(r.index)) for r in recs
            if r.kind is AccessKind.WRITE and not lanes(r.index) and "[" not in _text(r.index)}
    if not ends:
        return accesses
    spans = {g.bound.span for r in recs for g in r.guards
             if g.bound.op == "<=" and not g.bound.limit_slack and (r.buffer, _text(g.sides[1])) in ends}
    if not spans:
        return accesses
    return [replace(a, guards=tuple(replace(b, op="<", limit=f"{b.limit} + 1") if b.span in spans and b.op == "<="
                                    else b for b in a.guards)) for a in accesses]
