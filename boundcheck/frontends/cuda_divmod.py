"""Quotient and remainder of one index, put back together.

A kernel that walks rows of T (``b = idx / T; t = idx % T;``) addresses ``b * T + t``, and its
guard ``idx < B * T`` bounds exactly that: in C's integer division ``(E / D) * D + E % D == E``
for every E and nonzero D (either sign). Read term by term, ``b`` and ``t`` would be two opaque
factors that no guard on ``idx`` bounds, so an access through them looks unguarded, and a
guard on the wrong index (``threadIdx.x < n``) goes unseen.
"""

from __future__ import annotations

from boundcheck.symbolic import Bin, Expr, Term, expand, render, sum_of, without


def recombined(index: Expr) -> Expr:
    """``index`` with every ``(E / D) * D * r + (E % D) * r`` pair of its terms written
    ``E * r``; the index itself where there is no such pair."""
    terms = expand(index)
    if not any(isinstance(f, Bin) and f.op == "%" for t in terms for f in t.factors):
        return index  # no remainder, so no pair to put back together (the common case)
    changed = False
    while True:
        pair = _divmod_pair(terms)
        if pair is None:
            break
        changed = True
        q, r, whole = pair
        terms = [t for t in terms if t is not q and t is not r] + whole
    return sum_of(terms) if changed else index


def _divmod_pair(terms: list[Term]) -> tuple[Term, Term, list[Term]] | None:
    for q in terms:
        for f in q.factors:
            if not (isinstance(f, Bin) and f.op == "/"):
                continue
            d = expand(f.right)
            if len(d) != 1 or d[0].coeff == 0:
                continue
            rest = without(q.factors, [render(g) for g in (f, *d[0].factors)])
            if rest is None:
                continue
            for r in terms:
                if r is q or r.coeff != q.coeff * d[0].coeff:
                    continue
                g = next((g for g in r.factors if isinstance(g, Bin) and g.op == "%"
                          and g.left == f.left and g.right == f.right), None)
                if g is None or _key([h for h in r.factors if h is not g]) != _key(rest):
                    continue
                whole = [Term(r.coeff * e.coeff, e.factors + tuple(rest)) for e in expand(f.left)]
                return q, r, whole
    return None


def _key(factors: list[Expr]) -> list[str]:
    return sorted(render(f) for f in factors)
