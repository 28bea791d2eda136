"""Host code around Triton kernels: launch grids (BC302), and the asserts and launch arguments
that document a divisibility the kernel relies on (contracts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from boundcheck import symbolic as sy
from boundcheck.frontends.triton_kernel import ModuleContext, callee, divisibility
from boundcheck.model import Divisibility, FloorDiv, Launch

if TYPE_CHECKING:
    from boundcheck.frontends.triton import Segment

_MAX_DEPTH = 6


@dataclass
class _Host:
    """One host function walked in source order."""

    seg: Segment
    ctx: ModuleContext
    env: dict[str, cst.BaseExpression] = field(default_factory=dict)
    facts: list[Divisibility] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)

    def text(self, node: cst.CSTNode) -> str:
        return " ".join(self.seg.node.code_for_node(node).split())

    def expr(self, node: cst.BaseExpression, depth: int = 0) -> sy.Expr:
        if isinstance(node, cst.Integer):
            return sy.Num(node.evaluated_value)
        if isinstance(node, cst.Name):
            if node.value in self.env and depth < _MAX_DEPTH:
                return self.expr(self.env[node.value], depth + 1)
            return sy.Sym(node.value, sy.Kind.OTHER)
        if isinstance(node, cst.BinaryOperation):
            ops = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.FloorDivide: "//",
                   cst.Divide: "/", cst.Modulo: "%"}
            op = ops.get(type(node.operator))
            if op:
                return sy.Bin(op, self.expr(node.left, depth), self.expr(node.right, depth))
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) \
                and node.value.value in ("meta", "META", "args", "kwargs", "nargs"):
            key = node.slice[0].slice
            if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
                return sy.Sym(str(key.value.evaluated_value), sy.Kind.CONST)
        if isinstance(node, cst.Call) and callee(node.func) == "cdiv" and len(node.args) == 2:
            return sy.Call("cdiv", tuple(self.expr(a.value, depth) for a in node.args))
        if isinstance(node, cst.Call) and callee(node.func) in ("int", "abs") and len(node.args) == 1:
            return self.expr(node.args[0].value, depth)
        return sy.Sym(self.text(node), sy.Kind.OTHER)

    def fact(self, test: cst.BaseExpression) -> None:
        for part in _conjuncts(test):
            found = divisibility(part, lambda n: sy.render(self.expr(n)), "host assert")
            if found:
                self.facts.append(found)

    def launch(self, node: cst.Call) -> None:
        sub = node.func
        assert isinstance(sub, cst.Subscript)
        name = callee(sub.value)
        fn, _seg = self.ctx.jit[name]
        params = [p.name.value for p in fn.params.params]
        constexpr = {p.name.value for p in fn.params.params
                     if p.annotation and "constexpr" in cst.Module([]).code_for_node(p.annotation.annotation)}
        bound: dict[str, str] = {}
        for i, arg in enumerate(node.args):
            pname = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else None)
            if pname and not arg.star:
                bound[pname] = sy.render(self.expr(arg.value))
                if arg.keyword and pname not in params:
                    constexpr.add(pname)
                value = arg.value
                for _ in range(_MAX_DEPTH):
                    if not (isinstance(value, cst.Name) and value.value in self.env):
                        break
                    value = self.env[value.value]
                flag = divisibility(value, lambda n: sy.render(self.expr(n)), "launch argument")
                if flag:
                    self.ctx.flag_facts.setdefault(name, {})[pname] = _to_kernel(flag, self, node.args, params)
        tiles = constexpr | {bound[p] for p in constexpr if p in bound}
        grid = self._grid(sub.slice[0].slice.value if isinstance(sub.slice[0].slice, cst.Index) else None)
        floors = []
        for element in grid:
            e = self.expr(element)
            div = sy.floor_division(e, self.seg.span(element))
            if div is not None and div.tile in tiles and _static_divisor(e, div.tile):
                floors.append(div)
        self.launches.append(Launch(name, self.seg.span(node), tuple(floors), tuple(self.facts)))
        to_kernel = {host: p for p, host in bound.items()}
        for f in self.facts:
            extent = to_kernel.get(f.extent, f.extent if f.extent in params else None)
            tile = to_kernel.get(f.tile, f.tile if f.tile in params else None)
            if extent and tile:
                self.ctx.host_contracts.setdefault(name, []).append(Divisibility(extent, tile, "host assert"))

    def _grid(self, node: cst.BaseExpression | None, depth: int = 0) -> list[cst.BaseExpression]:
        if node is None or depth > _MAX_DEPTH:
            return []
        if isinstance(node, cst.Name) and node.value in self.env:
            return self._grid(self.env[node.value], depth + 1)
        if isinstance(node, cst.Lambda):
            return self._grid(node.body, depth + 1)
        if isinstance(node, (cst.Tuple, cst.List)):
            return [e.value for e in node.elements]
        return [node]


def _to_kernel(fact: Divisibility, host: _Host, args: list[cst.Arg], params: list[str]) -> Divisibility:
    """A launch argument's fact in host names, renamed to the kernel's parameters."""
    to_kernel = {}
    for i, arg in enumerate(args):
        pname = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else None)
        if pname:
            to_kernel[sy.render(host.expr(arg.value))] = pname
    extent = to_kernel.get(fact.extent, fact.extent)
    tile = to_kernel.get(fact.tile, fact.tile)
    return Divisibility(extent, tile, "launch argument")


def _static_divisor(e: sy.Expr, tile: str) -> bool:
    """The divisor is a block size fixed in the source (a literal, a constant, ``meta["BLOCK"]``),
    not a runtime shape: ``prod(shape) // shape[-1]`` is an exact division, not a grid of tiles."""
    for node in _subexprs(e):
        if isinstance(node, sy.Bin) and node.op in ("//", "/") and sy.render(node.right) == tile:
            den = node.right
            return sy.kinds(den) <= {sy.Kind.CONST} or (isinstance(den, sy.Sym) and den.name.isidentifier())
    return False


