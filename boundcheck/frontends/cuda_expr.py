"""Clang expressions → :mod:`boundcheck.symbolic` expressions, and conditions → comparisons.

Names are classified by where they come from (threadIdx → LANE, blockIdx → PROGRAM, blockDim /
gridDim / template parameters / macros / constexpr → CONST, integer parameters → EXTENT); locals
are replaced by their last definition, which the statement walker keeps in ``Scope.env``.
Macro-expanded literals keep the macro's name (tokens give it), so messages say ``TILE``.
"""

from __future__ import annotations

import math
import re
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import clang.cindex as ci

from boundcheck.frontends.cuda_parse import (
    Source,
    arguments,
    binary_op,
    child_list,
    deref_operand,
    evaluate,
    first,
    last,
    location,
    placed_at_call,
    unary_op,
    write_target,
)
from boundcheck.symbolic import (
    Bin,
    Call,
    Comparison,
    Expr,
    Kind,
    Num,
    Sym,
    divided,
    expand,
    kinds,
    lanes,
    render,
    sum_of,
    syms,
)

if TYPE_CHECKING:
    from boundcheck.frontends.cuda_helpers import Helpers
    from boundcheck.model import Span

K = ci.CursorKind
_BUILTINS = {"threadIdx": Kind.LANE, "blockIdx": Kind.PROGRAM, "blockDim": Kind.CONST,
             "gridDim": Kind.CONST, "warpSize": Kind.CONST}
_TRANSPARENT = {K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR,
                K.CXX_FUNCTIONAL_CAST_EXPR, K.CXX_CONST_CAST_EXPR}
INT_TYPES = {ci.TypeKind.INT, ci.TypeKind.UINT, ci.TypeKind.LONG, ci.TypeKind.ULONG,
              ci.TypeKind.LONGLONG, ci.TypeKind.ULONGLONG, ci.TypeKind.SHORT, ci.TypeKind.USHORT,
              ci.TypeKind.CHAR_S, ci.TypeKind.UCHAR, ci.TypeKind.BOOL, ci.TypeKind.CHAR_U,
              ci.TypeKind.SCHAR}
_CALL_NAMES = {"min": "min", "max": "max", "fminf": "min", "fmaxf": "max", "fmin": "min", "fmax": "max",
               "umin": "min", "umax": "max"}
# what an object-like macro's whole expansion reads as its name (``TILE``, ``(BM * BK)``)
_MACRO_KINDS = {K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.BINARY_OPERATOR, K.UNARY_OPERATOR, K.PAREN_EXPR}
# -FLT_MAX is treated as -inf: max(-FLT_MAX, x) == x for every finite x, which is what real
# kernels rely on; flagging it as "not the identity of max" would be noise.
_LIMIT_MACROS = {"FLT_MAX": math.inf, "DBL_MAX": math.inf, "INFINITY": math.inf, "CUDART_INF_F": math.inf,
                 "HUGE_VALF": math.inf}


def children(c: ci.Cursor) -> list[ci.Cursor]:
    return list(child_list(c))


def params(fn: ci.Cursor) -> list[ci.Cursor]:
    """A function's parameters (``get_arguments`` gives none for function templates)."""
    return [k for k in child_list(fn) if k.kind == K.PARM_DECL]


def strip(c: ci.Cursor) -> ci.Cursor:
    """Through parentheses, implicit conversions and value casts (not pointer reinterpretation)."""
    while c.kind in _TRANSPARENT:
        kids = [k for k in child_list(c) if k.kind != K.TYPE_REF]
        if not kids:
            break
        if c.kind != K.UNEXPOSED_EXPR and c.kind != K.PAREN_EXPR and c.type.kind == ci.TypeKind.POINTER:
            break
        c = kids[-1]
    return c


def written_variable(c: ci.Cursor) -> ci.Cursor | None:
    """The variable ``c`` writes by name (``x = …``, ``x += …``, ``x++``, ``read(&x)``); None for
    no write, or one through a member, an index or a pointer."""
    target = write_target(c)
    t = strip(target) if target is not None else None
    return t.referenced if t is not None and t.kind == K.DECL_REF_EXPR else None


