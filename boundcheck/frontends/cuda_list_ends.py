"""Lists a kernel keeps one entry past a count: an exclusive scan of n values stores its total at
index n (``list[n] = total``), so a copy of the scan under ``i <= n`` walks the list's n + 1 entries
and its inclusive bound is intended, not one past the end (BC104). Likewise a decoder's scores
``qk_smem[t - first] = qk`` for the current step t, walked by ``ti <= t`` at ``qk_smem[ti - first]``.
Reading the list at n (``total = offsets[n]``), or at ``j + 1`` under ``j < n`` (a CSR row's end,
``offsets[j + 1] - offsets[j]``), or writing it where the index equals n (``if (i == n)
offsets[i] = total;``, a CSR's sentinel), says the same of it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from boundcheck.model import Access, AccessKind
from boundcheck.symbolic import Bin, Expr, Num, collect, expand, lanes, terms_text

if TYPE_CHECKING:
    from boundcheck.frontends.cuda_kernel import Guard, Rec


def _text(e: Expr) -> str:
    return terms_text(collect(expand(e)))


def _reach(index: Expr, guarded: Expr, limit: Expr) -> str:
    """``index`` where ``guarded`` equals ``limit``: ``s[i - first]`` under ``i <= n`` reaches
    ``s[n - first]`` (scaled where the index counts bytes of a typed view and the guard elements)."""
    scale: float = 1
    ours, theirs = _lane_coefficient(index), _lane_coefficient(guarded)
    if ours and theirs:
        scale = ours / theirs
    factor = Num(int(scale)) if float(scale).is_integer() else Num(scale)
    return _text(Bin("+", index, Bin("*", factor, Bin("-", limit, guarded))))


def _last(g: Guard) -> tuple[Expr, Expr]:
    """(the guarded index, the last value a strict bound lets it take): ``j < n`` lets j reach n - 1."""
    guarded, limit = g.sides
    return guarded, Bin("-", limit, Num(1))


def _lane_coefficient(e: Expr) -> float | None:
    return next((t.coeff for t in expand(e) if len(t.factors) == 1 and lanes(t.factors[0])), None)


def inclusive_ends(recs: list[Rec], accesses: list[Access]) -> list[Access]:
    """``accesses`` (one per record) with each ``i <= n`` guard read as ``i < n + 1`` where the
    kernel uses, at index n itself, a list that guard covers."""
    inclusive = [(r, g) for r in recs for g in r.guards if g.bound.op == "<=" and not g.bound.limit_slack]
    if not inclusive:
        return accesses  # (most kernels: the evidence below costs an expansion per read and guard)
    # a size used as an index (`list[n] = total`, `s[n - first] = qk`, `total = list[n]`), not an
    # element read (`a[a[0]] = …`); and the last index a strict bound lets a read through (a row's
    # end `list[j + 1]` under `j < n`; a write there may be a list shifted by one, `s_scan = s + 1`)
    ends = {(r.buffer, _text(r.index)) for r in recs
            if not lanes(r.index) and not _text(r.index).endswith("]")}
    # written where the index equals the count (`if (i == n) offsets[i] = total;`, a CSR's sentinel)
    ends |= {(r.buffer, _reach(r.index, guarded, value)) for r in recs if r.kind is not AccessKind.READ
             for guarded, value in r.equal}
    ends |= {(r.buffer, _reach(r.index, *_last(g))) for r in recs if r.kind is AccessKind.READ
             for g in r.guards if g.bound.op == "<" and not g.bound.limit_slack}
    if not ends:
        return accesses
    # the access's index where the guarded index reaches the limit: `s[i - first]` under `i <= n`
    # reaches `s[n - first]`
    spans = {g.bound.span for r, g in inclusive if (r.buffer, _reach(r.index, *g.sides)) in ends}
    if not spans:
        return accesses
    return [replace(a, guards=tuple(replace(b, op="<", limit=f"{b.limit} + 1") if b.span in spans and b.op == "<="
                                    else b for b in a.guards)) for a in accesses]
