"""Model one ``@triton.jit`` kernel: walk its body once, in order, tracking what each name holds
(:class:`~boundcheck.frontends.triton_values.Val`), and record every access with the mask that
protects it, the padding of its masked lanes and the reductions that padding reaches."""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import libcst as cst

from boundcheck import symbolic as sy
from boundcheck.frontends.triton_values import BlockPtr, Cond, Flow, Val, arith, arith_reversed, elementwise
from boundcheck.frontends.triton_values import ELEMENTWISE
from boundcheck.model import (Access, AccessKind, Bound, Divisibility, Kernel, Language, Loop, Padding,
                              Reduction, Space, Span, Tiling, Use)

if TYPE_CHECKING:
    from boundcheck.frontends.triton import Segment

_BINOPS = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
    cst.Modulo: "%", cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^", cst.LeftShift: "<<",
    cst.RightShift: ">>", cst.Power: "**",
}
_AUGOPS = {
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.BitAndAssign: "&", cst.BitOrAssign: "|",
    cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>",
}
_CMPOPS = {
    cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
    cst.Equal: "==", cst.NotEqual: "!=",
}
_REDUCTIONS = {
    "sum": Reduction.SUM, "max": Reduction.MAX, "min": Reduction.MIN, "argmax": Reduction.ARGMAX,
    "argmin": Reduction.ARGMIN, "cumsum": Reduction.SUM, "cumprod": Reduction.PROD,
    "prod": Reduction.PROD,
}
_ATOMICS = {"atomic_add", "atomic_max", "atomic_min", "atomic_cas", "atomic_xchg", "atomic_and",
            "atomic_or", "atomic_xor"}
_TRANSPARENT = {"multiple_of", "max_contiguous", "max_constancy", "assume_aligned"}
_DESCRIPTORS = {"make_tensor_descriptor", "_experimental_make_tensor_descriptor", "TensorDescriptor",
                "tensor_descriptor", "host_tensor_descriptor"}
_RANGES = {"range", "static_range"}
_MAX_INLINE_DEPTH = 4


@dataclass
class ModuleContext:
    """What the whole file tells a kernel: its jit helpers, contracts from host code and comments."""

    assumes: dict[int, str]
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)  # plain module functions
    jit: dict[str, tuple[cst.FunctionDef, Segment]] = field(default_factory=dict)
    host_contracts: dict[str, list[Divisibility]] = field(default_factory=dict)
    flag_facts: dict[str, dict[str, Divisibility]] = field(default_factory=dict)


def callee(func: cst.BaseExpression) -> str:
    """``tl.load`` → ``load``; ``tl.math.exp`` → ``exp``; ``x.to`` → ``to``."""
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return ""


def divisibility(node: cst.BaseExpression, render, origin: str) -> Divisibility | None:  # type: ignore[no-untyped-def]
    """``A % B == 0`` (or ``A == B``) → the fact; ``render`` names each side."""
    if not (isinstance(node, cst.Comparison) and len(node.comparisons) == 1):
        return None
    target = node.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return None
    left, right = node.left, target.comparator
    if isinstance(left, cst.Integer) and left.value == "0":
        left, right = right, left
    if isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Modulo):
        if isinstance(right, cst.Integer) and right.value == "0":
            return Divisibility(render(left.left), render(left.right), origin)
        return None
    return Divisibility(render(left), render(right), origin)


def _walk(node: cst.CSTNode, skip_negations: bool = False):  # type: ignore[no-untyped-def]
    """Every node under ``node``; with ``skip_negations``, not those under ``not``/``~``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if skip_negations and isinstance(n, cst.UnaryOperation) and isinstance(n.operator, (cst.Not, cst.BitInvert)):
            continue
        yield n
        stack.extend(n.children)


def ast_divisibilities(fn: ast.FunctionDef, mapping: dict[str, str]) -> list[Divisibility]:
    """``a % b == 0`` tests in a plain Python function, named by the caller's arguments."""

    def name(node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return mapping.get(node.id, node.id)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            return str(node.slice.value)
        return ast.unparse(node)

    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq) \
                and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mod) \
                and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value == 0:
            out.append(Divisibility(name(node.left.left), name(node.left.right), "heuristics"))
    return out


def assume_fact(text: str) -> Divisibility | None:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
        left, right = node.left, node.comparators[0]
        if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod):
            if isinstance(right, ast.Constant) and right.value == 0:
                return Divisibility(ast.unparse(left.left), ast.unparse(left.right), "assume comment")
        return Divisibility(ast.unparse(left), ast.unparse(right), "assume comment")
    return None


@dataclass
class _Pending:
    """An access being built; its uses grow as its data flows on."""

    kind: AccessKind
    buffer: str
    span: Span
    dims: tuple
    guards: tuple[Bound, ...]
    padding: Padding | None
    facts: tuple[Divisibility, ...]
    opaque: bool
    checked: frozenset[str]
    text: str
    other_at: Span | None
    uses: list[Use] = field(default_factory=list)