def initializer(decl: ci.Cursor) -> ci.Cursor | None:
    """A variable's initializer: the last expression from its name on, where template arguments
    (``Vec<float, 4> v = load(p)``) and array sizes (``float w[2] = {…}``) come first (in a macro's
    expansion, ``CUDA_KERNEL_LOOP(i, n)``, every part is at the macro's place)."""
    array = decl.type.get_canonical().kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
                                               ci.TypeKind.VARIABLEARRAY, ci.TypeKind.DEPENDENTSIZEDARRAY)
    at = location(decl.location).offset
    found = [k for k in child_list(decl) if (k.kind.is_expression() or k.kind == K.UNEXPOSED_EXPR)
             and first(k).offset >= at and not (array and strip(k).kind != K.INIT_LIST_EXPR)]
    return found[-1] if found else None


def binary_test(c: ci.Cursor, holds: bool) -> tuple[ci.Cursor, str, list[ci.Cursor], bool] | None:
    """A condition read through its negations (``!(a && b)``): the binary operation under them,
    its operator and operands, and the outcome it has where the whole has ``holds``; None where
    there is no binary operation."""
    c = strip(c)
    kids = children(c)
    while c.kind == K.UNARY_OPERATOR and unary_op(c) == "!" and kids:
        c, holds = strip(kids[0]), not holds
        kids = children(c)
    return (c, binary_op(c), kids, holds) if c.kind == K.BINARY_OPERATOR and len(kids) == 2 else None


def reads_memory(e: Expr) -> bool:
    """``e`` holds a value read from memory: the converter keeps a read as its text (a subscript
    ``offs[b + 1]``, a member through a pointer ``p->n``, a dereference ``*p``)."""
    return any(s.kind is Kind.OTHER and ("[" in s.name or "->" in s.name or s.name.startswith("*")) for s in syms(e))


_ROUNDING = {"ceil", "ceilf", "floor", "floorf", "round", "roundf", "trunc", "truncf", "rint", "rintf"}


def _integer_division(c: ci.Cursor) -> bool:
    """``n / threads`` of two integers (through parentheses and the conversion to a float)."""
    s = strip(c)
    kids = children(s) if s.kind == K.BINARY_OPERATOR and binary_op(s) == "/" else []
    return len(kids) == 2 and is_integer(s) and all(is_integer(strip(k)) for k in kids)


def is_integer(c: ci.Cursor) -> bool:
    t = c.type.get_canonical()
    return t.kind in INT_TYPES or t.kind == ci.TypeKind.ENUM


@dataclass
class Scope:
    """What names mean at one point of a function."""

    env: dict[str, Expr] = field(default_factory=dict)  # local → value
    kinds: dict[str, Kind] = field(default_factory=dict)  # parameter / constant → kind
    # bool local → the conditions it is the conjunction of (`ok = r < m; ok &= c < n;`), each with
    # the values its names held where it was computed
    conds: dict[str, tuple[Held, ...]] = field(default_factory=dict)
    consts: dict[str, float] = field(default_factory=dict)  # float local → constant it holds
    ptrs: dict[str, object] = field(default_factory=dict)  # a helper's pointer parameter → the caller's pointer
    # integer local → the `c ? 0 : n` it was set to: a count that is zero where c holds
    counts: dict[str, ci.Cursor] = field(default_factory=dict)

    def copy(self) -> Scope:
        return Scope(dict(self.env), self.kinds, dict(self.conds), dict(self.consts), self.ptrs, dict(self.counts))

    def flag(self, name: str) -> list[tuple[ci.Cursor, Scope]]:
        """The tests a bool local holds all of (``valid = c < n``), each with the scope to read it
        in: the values its names had where it was set (``if (!valid) c = n - 4;`` changes c, not
        the test). Empty for a name that is no such flag."""
        return [(h.test, Scope(h.env, self.kinds, h.conds, self.consts, self.ptrs, self.counts))
                for h in self.conds.get(name, ())]

    def held(self, test: ci.Cursor) -> Held:
        """``test`` as a flag holds it from here on: read with the names' values of this point."""
        return Held(test, dict(self.env), dict(self.conds))


@dataclass(frozen=True)
class Held:
    """A test a bool local holds, with the values (and the flags) its names had where it was set:
    ``ok = ok && c < n`` reads ``ok`` as it was before."""

    test: ci.Cursor
    env: dict[str, Expr]
    conds: dict[str, tuple[Held, ...]]


