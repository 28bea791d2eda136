"""A thread's group of consecutive elements, walked by a counted loop.

A kernel that gives each thread W consecutive elements often walks them with a short loop rather
than a vector type: ``for (j = 0; j < 4; j++) y[4 * g + j] = x[4 * g + j];`` (or, byte-wise, ``enc[K *
i + c]`` for i < 8 and c < K inside a group of 8 * K). The group starts at the index without the
loop's terms (``4 * g``) and is W wide, W being one past the loop terms' largest value, equal to
the step between two lanes' groups. A guard on the group's start (``4 * g < n``) checks its first
element only, as a first-lane guard of a ``float4`` does; one on the element itself (``4 * g + j <
n``) checks every element.
"""

from __future__ import annotations

from dataclasses import dataclass

from boundcheck.symbolic import (
    Bin,
    Expr,
    Kind,
    Num,
    Sym,
    Term,
    collect,
    divided,
    expand,
    kinds,
    lanes,
    render,
    sum_of,
    syms,
    terms_text,
    variable,
)


@dataclass(frozen=True)
class Group:
    start: Expr  # the index of the group's first element (the access index without the loop terms)
    offsets: frozenset[str]  # the loop terms' text (see ``terms_text``), each a term of the access index
    width: int | None  # elements in the group, where it is a number
    width_terms: tuple[Term, ...]  # the width in terms of compile-time sizes (``8 * K``)

    def counts(self, bounded: Expr) -> bool:
        """``bounded`` counts groups: the start holds each of its terms times the width (``lane <
        kHc4`` over ``x[2 * kHc4 + lane * kHc4 + k]``), and every term of it is a multiple of the
        width, so the groups the guard counts are whole (``row * P + 4 * i`` under ``i < cdiv(V,
        4)`` is no such count: its row need not hold whole groups)."""
        if len(self.width_terms) != 1:
            return False
        (w,) = self.width_terms
        start = expand(self.start)
        mine = {terms_text([t]) for t in variable(start)}
        lane_terms = [t for t in variable(expand(bounded)) if any(lanes(f) for f in t.factors)]
        return bool(lane_terms) and divided([t for t in start if t.coeff], sum_of([w])) is not None and all(
            terms_text([Term(t.coeff * w.coeff, t.factors + w.factors)]) in mine for t in lane_terms)


def group_of(index: Expr, loops: dict[str, tuple[int, Expr, str]], values: dict[str, int | None]) -> Group | None:
    """The group an access walks, where ``index`` adds counted loop terms (a counter from
    ``loops``, stepped by 1 to a compile-time limit, times compile-time sizes) to a lane that steps
    by exactly the group's width; None otherwise (a stencil's ``x[i + j]`` overlaps its
    neighbour's elements, a row loop's ``j * N`` steps by a runtime size)."""
    terms = expand(index)
    offsets = [t for t in terms if counted(t, loops)]
    if not offsets:
        return None
    counters = [_counter(t) for t in offsets]
    rest = [t for t in terms if t not in offsets]
    if len(set(counters)) != len(counters) or any(s.name in counters for t in rest for f in t.factors for s in syms(f)):
        return None
    width = collect([Term(1, ()), *reach(offsets, loops)])
    text = terms_text(width)
    # the step between two lanes' groups: each lane's whole coefficient (`(3 + C) * lane` steps by
    # 3 + C, no group of 3)
    steps: dict[str, list[Term]] = {}
    for t in rest:
        for f in (f for f in t.factors if lanes(f)):
            steps.setdefault(render(f), []).append(Term(t.coeff, tuple(g for g in t.factors if g is not f)))
    if not any(terms_text(collect(step)) == text for step in steps.values()):
        return None
    number = _number(width, values)
    if number is not None and number < 2:
        return None
    return Group(sum_of(rest), frozenset(terms_text([t]) for t in offsets), number, tuple(width))


def reach(terms: list[Term], loops: dict[str, tuple[int, Expr, str]]) -> list[Term]:
    """The largest value of counted loop terms (each one :func:`counted`): ``K * i + c`` for ``i <
    8``, ``c < K`` reaches ``7 * K + K - 1``."""
    out: list[Term] = []
    for t in terms:
        name = _counter(t)
        _, limit, op = loops[name]
        last = limit if op == "<=" else Bin("-", limit, Num(1))
        others = tuple(f for f in t.factors if f != Sym(name, Kind.LOOP))
        out += [Term(t.coeff * r.coeff, others + r.factors) for r in expand(last)]
    return out


def counted(t: Term, loops: dict[str, tuple[int, Expr, str]]) -> bool:
    """``c * K * j``: one counter of a loop stepped by 1 from ``loops``, times positive
    compile-time sizes, to a compile-time limit."""
    counters = [f for f in t.factors if isinstance(f, Sym) and f.kind is Kind.LOOP]
    if t.coeff <= 0 or len(counters) != 1 or counters[0].name not in loops:
        return False
    step, limit, op = loops[counters[0].name]
    rest = [f for f in t.factors if f is not counters[0]]
    return step == 1 and op in ("<", "<=") and kinds(limit) <= {Kind.CONST} \
        and all(kinds(f) == {Kind.CONST} for f in rest)


def _counter(t: Term) -> str:
    return next(f.name for f in t.factors if isinstance(f, Sym) and f.kind is Kind.LOOP)


def _number(terms: list[Term], values: dict[str, int | None]) -> int | None:
    """The sum of ``terms`` where every size in it has a known value."""
    parts = [term_value(t, values) for t in terms]
    return None if None in parts else sum(parts)


def term_value(t: Term, values: dict[str, int | None]) -> int | None:
    """The integer value of a term of compile-time sizes whose values are known (``PER_THREAD``,
    ``2 * W``); None where one is not."""
    value = t.coeff
    for f in t.factors:
        v = values.get(f.name) if isinstance(f, Sym) and f.kind is Kind.CONST else None
        if v is None:
            return None
        value *= v
    return int(value) if float(value).is_integer() else None
