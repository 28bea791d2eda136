"""Host checks that make a size a power of two, and the lower bounds branches put on it.

A sorting network or an FFT supports power-of-two lengths only and checks so on the host:
``assert((n & (n - 1)) == 0)``, or ``assert(odd_part(n) == 1)`` through a helper that halves its
argument while it is even and returns what is left (defined in the file, or ``extern`` here and
defined in another file of the run, whose reading the engine hands over). A power of two n that is at least
a power-of-two tile T is a multiple of T: ``if (n <= 1024) {…} else { k<<<batch * n / 1024, …>>> }``
launches exactly the blocks the length needs, though no remainder is ever tested."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import (
    INT_TYPES,
    Converter,
    Scope,
    binary_test,
    children,
    is_integer,
    strip,
    written_variable,
)
from boundcheck.frontends.cuda_parse import (
    binary_op,
    child_list,
    evaluate,
    first,
    is_device,
    last,
    preorder,
    unary_op,
)
from boundcheck.model import Divisibility, FloorDiv
from boundcheck.symbolic import render

K = ci.CursorKind
_LOOPS = (K.FOR_STMT, K.WHILE_STMT)
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


@dataclass
class SizeFacts:
    """What a condition says of host sizes where it holds (or where it fails)."""

    powers: set[str] = field(default_factory=set)  # names that are powers of two (or zero)
    least: dict[str, int] = field(default_factory=dict)  # name -> the smallest value it can have

    def add(self, other: SizeFacts) -> SizeFacts:
        least = dict(self.least)
        for name, low in other.least.items():
            least[name] = max(low, least.get(name, low))
        return SizeFacts(self.powers | other.powers, least)


def size_facts(conv: Converter, c: ci.Cursor, scope: Scope, holds: bool = True) -> SizeFacts:
    """The powers of two and lower bounds that ``c`` being ``holds`` implies: the conjuncts of a
    condition that holds, the disjuncts of one that fails (``if (n < 2 || rest != 1) return;``)."""
    test = binary_test(c, holds)
    if test is None:
        return SizeFacts()
    c, op, kids, holds = test
    if op == ("&&" if holds else "||"):
        return size_facts(conv, kids[0], scope, holds).add(size_facts(conv, kids[1], scope, holds))
    if op == "&" and not holds:  # `if (n & (n - 1)) return;`: past it, n has one bit set at most
        name = _power_test(conv, c, scope)
        return SizeFacts({name}) if name else SizeFacts()
    if op not in _NEGATE:
        return SizeFacts()
    op = op if holds else _NEGATE[op]
    for side, other, rel in ((kids[0], kids[1], op), (kids[1], kids[0], _FLIP[op])):
        k = constant_of(other)
        if isinstance(k, int) and not isinstance(k, bool):
            return _compared(conv, side, rel, k, scope)
    return SizeFacts()


def constant_of(c: ci.Cursor) -> int | None:
    """An integer constant: a literal or constant expression, or a ``const`` integer variable with a
    constant initializer (``extern "C" const uint MIN_SIZE = 8 * BLOCK;``)."""
    s = strip(c)
    value = evaluate(s)
    ref = s.referenced if s.kind == K.DECL_REF_EXPR else None
    if value is None and ref is not None and ref.kind == K.VAR_DECL and ref.type.is_const_qualified() \
            and is_integer(ref):
        init = next((k for k in child_list(ref) if k.kind.is_expression()), None)
        value = evaluate(strip(init)) if init is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _compared(conv: Converter, side: ci.Cursor, op: str, k: int, scope: Scope) -> SizeFacts:
    """``side op k`` for a constant k."""
    name = _size_name(conv, side, scope)
    if name and op in (">", ">="):
        return SizeFacts(least={name: k + (op == ">")})
    if op == "==" and k == 0 and strip(side).kind == K.BINARY_OPERATOR and binary_op(strip(side)) == "&":
        name = _power_test(conv, strip(side), scope)
        return SizeFacts({name}) if name else SizeFacts()
    if op == "==" and k == 1:
        name = _odd_part_argument(conv, side, scope)
        return SizeFacts({name}) if name else SizeFacts()
    return SizeFacts()


def _size_name(conv: Converter, c: ci.Cursor, scope: Scope) -> str | None:
    """An integer parameter or local read as itself (the name a grid expression renders)."""
    s = strip(c)
    if s.kind != K.DECL_REF_EXPR or s.referenced is None or s.referenced.kind not in (K.PARM_DECL, K.VAR_DECL) \
            or not is_integer(s.referenced):
        return None
    return s.spelling if render(conv.quiet_expr(s, scope)) == s.spelling else None


def _power_test(conv: Converter, c: ci.Cursor, scope: Scope) -> str | None:
    """``n & (n - 1)``: zero exactly where n is a power of two (or zero)."""
    kids = children(c)
    if len(kids) != 2:
        return None
    for one, other in ((kids[0], kids[1]), (kids[1], kids[0])):
        o = strip(other)
        parts = children(o)
        if o.kind == K.BINARY_OPERATOR and binary_op(o) == "-" and len(parts) == 2 and evaluate(strip(parts[1])) == 1 \
                and _same_variable(one, parts[0]):
            return _size_name(conv, one, scope)
    return None


def _same_variable(a: ci.Cursor, b: ci.Cursor) -> bool:
    a, b = strip(a), strip(b)
    return a.kind == b.kind == K.DECL_REF_EXPR and a.referenced is not None and a.referenced == b.referenced


def _odd_part_argument(conv: Converter, c: ci.Cursor, scope: Scope) -> str | None:
    """The size whose odd part ``c`` is: a call of an odd-part helper, or a local initialised with
    one and never written again."""
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
        decl = s.referenced
        init = next((k for k in child_list(decl) if k.kind.is_expression()), None)
        fn = decl.semantic_parent
        if init is None or fn is None or any(_writes(k, decl) for k in preorder(fn)):
            return None
        s = strip(init)
    if s.kind != K.CALL_EXPR or s.referenced is None or s.referenced.kind != K.FUNCTION_DECL:
        return None
    helper = s.referenced.get_definition()
    if helper is None:
        summary = conv.helpers.summary(s.referenced.spelling)
        index = summary.index if isinstance(summary, OddPart) else None
    else:
        index = _odd_part_parameter(helper)
    args = list(s.get_arguments())
    return _size_name(conv, args[index], scope) if index is not None and index < len(args) else None


@dataclass(frozen=True)
class OddPart:
    """A host helper's summary for the files that only declare it: it returns the odd part of
    its parameter at ``index``."""

    index: int


def host_summaries(fns: list[ci.Cursor], data: bytes) -> dict[str, object]:
    """The file's external host functions by name, each with what a file declaring it ``extern``
    reads a call of it as: the odd part of the parameter at a position, or None (nothing known;
    it still counts as a definition of the name). Only a body whose text halves something is
    read (``data``: the file's bytes, which cursor offsets count)."""
    out: dict[str, object] = {}
    for fn in fns:
        if fn.kind == K.FUNCTION_DECL and fn.linkage == ci.LinkageKind.EXTERNAL and not is_device(fn):
            halves = _HALVING.search(data, first(fn).offset, last(fn).offset + 1) is not None
            index = _odd_part_parameter(fn) if halves else None
            out[fn.spelling] = OddPart(index) if index is not None else None
    return out


_HALVING = re.compile(rb">>=?\s*1\b|/=?\s*2\b")


def _odd_part_parameter(fn: ci.Cursor) -> int | None:
    if fn.result_type.get_canonical().kind not in INT_TYPES:
        return None
    params = [p for p in child_list(fn) if p.kind == K.PARM_DECL]
    integral = [is_integer(p) and p.type.kind != ci.TypeKind.LVALUEREFERENCE for p in params]
    body = next((k for k in child_list(fn) if k.kind == K.COMPOUND_STMT), None) if any(integral) else None
    nodes = list(preorder(body)) if body is not None else []
    if not any(k.kind in _LOOPS for k in nodes):
        return None  # no loop halves anything
    return next((i for i, p in enumerate(params) if integral[i] and _returns_odd_part(nodes, p)), None)


def _writes(c: ci.Cursor, decl: ci.Cursor) -> bool:
    var = written_variable(c)
    return var is not None and var == decl


def _returns_odd_part(nodes: list[ci.Cursor], p: ci.Cursor) -> bool:
    """Every return of the body (``nodes``, in preorder) gives ``p`` or a constant other than 1,
    and ``p`` is only ever halved where a loop has just found it even: ``for (…; (p & 1) == 0;
    p >>= 1);``. A 1 returned is then ``p`` divided down to 1 by exact halvings: the argument was a
    power of two."""
    if any(k.kind == K.GOTO_STMT for k in nodes):
        return False
    returned = [child_list(k)[0] for k in nodes if k.kind == K.RETURN_STMT and child_list(k)]
    if not any(_same_param(r, p) for r in returned) or any(
            not _same_param(r, p) and (not isinstance(evaluate(strip(r)), int) or evaluate(strip(r)) == 1)
            for r in returned):
        return False
    loops = [k for k in nodes if k.kind in _LOOPS]
    writes = [k for k in nodes if _writes(k, p)]
    return bool(writes) and all(_exact_halving(w, p, loops, writes) for w in writes)


def _same_param(c: ci.Cursor, p: ci.Cursor) -> bool:
    s = strip(c)
    return s.kind == K.DECL_REF_EXPR and s.referenced == p


def _exact_halving(w: ci.Cursor, p: ci.Cursor, loops: list[ci.Cursor], writes: list[ci.Cursor]) -> bool:
    """``p >>= 1`` (``p /= 2``, ``p = p >> 1``) as the one write to p of the innermost loop around
    it, past that loop's test that p is even."""
    if not _halves(w, p):
        return False
    around = [L for L in loops if first(L).offset <= first(w).offset and last(w).offset <= last(L).offset]
    if not around:
        return False
    loop = max(around, key=lambda L: first(L).offset)
    test = next((k for k in child_list(loop) if k.kind.is_expression() and _tests_even(k, p)), None)
    inside = [x for x in writes if first(loop).offset <= first(x).offset and last(x).offset <= last(loop).offset]
    return test is not None and last(test).offset < first(w).offset and inside == [w]


def _halves(w: ci.Cursor, p: ci.Cursor) -> bool:
    kids = children(w)
    if len(kids) != 2:
        return False
    if w.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
        op, amount = binary_op(w), evaluate(strip(kids[1]))
        return (op, amount) in ((">>=", 1), ("/=", 2))
    value = strip(kids[1])
    parts = children(value)
    return w.kind == K.BINARY_OPERATOR and value.kind == K.BINARY_OPERATOR and len(parts) == 2 \
        and _same_param(parts[0], p) and (binary_op(value), evaluate(strip(parts[1]))) in ((">>", 1), ("/", 2))


def _tests_even(c: ci.Cursor, p: ci.Cursor) -> bool:
    """``(p & 1) == 0``, ``!(p & 1)``, ``p % 2 == 0``, or a conjunction with one of them."""
    c = strip(c)
    kids = children(c)
    if c.kind == K.UNARY_OPERATOR and unary_op(c) == "!" and kids:
        return _low_bit(kids[0], p)
    if c.kind != K.BINARY_OPERATOR or len(kids) != 2:
        return False
    op = binary_op(c)
    if op == "&&":
        return _tests_even(kids[0], p) or _tests_even(kids[1], p)
    return op == "==" and any(evaluate(strip(z)) == 0 and _low_bit(b, p) for b, z in ((kids[0], kids[1]), (kids[1], kids[0])))


def _low_bit(c: ci.Cursor, p: ci.Cursor) -> bool:
    """``p & 1`` or ``p % 2``."""
    c = strip(c)
    kids = children(c)
    if c.kind != K.BINARY_OPERATOR or len(kids) != 2:
        return False
    op = binary_op(c)
    return (op, evaluate(strip(kids[1]))) in (("&", 1), ("%", 2)) and _same_param(kids[0], p) \
        or op == "&" and evaluate(strip(kids[0])) == 1 and _same_param(kids[1], p)


def exact_by_powers(div: FloorDiv, tile: int | None, facts: SizeFacts) -> list[Divisibility]:
    """``batch * n / T`` with n a power of two that is at least T, itself a power of two: n is a
    multiple of T, and so is the product."""
    if tile is None or tile <= 0 or tile & (tile - 1):
        return []
    factors = div.extent.split(" * ")
    if not all(f.isidentifier() or f.isdigit() for f in factors):
        return []
    if any(f in facts.powers and facts.least.get(f, 0) >= tile for f in factors):
        return [Divisibility(div.extent, div.tile, "power of two")]
    return []