class _Hook:
    """A converter's callback held weakly where it is a bound method: the kernel walker owns its
    converter and sets its own methods as the hooks, and that reference cycle would keep every
    cursor (and so the translation unit) of a file alive until the next full collection."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_hook_" + name

    def __get__(self, obj: object, owner: type | None = None) -> Callable | None:
        ref = obj.__dict__.get(self.slot) if obj is not None else None
        return ref() if ref is not None else None

    def __set__(self, obj: object, fn: Callable | None) -> None:
        obj.__dict__[self.slot] = weakref.WeakMethod(fn) if isinstance(fn, types.MethodType) else \
            (lambda: fn) if fn is not None else None


class Converter:
    """Shared by kernels and host code; ``on_read`` lets the kernel walker record accesses."""

    on_subscript = _Hook()
    on_conditional = _Hook()  # `c ? a : b`, and `a && b` / `a || b`: the walker guards each side
    on_helper_call = _Hook()
    on_helper_scope = _Hook()
    on_opaque_call = _Hook()
    method_of = _Hook()  # the method a call of a view object's member runs (the kernel walker knows the objects)

    def __init__(self, src: Source, macros: set[str], helpers: Helpers) -> None:
        self.src, self.macros, self.helpers = src, macros, helpers
        self.on_subscript: Callable[[ci.Cursor, Scope], None] | None = None
        self.on_conditional: Callable[[ci.Cursor, Scope], None] | None = None
        self.on_helper_call: Callable[[ci.Cursor, Scope], None] | None = None
        self.on_helper_scope: Callable[[ci.Cursor, list[ci.Cursor], Scope, Scope, ci.Cursor], None] | None = None
        self.on_opaque_call: Callable[[list[ci.Cursor], Scope], None] | None = None
        self.method_of: Callable[[ci.Cursor], ci.Cursor | None] | None = None
        self.accessors = False  # the kernel takes a tensor accessor (cuda_accessors): look for elements
        self._depth = 0
        self.calls: list[Span] = []  # the helper calls being inlined, outermost first
        self.values: dict[str, int | None] = {}  # macros and constant variables met, with their values
        # host code reads `n / BN` with `auto BN = Int<256>{}` as the division it is, and names the
        # object a method asks (`x.size(1)`); kernels keep such calls opaque and unnamed (their
        # tiling model was measured that way)
        self.host_code = False
        # what calls in other files of the run hold of the arguments of this file's functions, by
        # name (:func:`~boundcheck.frontends.cuda_host.calls_made`)
        self.foreign_callers: dict[str, list[tuple[tuple[str, str], ...]]] = {}

    # --- names -------------------------------------------------------------------------------
    def macro_name(self, c: ci.Cursor) -> str | None:
        """The object-like macro this cursor is the whole expansion of, if any."""
        if not self.macros:
            return None
        start = first(c)
        tok = self.src.token_at(start.offset) if start.file is not None else None
        if tok is None or tok.text not in self.macros:
            return None
        return tok.text if last(c).offset <= tok.end else None

    def name(self, c: ci.Cursor, scope: Scope) -> Expr:
        n = c.spelling
        if not n:  # `KV::D_ROPE`, a member of a template parameter: a compile-time value, by its text
            text = "".join(self.src.text_of(c).split())
            return Sym(text, Kind.CONST) if text else Sym("?", Kind.OTHER)
        if n == "warpSize" and n not in scope.env:
            return Num(32)  # on every CUDA device: tiles of warpSize are tiles of 32 to a contract
        if n in scope.env:
            return scope.env[n]
        if n in scope.kinds:
            if scope.kinds[n] is Kind.CONST and n not in self.values:  # `constexpr int kHeadDim = 128;`
                self._note_value(n, c.referenced)
            return Sym(n, scope.kinds[n])
        ref = c.referenced
        if ref is not None:
            if ref.kind == K.ENUM_CONSTANT_DECL or ref.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
                return Sym(n, Kind.CONST)
            if ref.kind == K.VAR_DECL and ref.type.is_const_qualified() and is_integer(ref):
                self._note_value(n, ref)
                return Sym(n, Kind.CONST)
        return Sym(n, Kind.OTHER)

    def _note_value(self, name: str, c: ci.Cursor | None) -> None:
        """The integer a macro or constant variable stands for, where libclang can evaluate it
        (None where it cannot: evaluated once per name either way)."""
        if name not in self.values:
            v = evaluate(c) if c is not None else None
            self.values[name] = v if isinstance(v, int) else None

    # --- expressions -------------------------------------------------------------------------
    def expr(self, c: ci.Cursor, scope: Scope) -> Expr:
        c = strip(c)
        kind = c.kind
        macro = self.macro_name(c) if kind in _MACRO_KINDS else None
        if macro is not None:
            self._note_value(macro, c)
            return Sym(macro, Kind.CONST)
        if kind == K.INTEGER_LITERAL or kind == K.FLOATING_LITERAL:
            v = literal(c, self.src)
            return Num(v) if v is not None else Sym("?", Kind.OTHER)
        if kind == K.DECL_REF_EXPR:
            return self.name(c, scope)
        if kind == K.MEMBER_REF_EXPR:
            kids = children(c)
            base = strip(kids[0]) if kids else None
            if base is not None and base.kind == K.DECL_REF_EXPR and base.spelling in _BUILTINS:
                return Sym(f"{base.spelling}.{c.spelling}", _BUILTINS[base.spelling])
            if base is None and c.spelling in scope.env:
                return scope.env[c.spelling]  # a field of the object whose method is inlined
            if base is not None:
                self.visit(base, scope)
            return Sym(self.src.text_of(c) or c.spelling, Kind.OTHER)
        if kind == K.BINARY_OPERATOR:
            kids = children(c)
            op = binary_op(c)
            if len(kids) != 2:
                return Sym("?", Kind.OTHER)
            if op in ("&&", "||") and self.on_conditional is not None:
                # `i < n && mask[i]` reads mask only where i < n: the walker records it so
                self.on_conditional(c, scope)
                return Call(op, (self.quiet_expr(kids[0], scope), self.quiet_expr(kids[1], scope)))
            left, right = self.expr(kids[0], scope), self.expr(kids[1], scope)
            if op == "/" and not is_integer(c):
                return Call("fdiv", (left, right))
            split = _lane_split(op, left, right)
            if split is not None:
                return split
            exact = _exact_quotient(left, right) if op == "/" else None
            if exact is not None:
                return exact
            if op in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"):
                return Bin(op, left, right)
            return Call(op, (left, right))
        if kind == K.UNARY_OPERATOR:
            kids = children(c)
            op = unary_op(c)
            if op == "*" and self.on_subscript is not None:
                self.on_subscript(c, scope)
                return Sym(self.src.text_of(c) or "*", Kind.OTHER)
            inner = self.expr(kids[0], scope) if kids else Sym("?", Kind.OTHER)
            if op == "-":
                return Num(-inner.value) if isinstance(inner, Num) else Bin("*", Num(-1), inner)
            if op == "+":
                return inner
            return Call(op, (inner,))
        if kind == K.ARRAY_SUBSCRIPT_EXPR:
            if self.on_subscript is not None:
                self.on_subscript(c, scope)
            else:
                self.visit_children(c, scope)
            return Sym(self.src.text_of(c) or "[]", Kind.OTHER)
        if kind == K.CALL_EXPR:
            if c.spelling == "operator[]" and self.on_subscript is not None and self.accessors:
                # imported here: cuda_accessors reads cursors with this module's helpers
                from boundcheck.frontends.cuda_accessors import element
                if element(c) is not None:
                    self.on_subscript(c, scope)  # `out[h][w]` of an accessor: an access, as `p[h * W + w]`
                    return Sym(self.src.text_of(c) or "[]", Kind.OTHER)
            if not c.spelling and self.on_subscript is not None and deref_operand(c) is not None:
                self.on_subscript(c, scope)  # `*p` of a dependent pointer type: an access
                return Sym(self.src.text_of(c) or "*", Kind.OTHER)
            return self.call(c, scope)
        if kind == K.CONDITIONAL_OPERATOR:
            if self.on_conditional is not None:
                self.on_conditional(c, scope)
            else:
                self.visit_children(c, scope)
            return Sym(self.src.text_of(c) or "?:", Kind.OTHER)
        self.visit(c, scope)
        text = self.src.text_of(c) or c.kind.name
        if kind == K.CXX_UNARY_EXPR and text.startswith("sizeof"):
            self._note_value(text, c)  # `bytes / sizeof(int4)` counts int4 vectors: 16 bytes each
        return Sym(text, Kind.OTHER)

    def call(self, c: ci.Cursor, scope: Scope) -> Expr:
        name = c.spelling
        if name == "__builtin_huge_valf" or name == "__builtin_inff":
            return Num(math.inf)
        group = _group_index(c)
        if group is not None:
            return group
        arg_cursors = arguments(c)
        if not arg_cursors:  # constructors and dependent calls: read what they contain
            self.visit_children(c, scope)
        args = [self.expr(a, scope) for a in arg_cursors]
        op = self.dependent_operator(c, arg_cursors)
        if op is not None:
            return Bin(op, args[0], args[1])
        if name in ("__mul24", "__umul24") and len(args) == 2:
            return Bin("*", args[0], args[1])  # the 24-bit multiply of an index (IMAD macros)
        if name in _ROUNDING and len(args) == 1 and _integer_division(arg_cursors[0]):
            return args[0]  # `ceil(n / threads)` rounds a quotient the integer division already floored
        helper = self.helpers.of(c)
        if helper is None and self.method_of is not None:
            helper = self.method_of(c)
        if helper is not None and self._depth < 4:
            ret = returned_expr(helper)
            if ret is not None:
                inner = self.helper_scope(helper, args, scope)
                if self.on_helper_scope is not None and self.on_subscript is not None:
                    self.on_helper_scope(helper, arg_cursors, scope, inner, c)
                self._depth += 1
                self.calls.append(self.src.span(c))
                try:
                    with placed_at_call(self.src, helper, c):
                        return self.expr(ret, inner)
                finally:
                    self._depth -= 1
                    self.calls.pop()
            if self.on_helper_call is not None:
                self.on_helper_call(c, scope)
        elif self.on_opaque_call is not None:
            self.on_opaque_call(arg_cursors, scope)
        if not name and not args and (text := self.src.text_of(c)):
            return Sym(text, Kind.OTHER)  # a dependent call (`traits<T>::size()`), named by its text
        if self.host_code and (owner := _method_owner(c)):
            return Call(f"{owner}.{name}", tuple(args))  # host code: `x.size(1)` and `w.size(1)` differ
        return Call(_CALL_NAMES.get(name, name), tuple(args))

    def dependent_operator(self, c: ci.Cursor, args: list[ci.Cursor]) -> str | None:
        """The arithmetic operator of a binary expression libclang leaves as an unnamed call
        because an operand's type is unresolved (``N / BN`` with ``auto BN = Int<256>{}``)."""
        if not self.host_code or c.spelling or len(args) != 2 or \
                any(first(a).file is None for a in args):
            return None
        between = self.src.tokens_between(last(args[0]).offset, first(args[1]).offset)
        ops = [t.text for t in between if t.text not in ("(", ")")]
        return ops[0] if len(ops) == 1 and ops[0] in ("+", "-", "*", "/", "%") else None

    def helper_scope(self, helper: ci.Cursor, args: list[Expr], outer: Scope) -> Scope:
        names = [p.spelling for p in params(helper)]
        return Scope(dict(zip(names, args)), outer.kinds, {})

    def visit(self, c: ci.Cursor, scope: Scope) -> None:
        """Convert sub-expressions only for their side effect of recording accesses."""
        if self.on_subscript is not None and (c.kind == K.ARRAY_SUBSCRIPT_EXPR or deref_operand(c) is not None):
            self.on_subscript(c, scope)
            return
        self.visit_children(c, scope)

    def visit_children(self, c: ci.Cursor, scope: Scope) -> None:
        for k in child_list(c):
            if k.kind.is_expression() or k.kind == K.UNEXPOSED_EXPR:
                self.expr(k, scope)

    # --- conditions --------------------------------------------------------------------------
    def atoms(self, c: ci.Cursor, scope: Scope, negated: bool = False) -> list[Comparison]:
        """The comparisons that all hold when ``c`` is true (false if ``negated``); reading a
        condition records no accesses (the walker visits it once, for that)."""
        hooks = self.on_subscript, self.on_conditional, self.on_helper_call
        self.on_subscript = self.on_conditional = self.on_helper_call = None
        try:
            return self._atoms(c, scope, negated)
        finally:
            self.on_subscript, self.on_conditional, self.on_helper_call = hooks

    def quiet_expr(self, c: ci.Cursor, scope: Scope) -> Expr:
        hooks = self.on_subscript, self.on_conditional, self.on_helper_call
        self.on_subscript = self.on_conditional = self.on_helper_call = None
        try:
            return self.expr(c, scope)
        finally:
            self.on_subscript, self.on_conditional, self.on_helper_call = hooks

    def _atoms(self, c: ci.Cursor, scope: Scope, negated: bool = False) -> list[Comparison]:
        c = strip(c)
        if c.kind == K.UNARY_OPERATOR and unary_op(c) == "!":
            kids = children(c)
            return self._atoms(kids[0], scope, not negated) if kids else []
        flag = scope.flag(c.spelling) if c.kind == K.DECL_REF_EXPR else []
        if len(flag) == 1 or flag and not negated:
            return [a for test, at in flag for a in self._atoms(test, at, negated)]
        if flag:
            return []  # a failed conjunction bounds nothing on its own
        helper = self.helpers.of(c) if c.kind == K.CALL_EXPR and c.spelling in self.helpers else None
        if helper is not None and self._depth < 4:
            ret = returned_expr(helper)
            if ret is None:
                return []
            args = [self.expr(a, scope) for a in arguments(c)]
            self._depth += 1
            try:
                return self._atoms(ret, self.helper_scope(helper, args, scope), negated)
            finally:
                self._depth -= 1
        if c.kind != K.BINARY_OPERATOR:
            return []
        op = binary_op(c)
        kids = children(c)
        if len(kids) != 2:
            return []
        if op in ("&", "|") and all(strip(k).type.get_canonical().kind == ci.TypeKind.BOOL for k in kids):
            op = op * 2  # `a < n & b < m` of two truth values is their conjunction, evaluated eagerly
        if op in ("&&", "||"):
            if (op == "&&") != negated:
                return self._atoms(kids[0], scope, negated) + self._atoms(kids[1], scope, negated)
            return []  # a disjunction bounds nothing on its own
        if op not in ("<", "<=", ">", ">=", "==", "!="):
            return []
        limit, held = kids[1], []
        zeroed = _zeroed_count(limit, scope, self.src) if op in ("<", "<=") and not negated else None
        if zeroed is not None:
            # `i < (c ? 0 : n)` holds only where c does not, and then as `i < n` (i is an index,
            # never negative): `batch_element_count = (i >= local_batches) ? 0 : element_count`
            cond, zero_when, limit = zeroed
            held = self._atoms(cond, scope, negated=zero_when)
        left, right = self.expr(kids[0], scope), self.expr(limit, scope)
        op_tok = self.op_token(c, kids[0], op)
        from boundcheck.symbolic import negate
        return held + _split_min(Comparison(left, negate(op) if negated else op, right, self.src.span(c),
                                 self.src.token_span(op_tok) if op_tok else None, op_tok.text if op_tok else op,
                                 self.src.text_of(c), self.src.text_of(kids[0]), self.src.text_of(limit)))

    def op_token(self, c: ci.Cursor, left: ci.Cursor, op: str):
        start, end = last(left).offset, last(c).offset
        for tok in self.src.tokens_between(start, end):
            if tok.text == op:
                return tok
        return None


