"""Lists a kernel keeps one entry past a count: an exclusive scan of n values stores its total at
index n (``list[n] = total``), so a copy of the scan under ``i <= n`` walks the list's n + 1 entries
and its inclusive bound is intended, not one past the end (BC104). Likewise a decoder's scores
``qk_smem[t - first] = qk`` for the current step t, walked by ``ti <= t`` at ``qk_smem[ti - first]``.
Reading the list at n (``total = offsets[n]``), or at ``j + 1`` under ``j < n`` (a CSR row's end,
``offsets[j + 1] - offsets[j]``), or writing it where the index equals n (``if (i == n)
offsets[i] = total;``, a CSR's sentinel), or an exclusive scan into it (``list[0] = 0;`` then
``list[j + 1] = list[j] + v[j]`` for ``j < n``), says the same of it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from boundcheck.model import Access, AccessKind
from boundcheck.symbolic import (
    Bin,
    Expr,
    Kind,
    Num,
    collect,
    expand,
    lanes,
    rows_one_past,
    substitute,
    syms,
    terms_text,
)

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


def inclusive_ends(recs: list[Rec], accesses: list[Access], ranges: dict[str, tuple[int, Expr, str]]) -> list[Access]:
    """``accesses`` (one per record) with each ``i <= n`` (or ``i < n + 1``) guard read as ``i < n
    + 1`` where the kernel uses, at index n itself, a list that guard covers. ``ranges``: counted
    loops from 0, by counter (``cuda_kernel``'s ``loop_ranges``: step, limit, operator)."""
    inclusive = [(r, g) for r in recs for g in r.guards if g.bound.inclusive]
    if not inclusive:
        return accesses  # (most kernels: the evidence below costs an expansion per read and guard)
    # a row of n + 1 entries: `out[row * (K + 1) + col]` under `col <= K`
    pitched = {g.bound.span for r, g in inclusive if g.bound.limit in rows_one_past(r.index)}
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
    # an exclusive scan: `list[0] = 0; list[j + 1] = list[j] + v[j]` for j < n, a counted loop,
    # stores n + 1 entries (not a write at `tid + 1` under a lane's guard: a block's halo, whose
    # shared slots say nothing of the extent the guard bounds)
    starts = {r.buffer for r in recs if r.kind is not AccessKind.READ and _text(r.index) in ("", "0")}
    for r in recs:
        if r.kind is AccessKind.READ or r.buffer not in starts:
            continue
        counters = {v.name for v in syms(r.index) if v.kind is Kind.LOOP}
        ends |= {(r.buffer, _text(substitute(r.index, {name: Bin("-", limit, Num(1))})))
                 for name, (step, limit, op) in ranges.items() if name in counters and op == "<" and step == 1}
    # the access's index where the guarded index reaches the limit: `s[i - first]` under `i <= n`
    # reaches `s[n - first]`
    spans = pitched | {g.bound.span for r, g in inclusive if (r.buffer, _reach(r.index, *_top(g))) in ends}
    if not spans:
        return accesses
    return [replace(a, guards=tuple(b.on_n_plus_one() if b.span in spans else b for b in a.guards)) for a in accesses]


def _top(g: Guard) -> tuple[Expr, Expr]:
    """(the guarded index, the last value an inclusive guard lets it take)."""
    return _last(g) if g.bound.op == "<" else g.sides