def _subexprs(e: sy.Expr):  # type: ignore[no-untyped-def]
    yield e
    if isinstance(e, sy.Bin):
        yield from _subexprs(e.left)
        yield from _subexprs(e.right)
    elif isinstance(e, sy.Call):
        for a in e.args:
            yield from _subexprs(a)


def _conjuncts(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _raises(body: cst.BaseSuite) -> bool:
    return any(isinstance(small, cst.Raise) for stmt in getattr(body, "body", [])
               if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body)


def _negated_divisibility(test: cst.BaseExpression) -> cst.BaseExpression | None:
    """``if K % B != 0: raise`` documents ``K % B == 0``."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
            and isinstance(test.comparisons[0].operator, cst.NotEqual):
        return test.with_changes(comparisons=[test.comparisons[0].with_changes(operator=cst.Equal())])
    return None


def analyse_host(seg: Segment, ctx: ModuleContext) -> list[Launch]:
    launches: list[Launch] = []
    jit_fns = {id(fn) for fn, _ in ctx.jit.values()}

    class Walker(cst.CSTVisitor):
        def __init__(self) -> None:
            self.stack: list[_Host] = [_Host(seg, ctx)]

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            if id(node) in jit_fns:
                return False
            self.stack.append(_Host(seg, ctx))
            return True

        def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
            if id(node) not in jit_fns:
                launches.extend(self.stack.pop().launches)

        def visit_Assign(self, node: cst.Assign) -> None:
            env = self.stack[-1].env
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    env[t.target.value] = node.value
                elif isinstance(t.target, cst.Tuple) and isinstance(node.value, cst.Tuple) \
                        and len(t.target.elements) == len(node.value.elements):
                    for name, value in zip(t.target.elements, node.value.elements):
                        if isinstance(name.value, cst.Name):
                            env[name.value.value] = value.value

        def visit_Assert(self, node: cst.Assert) -> None:
            self.stack[-1].fact(node.test)

        def visit_If(self, node: cst.If) -> None:
            positive = _negated_divisibility(node.test)
            if positive is not None and _raises(node.body):
                self.stack[-1].fact(positive)

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Subscript) and callee(node.func.value) in ctx.jit:
                self.stack[-1].launch(node)

    walker = Walker()
    seg.node.visit(walker)
    launches.extend(walker.stack[0].launches)
    return launches