def _zeroed_count(c: ci.Cursor, scope: Scope, src: Source) -> tuple[ci.Cursor, bool, ci.Cursor] | None:
    """``c ? 0 : n`` (written, or the value of a local set to it): the condition, whether the
    count is zero where it holds, and the other arm."""
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR and s.spelling in scope.counts:
        s = strip(scope.counts[s.spelling])
    kids = children(s) if s.kind == K.CONDITIONAL_OPERATOR else []
    if len(kids) != 3:
        return None
    cond, a, b = kids
    for zero, other, when in ((a, b, True), (b, a, False)):
        if strip(zero).kind == K.INTEGER_LITERAL and literal(strip(zero), src) == 0:
            return cond, when, other
    return None


def _split_min(c: Comparison) -> list[Comparison]:
    """``i < min(a, b)`` holds as ``i < a`` and ``i < b`` (so do ``min(a, b) > i`` and ``i >
    max(a, b)``); ``i < max(a, b)`` and ``i >= min(a, b)`` hold for one side or the other, which
    bounds nothing where a side moves with the lanes (a clamped count of rows left)."""
    for side, other in (("right", "left"), ("left", "right")):
        call = getattr(c, side)
        if not (isinstance(call, Call) and call.fn in ("min", "max") and len(call.args) == 2):
            continue
        below = c.op in ("<", "<=") if side == "right" else c.op in (">", ">=")
        if below == (call.fn == "min"):
            return [replace(c, **{side: arg}) for arg in call.args]
        return [] if lanes(call) else [c]
    return [c]