class KernelAnalyser:
    def __init__(self, ctx: ModuleContext, fn: cst.FunctionDef, seg: Segment, depth: int = 0) -> None:
        self.ctx, self.fn, self.seg, self.depth = ctx, fn, seg, depth
        self.name = fn.name.value
        self.env: dict[str, Val] = {}
        self.accesses: list[_Pending] = []
        self.loops: list[Loop] = []
        self.loop_of: dict[str, Loop] = {}
        self.contracts: list[Divisibility] = []
        self.tail_handled: set[tuple[str, str]] = set()
        self.facts: list[Divisibility] = []  # true on the current path (EVEN_K branches)
        self.tile_guards: list[Cond] = []  # scalar `if` conditions on tile offsets
        self.constexpr: set[str] = set()
        self.returned: Val | None = None
        self.labels: dict[str, str] = {}  # lane source -> the first variable that names it
        self._text: dict[int, str] = {}

    # --- entry points -------------------------------------------------------------------------

    def run(self) -> Kernel:
        span = self.seg.span(self.fn.name)
        self._bind_params({})
        self._heuristics()
        self._assumes()
        self.contracts.extend(self.ctx.host_contracts.get(self.name, []))
        self._block(self.fn.body)
        kernel = Kernel(self.name, Language.TRITON, span, loops=self.loops, contracts=self.contracts,
                        tail_handled=self.tail_handled)
        kernel.accesses = [self._finish(p) for p in self.accesses]
        return kernel

    def inline(self, args: list[Val], kwargs: dict[str, Val], parent: KernelAnalyser) -> Val:
        """Analyse a jit helper called from ``parent`` with the caller's values bound."""
        self.accesses, self.loops, self.loop_of = parent.accesses, parent.loops, parent.loop_of
        self.contracts, self.tail_handled = parent.contracts, parent.tail_handled
        self.facts, self.tile_guards = list(parent.facts), list(parent.tile_guards)
        params = [p.name.value for p in self.fn.params.params]
        bound = dict(zip(params, args))
        bound.update({k: v for k, v in kwargs.items() if k in params})
        self._bind_params(bound)
        self._block(self.fn.body)
        return self.returned or Val()

    def _bind_params(self, bound: dict[str, Val]) -> None:
        for p in self.fn.params.params:
            name = p.name.value
            ann = self.text(p.annotation.annotation) if p.annotation else ""
            if "constexpr" in ann:
                self.constexpr.add(name)
            if name in bound:
                self.env[name] = bound[name]
            else:
                kind = sy.Kind.CONST if "constexpr" in ann else sy.Kind.EXTENT
                self.env[name] = Val(expr=sy.Sym(name, kind))

    def _heuristics(self) -> None:
        """``@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0})``, also
        through a module function the lambda calls (``lambda args: is_even(args["K"], …)``)."""
        flags = {k: [v] for k, v in self.ctx.flag_facts.get(self.name, {}).items()}
        for dec in self.fn.decorators:
            d = dec.decorator
            if not (isinstance(d, cst.Call) and callee(d.func) == "heuristics" and d.args):
                continue
            table = d.args[0].value
            if not isinstance(table, cst.Dict):
                continue
            for el in table.elements:
                if not (isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)):
                    continue
                if isinstance(el.value, cst.Lambda):
                    facts = self._flag_facts(el.value.body)
                elif isinstance(el.value, cst.Name) and el.value.value in self.ctx.functions:
                    facts = ast_divisibilities(self.ctx.functions[el.value.value], {})
                else:
                    continue
                if facts:
                    flags[str(el.key.evaluated_value)] = facts
        self.flags = flags

    def _flag_facts(self, body: cst.BaseExpression) -> list[Divisibility]:
        facts = [f for node in _walk(body) if (f := divisibility(node, _arg_name, "heuristics"))
                 and "%" not in f.extent]
        if isinstance(body, cst.Call) and isinstance(body.func, cst.Name) and body.func.value in self.ctx.functions:
            fn = self.ctx.functions[body.func.value]
            params = [a.arg for a in fn.args.args]
            mapping = {p: _arg_name(a.value) for p, a in zip(params, body.args) if a.keyword is None}
            facts += ast_divisibilities(fn, mapping)
        return facts

    def _assumes(self) -> None:
        first = self.seg.span(self.fn).line
        start = min([first, *(self.seg.span(d).line for d in self.fn.decorators)]) - 3
        end = self.seg.span(self.fn).end_line
        for line, text in self.ctx.assumes.items():
            if start <= line <= end and (fact := assume_fact(text)):
                self.contracts.append(fact)

    # --- helpers ------------------------------------------------------------------------------

    def text(self, node: cst.CSTNode) -> str:
        key = id(node)
        if key not in self._text:
            self._text[key] = " ".join(self.seg.node.code_for_node(node).split())
        return self._text[key]

    def span(self, node: cst.CSTNode) -> Span:
        return self.seg.span(node)

    def _sym(self, node: cst.CSTNode, kind: sy.Kind = sy.Kind.OTHER) -> Val:
        return Val(expr=sy.Sym(self.text(node), kind))

    # --- statements ---------------------------------------------------------------------------

    def _block(self, block: cst.BaseSuite | cst.CSTNode) -> None:
        body = block.body if isinstance(block, (cst.IndentedBlock, cst.SimpleStatementSuite)) else [block]
        for stmt in body:
            if self.returned is not None and self.depth:
                return
            self._stmt(stmt)

    def _stmt(self, stmt: cst.CSTNode) -> None:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                self._small(small)
        elif isinstance(stmt, cst.If):
            self._if(stmt)
        elif isinstance(stmt, cst.For):
            self._for(stmt)
        elif isinstance(stmt, cst.While):
            self._while(stmt)
        elif isinstance(stmt, (cst.With, cst.Try)):
            self._block(stmt.body)

    def _small(self, small: cst.CSTNode) -> None:
        if isinstance(small, cst.Assign):
            value = self.ev(small.value)
            for target in small.targets:
                self._bind(target.target, value)
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            self._bind(small.target, self.ev(small.value))
        elif isinstance(small, cst.AugAssign):
            op = _AUGOPS.get(type(small.operator))
            if op and isinstance(small.target, cst.Name):
                current = self.env.get(small.target.value) or self._sym(small.target)
                self.env[small.target.value] = self.binop(op, current, self.ev(small.value))
        elif isinstance(small, cst.Expr):
            self.ev(small.value)
        elif isinstance(small, cst.Return) and small.value is not None:
            self.returned = self.ev(small.value)

    def _bind(self, target: cst.BaseExpression, value: Val) -> None:
        if isinstance(target, cst.Name):
            self.env[target.value] = value
            found = sy.lanes(value.expr) if value.expr is not None else set()
            if len({name for name, _ in found}) == 1:
                self.labels.setdefault(next(iter(found))[0], target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            items = value.items or ()
            for i, el in enumerate(target.elements):
                self._bind(el.value, items[i] if i < len(items) else Val())

    def _if(self, stmt: cst.If) -> None:
        test = stmt.test
        negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        saved_facts, saved_guards = list(self.facts), list(self.tile_guards)
        cond = self.ev(test)
        if isinstance(cond.expr, sy.Sym) and cond.expr.name in ("True", "False"):
            taken = (cond.expr.name == "True") != negated  # a constexpr flag bound by the caller
            if taken:
                self._block(stmt.body)
            elif isinstance(stmt.orelse, cst.Else):
                self._block(stmt.orelse.body)
            elif isinstance(stmt.orelse, cst.If):
                self._if(stmt.orelse)
            return
        if not negated:
            self.facts.extend(self._branch_facts(test))
            if cond.conds:
                self.tile_guards.extend(c for c in cond.conds if not sy.lanes(c.left) and not sy.lanes(c.right))
        self._block(stmt.body)
        self.facts, self.tile_guards = list(saved_facts), list(saved_guards)
        if negated:
            self.facts.extend(self._branch_facts(test.expression))
        if isinstance(stmt.orelse, cst.Else):
            self._block(stmt.orelse.body)
        elif isinstance(stmt.orelse, cst.If):
            self._if(stmt.orelse)
        self.facts, self.tile_guards = saved_facts, saved_guards

    def _branch_facts(self, test: cst.BaseExpression) -> list[Divisibility]:
        """Facts a branch may rely on: heuristics flags it tests (``if EVEN_K:``) and equalities
        (``d == BLOCK_K``); ``A & d == B`` is read as the author meant, ``A & (d == B)``."""
        facts: list[Divisibility] = []
        for node in _walk(test, skip_negations=True):
            if isinstance(node, cst.Name) and node.value in self.flags:
                facts.extend(self.flags[node.value])
            elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
                    and isinstance(node.comparisons[0].operator, cst.Equal):
                left = node.left
                while isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.BitAnd):
                    left = left.right
                right = node.comparisons[0].comparator
                if not (isinstance(right, cst.Integer) and right.value == "0"):
                    a, b = self.text(left), self.text(right)
                    facts += [Divisibility(a, b, "branch condition"), Divisibility(b, a, "branch condition")]
        return facts

    def _for(self, stmt: cst.For) -> None:
        it = stmt.iter
        var = stmt.target.value if isinstance(stmt.target, cst.Name) else None
        header = self.span(stmt)
        header = Span(header.line, header.col, self.span(it).end_line, self.span(it).end_col)
        trip = None
        if isinstance(it, cst.Call) and callee(it.func) in _RANGES and it.args:
            args = [self.ev(a.value) for a in it.args if a.keyword is None]
            stop = args[0] if len(args) == 1 else args[1] if len(args) > 1 else None
            if stop is not None and stop.expr is not None:
                trip = sy.floor_division(stop.expr, header)
            if len(args) > 1 and args[0].expr is not None:
                start_div = sy.floor_division(args[0].expr, header)
                if start_div:
                    self.tail_handled.add((start_div.extent, start_div.tile))
        stop_expr = None
        if isinstance(it, cst.Call) and callee(it.func) in _RANGES and it.args:
            positional = [a.value for a in it.args if a.keyword is None]
            stop_expr = self.ev(positional[0 if len(positional) == 1 else 1]).expr if positional else None
        loop = Loop(header, var, trip, _stops_before_tail(stop_expr) or trip is not None,
                    self.span(stmt).end_line)
        self.loops.append(loop)
        step = None
        if isinstance(it, cst.Call) and callee(it.func) in _RANGES:
            positional = [a.value for a in it.args if a.keyword is None]
            step = self.ev(positional[2]) if len(positional) > 2 else None
            start = self.ev(positional[0]) if len(positional) > 1 else Val(expr=sy.Num(0))
            if step is not None and step.expr is not None and start.expr is not None and var:
                # `for s in range(a, b, BLOCK)`: s = a + iteration * BLOCK moves by the tile
                self.loop_of[var] = loop
                self._loop_body(stmt.body, stmt, var, loop, sy.Bin("+", start.expr, sy.Bin(
                    "*", sy.Sym(var, sy.Kind.LOOP), step.expr)))
                return
        self._loop_body(stmt.body, stmt, var, loop)

    def _while(self, stmt: cst.While) -> None:
        """``while i < n // BLOCK:`` is a loop over tiles whose trip count is the bound."""
        header = self.span(stmt)
        header = Span(header.line, header.col, self.span(stmt.test).end_line, self.span(stmt.test).end_col)
        trip = None
        test = stmt.test
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
                and isinstance(test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual)):
            bound = self.ev(test.comparisons[0].comparator)
            if bound.expr is not None:
                trip = sy.floor_division(bound.expr, header)
        loop = Loop(header, None, trip, trip is not None, self.span(stmt).end_line)
        self.loops.append(loop)
        self._loop_body(stmt.body, stmt, None, loop)

    def _loop_body(self, body: cst.BaseSuite, stmt: cst.CSTNode, var: str | None, loop: Loop | None,
                   var_expr: sy.Expr | None = None) -> None:
        line = self.span(stmt).line
        iter_name = f"iter({var or line})"
        if var:
            self.env[var] = Val(expr=var_expr or sy.Sym(var, sy.Kind.LOOP))
            if loop:
                self.loop_of[var] = loop
        if loop:
            self.loop_of[iter_name] = loop
        iteration = sy.Sym(iter_name, sy.Kind.LOOP)
        for name, increment in self._carried(body):
            before = self.env.get(name)
            if before is None:
                continue
            if before.bptr is not None and increment.items:
                deltas = [i.expr or sy.Num(0) for i in increment.items]
                offs = tuple(
                    o if isinstance(d, sy.Num) and d.value == 0 else sy.Bin("+", o, sy.Bin("*", iteration, d))
                    for o, d in zip(before.bptr.offsets, deltas)
                )
                self.env[name] = replace(before, bptr=replace(before.bptr, offsets=offs))
            elif before.expr is not None and increment.expr is not None:
                self.env[name] = replace(before, expr=sy.Bin("+", before.expr, sy.Bin("*", iteration, increment.expr)))
        self._block(body)

    def _carried(self, body: cst.BaseSuite) -> list[tuple[str, Val]]:
        """Names advanced each iteration: ``p += inc``, ``p = p + inc``, ``p = tl.advance(p, d)``."""
        out = []
        for stmt in getattr(body, "body", []):
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) \
                        and isinstance(small.target, cst.Name):
                    out.append((small.target.value, self.ev(small.value)))
                elif isinstance(small, cst.Assign) and len(small.targets) == 1 \
                        and isinstance(small.targets[0].target, cst.Name):
                    name, value = small.targets[0].target.value, small.value
                    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add) \
                            and isinstance(value.left, cst.Name) and value.left.value == name:
                        out.append((name, self.ev(value.right)))
                    elif isinstance(value, cst.Call) and callee(value.func) == "advance" and len(value.args) > 1 \
                            and isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == name:
                        out.append((name, self.ev(value.args[1].value)))
        return out

    # --- expressions --------------------------------------------------------------------------

    def ev(self, node: cst.BaseExpression) -> Val:
        if isinstance(node, cst.Name):
            if node.value in self.env:
                return self.env[node.value]
            if node.value in ("True", "False", "None"):
                return Val(expr=sy.Sym(node.value, sy.Kind.CONST))
            return self._sym(node, sy.Kind.CONST if node.value.isupper() else sy.Kind.OTHER)
        if isinstance(node, cst.Integer):
            v = node.evaluated_value
            return Val(expr=sy.Num(v), number=float(v))
        if isinstance(node, cst.Float):
            v = node.evaluated_value
            return Val(expr=sy.Num(v), number=v)
        if isinstance(node, cst.BinaryOperation):
            op = _BINOPS.get(type(node.operator), "?")
            return self.binop(op, self.ev(node.left), self.ev(node.right))
        if isinstance(node, cst.BooleanOperation):
            left, right = self.ev(node.left), self.ev(node.right)
            return self.binop("&" if isinstance(node.operator, cst.And) else "|", left, right)
        if isinstance(node, cst.UnaryOperation):
            inner = self.ev(node.expression)
            if isinstance(node.operator, cst.Minus):
                flows = tuple(replace(f, pad=None if f.pad is None else -f.pad) for f in inner.flows)
                expr = sy.Bin("*", sy.Num(-1), inner.expr) if inner.expr is not None else None
                return Val(expr=expr, number=None if inner.number is None else -inner.number, flows=flows)
            if isinstance(node.operator, cst.Plus):
                return inner
            return Val(opaque_mask=True, expr=sy.Sym(self.text(node), sy.Kind.OTHER))
        if isinstance(node, cst.Comparison):
            return self._compare(node)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, (cst.Tuple, cst.List)):
            return Val(items=tuple(self.ev(e.value) for e in node.elements))
        if isinstance(node, cst.Attribute):
            base = node.value
            kind = sy.Kind.CONST if isinstance(base, cst.Name) and base.value in ("tl", "triton") else sy.Kind.OTHER
            return self._sym(node, kind)
        if isinstance(node, cst.IfExp):
            self.ev(node.test)
            return self._sym(node)
        return self._sym(node)

    def binop(self, op: str, a: Val, b: Val) -> Val:
        if op == "&":
            data = {"data": bool(a.extra.get("data") or b.extra.get("data") or a.flows or b.flows)}
            if a.opaque_mask or b.opaque_mask:
                return Val(opaque_mask=True, conds=(a.conds or ()) + (b.conds or ()), extra=data)
            return Val(conds=(a.conds or ()) + (b.conds or ()), extra=data,
                       expr=sy.Bin("&", a.expr, b.expr) if a.expr and b.expr else None)
        if op == "|":
            return Val(opaque_mask=True)
        expr = sy.Bin(op, a.expr, b.expr) if a.expr is not None and b.expr is not None else None
        number = None
        if a.number is not None and b.number is not None and op in "+-*/":
            number = arith(op, a.number, b.number)
        flows = self._arith_flows(op, a, b)
        if a.bptr is not None:
            return replace(a, expr=expr)
        return Val(expr=expr, number=number, flows=flows)

    def _arith_flows(self, op: str, a: Val, b: Val) -> tuple[Flow, ...]:
        if op not in ("+", "-", "*", "/"):
            return ()
        out = []
        same = {f.access for f in a.flows} & {f.access for f in b.flows}
        for f in a.flows:
            partner = next((g for g in b.flows if g.access == f.access), None)
            pad = arith(op, f.pad, partner.pad if partner else b.number)
            nonneg = op == "*" and partner is not None and (f.access in same) and a == b
            out.append(replace(f, pad=pad, nonneg=nonneg or (f.nonneg and op in "*/" and (
                (partner is not None and partner.nonneg) or (b.number is not None and b.number >= 0)))))
        for g in b.flows:
            if g.access in same:
                continue
            out.append(replace(g, pad=arith_reversed(op, a.number, g.pad), nonneg=False))
        return tuple(out)

    def _compare(self, node: cst.Comparison) -> Val:
        conds = []
        left_node = node.left
        left = self.ev(node.left)
        mentions_data = bool(left.flows)
        for target in node.comparisons:
            right = self.ev(target.comparator)
            mentions_data = mentions_data or bool(right.flows)
            op = _CMPOPS.get(type(target.operator))
            if op and left.expr is not None and right.expr is not None:
                conds.append(Cond(left.expr, op, right.expr, self.span(node), self.span(target.operator),
                                  op, self.text(left_node), self.text(target.comparator)))
            left, left_node = right, target.comparator
        return Val(conds=tuple(conds), extra={"data": mentions_data})

    def _subscript(self, node: cst.Subscript) -> Val:
        base = self.ev(node.value)
        elements = node.slice
        kinds = []
        for el in elements:
            s = el.slice
            if isinstance(s, cst.Slice) and s.lower is None and s.upper is None:
                kinds.append(":")
            elif isinstance(s, cst.Index) and isinstance(s.value, cst.Name) and s.value.value == "None":
                kinds.append("None")
            else:
                kinds.append("?")
        if "?" in kinds or kinds.count(":") != 1:
            if base.items is not None and len(elements) == 1 and isinstance(elements[0].slice, cst.Index):
                idx = elements[0].slice.value
                if isinstance(idx, cst.Integer) and idx.evaluated_value < len(base.items):
                    return base.items[idx.evaluated_value]
            return self._sym(node, sy.Kind.CONST if _is_meta(node) else sy.Kind.OTHER)
        axis = kinds.index(":")
        conds = None
        if base.conds is not None:
            conds = tuple(replace(c, left=sy.Axis(c.left, axis), right=sy.Axis(c.right, axis)) for c in base.conds)
        expr = sy.Axis(base.expr, axis) if base.expr is not None else None
        return Val(expr=expr, conds=conds, opaque_mask=base.opaque_mask, number=base.number, extra=base.extra)

    # --- calls --------------------------------------------------------------------------------

    def _call(self, node: cst.Call) -> Val:
        name = callee(node.func)
        args = [a for a in node.args if a.keyword is None]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
        if name in self.ctx.jit and isinstance(node.func, cst.Name) and self.depth < _MAX_INLINE_DEPTH:
            fn, seg = self.ctx.jit[name]
            helper = KernelAnalyser(self.ctx, fn, seg, self.depth + 1)
            helper.flags = getattr(self, "flags", {})
            return helper.inline([self.ev(a.value) for a in args], {k: self.ev(v) for k, v in kw.items()}, self)
        if name == "program_id":
            axis = self.text(args[0].value) if args else self.text(kw.get("axis", node))
            return Val(expr=sy.Sym(f"program_id({axis})", sy.Kind.PROGRAM))
        if name == "arange" and len(args) >= 2:
            lo, hi = self.text(args[0].value), self.text(args[1].value)
            return Val(expr=sy.Sym(f"arange({lo}, {hi})", sy.Kind.LANE))
        if name == "load" and receiver is not None and self._is_desc(receiver):
            return self._access(node, AccessKind.READ, None, {}, descriptor=True)
        if name == "store" and receiver is not None and self._is_desc(receiver):
            self._access(node, AccessKind.WRITE, None, {}, descriptor=True)
            return Val()
        if name in ("load", "store") + tuple(_ATOMICS) and args and _is_tl(node.func):
            kind = AccessKind.READ if name == "load" else AccessKind.WRITE if name == "store" else AccessKind.ATOMIC
            return self._access(node, kind, args, kw)
        if name in ("load_tensor_descriptor", "store_tensor_descriptor"):
            kind = AccessKind.READ if name.startswith("load") else AccessKind.WRITE
            return self._access(node, kind, None, {}, descriptor=True)
        if name == "make_block_ptr":
            return self._block_ptr(node, args, kw)
        if name == "advance" and args:
            return self.ev(args[0].value)
        if name in _DESCRIPTORS:
            return Val(desc=True)
        if name in _TRANSPARENT and args:
            return self.ev(args[0].value)
        if name in ("to", "cast") and (receiver is not None or args):
            inner = self.ev(receiver) if name == "to" and receiver is not None else self.ev(args[0].value)
            return replace(inner, number=inner.number)
        if name == "static_assert" and args:
            fact = divisibility(args[0].value, self.text, "static_assert")
            if fact:
                self.contracts.append(fact)
            return Val()
        if name == "cdiv" and len(args) == 2:
            return Val(expr=sy.Call("cdiv", (self._expr(args[0].value), self._expr(args[1].value))))
        if name == "float" and isinstance(node.func, cst.Name) and args and isinstance(args[0].value, cst.SimpleString):
            try:
                v = float(args[0].value.evaluated_value)
            except ValueError:
                return self._sym(node)
            return Val(expr=sy.Num(v), number=v)
        if name in ("zeros", "full", "zeros_like", "full_like"):
            fill = 0.0 if name.startswith("zeros") else self.ev(args[1].value).number if len(args) > 1 else None
            return Val(number=fill, expr=sy.Sym(self.text(node), sy.Kind.OTHER))
        if name in ("maximum", "minimum", "max", "min") and len(args) >= 2 and not kw.get("axis"):
            return self._minmax(node, name, [self.ev(a.value) for a in args])
        if name == "where" and len(args) == 3:
            return self._where(args)
        if name in _REDUCTIONS or name == "dot" or name == "reduce":
            return self._reduce(node, name, args, kw, receiver)
        if name in ELEMENTWISE:
            target = args[0].value if args else receiver
            if target is not None:
                inner = self.ev(target)
                return Val(expr=sy.Sym(self.text(node), sy.Kind.OTHER), flows=elementwise(name, inner.flows))
        if name in ("trans", "permute", "reshape", "view", "broadcast_to", "expand_dims", "join", "split"):
            for a in args:
                self.ev(a.value)
            return self._sym(node)
        for a in args:
            self.ev(a.value)
        for v in kw.values():
            self.ev(v)
        if receiver is not None:
            self.ev(receiver)
        return self._sym(node, sy.Kind.CONST if name in ("num_programs",) else sy.Kind.OTHER)

    def _expr(self, node: cst.BaseExpression) -> sy.Expr:
        v = self.ev(node)
        return v.expr if v.expr is not None else sy.Sym(self.text(node), sy.Kind.OTHER)

    def _is_desc(self, node: cst.BaseExpression) -> bool:
        return self.ev(node).desc

    def _minmax(self, node: cst.Call, name: str, vals: list[Val]) -> Val:
        fn = max if name in ("maximum", "max") else min
        flows = []
        for i, v in enumerate(vals):
            others = [o for j, o in enumerate(vals) if j != i]
            for f in v.flows:
                known = [o.number for o in others]
                pad = None if f.pad is None or None in known else fn([f.pad, *known])
                if f.pad is not None and None in known and math.isinf(f.pad) and (f.pad < 0) == (fn is max):
                    pad = None  # max(-inf, unknown) is the unknown
                flows.append(replace(f, pad=pad))
        exprs = [v.expr for v in vals]
        expr = sy.Call("min" if fn is min else "max", tuple(exprs)) if None not in exprs else None
        return Val(expr=expr, flows=tuple(flows))

    def _where(self, args: list[cst.Arg]) -> Val:
        cond, a, b = (self.ev(x.value) for x in args)
        bound_mask = bool(cond.conds) and any(sy.lanes(c.left) or sy.lanes(c.right) for c in cond.conds) \
            and not cond.extra.get("data")
        flows = []
        for f in a.flows:
            flows.append(replace(f, pad=b.number, undefined=False) if bound_mask else replace(f, pad=None))
        for f in b.flows:
            flows.append(replace(f, pad=None))
        expr = sy.Sym("where(...)", sy.Kind.OTHER)
        return Val(expr=expr, flows=tuple(flows))

    def _reduce(self, node: cst.Call, name: str, args: list[cst.Arg], kw: dict, receiver) -> Val:  # type: ignore[no-untyped-def]
        span = self.span(node)
        if name == "dot":
            operands = [self.ev(a.value) for a in args[:2]]
            for axes, v in zip(((1,), (0,)), operands):
                self._record_uses(v, Reduction.DOT, span, axes)
            for a in args[2:]:
                self.ev(a.value)
            return self._sym(node)
        if name == "reduce":
            for a in args:
                self.ev(a.value)
            return self._sym(node)
        target = args[0].value if args and receiver is None or (args and _is_tl(node.func)) else receiver
        if target is None:
            return self._sym(node)
        value = self.ev(target)
        axis_node = kw.get("axis") or (args[1].value if len(args) > 1 and target is args[0].value else
                                      args[0].value if receiver is not None and args and target is receiver else None)
        axes = (axis_node.evaluated_value,) if isinstance(axis_node, cst.Integer) else None
        self._record_uses(value, _REDUCTIONS[name], span, axes)
        return self._sym(node)

    def _record_uses(self, value: Val, reduction: Reduction, span: Span, axes: tuple[int, ...] | None) -> None:
        for f in value.flows:
            pending = self.accesses[f.access]
            pad = Padding(f.pad, undefined=f.undefined)
            if reduction in (Reduction.MAX, Reduction.ARGMAX) and f.nonneg and f.pad is not None and f.pad <= 0:
                pad = Padding(-math.inf, undefined=f.undefined)  # a floor below every valid lane
            use = Use(reduction, pad, span, f.via, axes)
            if use not in pending.uses:
                pending.uses.append(use)

    def _block_ptr(self, node: cst.Call, args: list[cst.Arg], kw: dict) -> Val:
        names = ["base", "shape", "strides", "offsets", "block_shape", "order"]
        given = dict(zip(names, (a.value for a in args)))
        given.update(kw)
        if not all(k in given for k in ("base", "shape", "offsets", "block_shape")):
            return self._sym(node)

        def items(n: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
            return tuple(e.value for e in n.elements) if isinstance(n, (cst.Tuple, cst.List)) else ()

        shape = tuple(self._expr(e) for e in items(given["shape"]))
        offsets = tuple(self._expr(e) for e in items(given["offsets"]))
        block = tuple(self.text(e) for e in items(given["block_shape"]))
        base = self.ev(given["base"])
        base_name = sy.render(base.expr) if base.expr is not None else self.text(given["base"])
        return Val(bptr=BlockPtr(base_name, shape, offsets, block))

    # --- accesses -----------------------------------------------------------------------------

    def _access(self, node: cst.Call, kind: AccessKind, args: list[cst.Arg] | None, kw: dict,
                descriptor: bool = False) -> Val:
        span = self.span(node)
        index = len(self.accesses)
        text = self.text(node)
        if descriptor:
            self.accesses.append(_Pending(kind, text.split(".")[0], span, (), (), Padding(0.0) if kind is
                                          AccessKind.READ else None, tuple(self.facts), False, frozenset(), text, None))
            return Val(flows=(Flow(index, 0.0),) if kind is AccessKind.READ else ())
        assert args is not None
        positional = {"load": ["pointer", "mask", "other", "boundary_check", "padding_option"],
                      "store": ["pointer", "value", "mask", "boundary_check"]}.get(
            callee(node.func), ["pointer", "val", "mask"])
        given = dict(zip(positional, (a.value for a in args)))
        given.update(kw)
        for k in ("value", "val", "cmp"):
            if k in given:
                self.ev(given[k])
        ptr = self.ev(given["pointer"])
        if ptr.bptr is not None:
            return self._block_access(node, kind, ptr.bptr, given, span, text)
        if ptr.expr is None:
            return self._sym(node)
        buffer = _buffer(ptr.expr)
        parts = sy.dims_of(ptr.expr, span, self.loop_of)
        dims = tuple(p.dim for p in parts)
        guards: list[Bound] = [p.intrinsic for p in parts if p.intrinsic is not None]
        opaque = False
        mask_node = given.get("mask")
        mask = self.ev(mask_node) if mask_node is not None and not _is_none(mask_node) else None
        if mask is not None:
            if mask.opaque_mask or mask.conds is None:
                opaque = True
            else:
                found = [b for c in mask.conds for b in self._bounds(c)]
                if not found and (mask.extra.get("data") or any(_has_lanes(c) for c in mask.conds)):
                    opaque = True  # a data or causal mask: what bounds the access is unknown
                guards.extend(found)
        guards.extend(self._tile_guard_bounds(parts))
        padding = None
        flows: tuple[Flow, ...] = ()
        other_at = None
        if kind is AccessKind.READ and mask is not None:
            other_node = given.get("other")
            if other_node is None or _is_none(other_node):
                padding = Padding(0.0, undefined=True)
                last = node.args[-1]
                end = self.span(last.value)
                other_at = Span(end.end_line, end.end_col, end.end_line, end.end_col)
            else:
                padding = Padding(self.ev(other_node).number)
            flows = (Flow(index, padding.value, padding.undefined),)
        self.accesses.append(_Pending(kind, buffer, span, dims, tuple(guards), padding, tuple(self.facts),
                                      opaque, frozenset(), text, other_at))
        return Val(expr=sy.Sym(f"load@{span.line}:{span.col}", sy.Kind.OTHER), flows=flows)

    def _block_access(self, node: cst.Call, kind: AccessKind, bp: BlockPtr, given: dict, span: Span,
                      text: str) -> Val:
        from boundcheck.model import Dim

        checked_axes: set[int] = set()
        check = given.get("boundary_check")
        if isinstance(check, (cst.Tuple, cst.List)):
            checked_axes = {e.value.evaluated_value for e in check.elements if isinstance(e.value, cst.Integer)}
        dims = []
        for axis, offset in enumerate(bp.offsets):
            ks = sy.kinds(offset)
            tiling = Tiling.PROGRAM if sy.Kind.PROGRAM in ks else Tiling.LOOP if sy.Kind.LOOP in ks else Tiling.WHOLE
            tile = bp.block[axis] if axis < len(bp.block) else None
            dims.append(Dim(f"block:{bp.base}:{axis}", f"{bp.base} axis {axis}", tile, tiling, axis))
        checked = frozenset(d.source for d in dims if d.axis in checked_axes)
        padding, flows = None, ()
        index = len(self.accesses)
        if kind is AccessKind.READ and checked:
            opt = given.get("padding_option")
            value = opt.evaluated_value if isinstance(opt, cst.SimpleString) else ""
            padding = Padding(math.nan) if value == "nan" else Padding(0.0, undefined=value != "zero")
            flows = (Flow(index, padding.value, padding.undefined),)
        guards = tuple(Bound(d.source, d.label, "<", "shape", True, span, axis=d.axis)
                       for d in dims if d.source in checked)
        self.accesses.append(_Pending(kind, bp.base, span, tuple(dims), guards, padding, tuple(self.facts),
                                      False, checked, text, None))
        return Val(expr=sy.Sym(f"load@{span.line}:{span.col}", sy.Kind.OTHER), flows=flows)

    def _bounds(self, c: Cond) -> list[Bound]:
        found = sy.bounds_of(c.left, c.op, c.right, c.span)
        index, limit = (c.left_text, c.right_text) if sy.lanes(c.left) else (c.right_text, c.left_text)
        return [replace(b, op_span=c.op_span, op_text=c.op_text, index=index or b.index) for b in found]

    def _tile_guard_bounds(self, parts: list[sy.DimPart]) -> list[Bound]:
        """A scalar ``if (pid + 1) * BLOCK <= n:`` proves the whole tile in bounds."""
        out = []
        for g in self.tile_guards:
            if g.op in ("<", "<="):
                left, op, right = g.left, g.op, g.right
            elif g.op in (">", ">="):
                left, op, right = g.right, {">": "<", ">=": "<="}[g.op], g.left
            else:
                continue
            names = {s.name for s in sy.syms(left) if s.kind in (sy.Kind.PROGRAM, sy.Kind.LOOP)}
            if not names or sy.kinds(right) & {sy.Kind.PROGRAM, sy.Kind.LOOP, sy.Kind.LANE}:
                continue
            for p in parts:
                if p.offset_syms & names:
                    out.append(Bound(p.dim.source, sy.render(left), op, sy.render(right), True, g.span,
                                     axis=p.dim.axis, wrap=True))
        return out

    def _finish(self, p: _Pending) -> Access:
        dims = tuple(replace(d, label=self.labels.get(d.source, d.label)) for d in p.dims)
        return Access(p.kind, p.buffer, p.span, Space.GLOBAL, dims, p.guards, p.padding, tuple(p.uses),
                      p.facts, 1, p.opaque, p.checked, p.text, p.other_at)


def _is_tl(func: cst.BaseExpression) -> bool:
    return isinstance(func, cst.Attribute) or isinstance(func, cst.Name)


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_meta(node: cst.Subscript) -> bool:
    return isinstance(node.value, cst.Name) and node.value.value in ("meta", "META", "args", "nargs", "kwargs")


def _arg_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Subscript) and node.slice and isinstance(node.slice[0].slice, cst.Index):
        key = node.slice[0].slice.value
        if isinstance(key, cst.SimpleString):
            return str(key.evaluated_value)
    if isinstance(node, cst.Integer):
        return node.value
    return cst.Module([]).code_for_node(node)


def _stops_before_tail(stop: sy.Expr | None) -> bool:
    """``cdiv(K, B) - 1`` tiles, or ``cdiv(K, B) * B - B`` elements: every tile is full."""
    if stop is None:
        return False
    terms = sy.expand(stop)
    has_cdiv = any(isinstance(f, sy.Call) and f.fn == "cdiv" for t in terms for f in t.factors)
    return has_cdiv and (sy.constant(terms) < 0 or any(t.coeff < 0 for t in sy.variable(terms)))


def _has_lanes(c: Cond) -> bool:
    return bool(sy.lanes(c.left) or sy.lanes(c.right))


def _buffer(expr: sy.Expr) -> str:
    """The pointer a flat address starts from: the unit term that is a plain parameter."""
    for t in sy.expand(expr):
        if len(t.factors) == 1 and t.coeff == 1 and isinstance(t.factors[0], sy.Sym) \
                and t.factors[0].kind in (sy.Kind.EXTENT, sy.Kind.OTHER):
            return t.factors[0].name
    return sy.render(expr)