def _exact_quotient(left: Expr, right: Expr) -> Expr | None:
    """``(row * S * K + lane * 8 * K) / K`` is ``row * S + lane * 8``: a lane index every term of
    which is a multiple of the divisor divides exactly, term by term (a byte offset in K-byte units,
    ``a / K``); None for any other quotient."""
    quotient = divided(expand(left), right) if lanes(left) else None
    return sum_of(quotient) if quotient is not None else None


def _lane_split(op: str, left: Expr, right: Expr) -> Expr | None:
    """``threadIdx.x / 32`` is the warp index: the same for every lane of a warp, so a warp-per-row
    kernel's row is a per-warp offset (PROGRAM), and ``threadIdx.x % 32`` its lane. Other splits
    of a thread index (``tid / 16``, ``tid % 16``) are two distinct lane sources."""
    if not (isinstance(right, Num) or (isinstance(right, Sym) and right.kind is Kind.CONST)):
        return None
    r = right.value if isinstance(right, Num) else right.name
    if _block_linear(left) and op in ("/", "%"):
        return Sym(f"({render(left)}) {op} {r}", Kind.LANE)
    if not (isinstance(left, Sym) and left.kind is Kind.LANE and "." in left.name and " " not in left.name):
        return None
    if op == ">>" and r == 5 or op == "/" and r in (32, "warpSize"):
        return Sym(f"{left.name} / 32", Kind.LANE)
    if op == "&" and r == 31 or op == "%" and r in (32, "warpSize"):
        return Sym(f"{left.name} % 32", Kind.LANE)
    if op in ("/", "%"):
        return Sym(f"{left.name} {op} {r}", Kind.LANE)
    return None


_SPLIT_NAME = re.compile(r"(threadIdx\.[xyz]) / (\w+)")


def split_quotient(name: str) -> tuple[str, str] | None:
    """The thread index and divisor of a quotient lane :func:`_lane_split` names (``threadIdx.x /
    32``, the warp index): ``("threadIdx.x", "32")``."""
    m = _SPLIT_NAME.fullmatch(name)
    return (m[1], m[2]) if m else None


def _block_linear(e: Expr) -> bool:
    """``threadIdx.y * blockDim.x + threadIdx.x``: a thread's linear index in its block, built from
    several thread indices. Its quotient and remainder by a size (``tid / 32``, ``tid % 32``) are
    the row and column of a re-shaped block: two lane sources of their own, so that a guard on
    one bounds that one only (each mixes every thread index, which says nothing of which)."""
    names = {s.name for s in syms(e) if s.kind is Kind.LANE}
    return isinstance(e, Bin) and e.op == "+" and len(names) > 1 \
        and all(n.startswith("threadIdx.") for n in names) and kinds(e) <= {Kind.LANE, Kind.CONST}


_TILE = re.compile(r"thread_block_tile<\s*(\d+)")


def _group_index(c: ci.Cursor) -> Expr | None:
    """Cooperative-groups ranks as the thread indices they are: a ``thread_block_tile<N>``'s
    ``thread_rank()`` is ``threadIdx.x % N`` (its lane), ``meta_group_rank()`` ``threadIdx.x / N``
    and ``size()`` N; a ``thread_block``'s rank is the thread index, its size the block's. So a
    ``for (i = warp.thread_rank(); i < C; i += warp.size())`` loop is the lane-strided loop it
    is. A ``grid_group``'s rank is the global index ``blockIdx.x * blockDim.x + threadIdx.x``, its
    size the grid's thread count. 1-D blocks are assumed, as the corpus's warp-per-row kernels have."""
    if c.spelling not in ("thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size"):
        return None
    kids = children(c)
    if not kids or kids[0].kind != K.MEMBER_REF_EXPR or not children(kids[0]):
        return None
    group = strip(children(kids[0])[0]).type.get_canonical().spelling
    tile = _TILE.search(group)
    if tile is not None:
        n = int(tile.group(1))
        return {"thread_rank": _lane_split("%", Sym("threadIdx.x", Kind.LANE), Num(n)),
                "meta_group_rank": _lane_split("/", Sym("threadIdx.x", Kind.LANE), Num(n)),
                "meta_group_size": Bin("/", Sym("blockDim.x", Kind.CONST), Num(n))}.get(c.spelling, Num(n))
    if group.endswith("::thread_block"):
        return Sym("threadIdx.x", Kind.LANE) if c.spelling == "thread_rank" else \
            Sym("blockDim.x", Kind.CONST) if c.spelling in ("size", "num_threads") else None
    if group.endswith("::grid_group"):  # the global thread index and the grid's thread count
        return Bin("+", Bin("*", Sym("blockIdx.x", Kind.PROGRAM), Sym("blockDim.x", Kind.CONST)),
                   Sym("threadIdx.x", Kind.LANE)) if c.spelling == "thread_rank" else \
            Bin("*", Sym("gridDim.x", Kind.CONST), Sym("blockDim.x", Kind.CONST)) \
            if c.spelling in ("size", "num_threads") else None
    return None


def _method_owner(call: ci.Cursor) -> str:
    """The named object a method is called on (``x`` of ``x.size(1)``), or ""."""
    kids = children(call)
    base = children(kids[0]) if kids and kids[0].kind == K.MEMBER_REF_EXPR else []
    return strip(base[0]).spelling if len(base) == 1 and strip(base[0]).kind == K.DECL_REF_EXPR else ""


def callee(call: ci.Cursor) -> str:
    """A call's function name, also where a dependent template argument leaves the call unnamed
    (``block_reduce_max<NUM_THREADS>(v)`` in a kernel template): the overloaded name it refers to."""
    if call.spelling:
        return call.spelling
    kids = children(call)
    ref = next((k for k in child_list(kids[0]) if k.kind == K.OVERLOADED_DECL_REF), None) if kids else None
    return ref.spelling if ref is not None else ""


def returned_expr(fn: ci.Cursor) -> ci.Cursor | None:
    """The expression of a helper whose body is a single ``return e;``."""
    body = next((k for k in child_list(fn) if k.kind == K.COMPOUND_STMT), None)
    if body is None:
        return None
    stmts = children(body)
    if len(stmts) != 1 or stmts[0].kind != K.RETURN_STMT:
        return None
    kids = children(stmts[0])
    return kids[0] if kids else None


def pointer_typed(c: ci.Cursor) -> bool:
    """``c``'s type is a pointer (False for a type kind these libclang bindings do not know)."""
    try:
        return c.type.get_canonical().kind == ci.TypeKind.POINTER
    except ValueError:
        return False


def literal(c: ci.Cursor, src: Source) -> float | int | None:
    tok = src.token_at(first(c).offset) if first(c).file is not None else None
    if tok is None or not tok.text[:1].isdigit() and tok.text[:1] != ".":
        return evaluate(c)
    text = tok.text.lower().rstrip("ful")
    try:
        if c.kind == K.INTEGER_LITERAL:
            return int(text, 0) if not text.startswith("0") or text in ("0",) or text.startswith("0x") \
                else int(text, 8)
        return float(text)
    except ValueError:
        return None


def const_value(c: ci.Cursor, src: Source, macros: set[str]) -> float | None:
    """A constant padding value as written: literals, ``-INFINITY``, ``-FLT_MAX`` (as -inf)."""
    c = strip(c)
    tok = src.token_at(first(c).offset) if first(c).file is not None else None
    if tok is not None and tok.text in _LIMIT_MACROS and last(c).offset <= tok.end:
        return _LIMIT_MACROS[tok.text]
    if c.kind in (K.INTEGER_LITERAL, K.FLOATING_LITERAL):
        v = literal(c, src)
        return float(v) if v is not None else None
    if c.kind == K.UNARY_OPERATOR and unary_op(c) in ("-", "+"):
        kids = children(c)
        v = const_value(kids[0], src, macros) if kids else None
        return None if v is None else (-v if unary_op(c) == "-" else v)
    if c.kind == K.CALL_EXPR and c.spelling in ("__builtin_huge_valf", "__builtin_inff"):
        return math.inf
    if c.kind == K.CALL_EXPR and c.spelling in ("__float2half", "__float2bfloat16", "half", "__half"):
        args = arguments(c)
        return const_value(args[0], src, macros) if args else None
    return None
