"""Sub-tile columns of a chunk: ``(pid % NC) * BC + arange(0, BC)`` inside a row of BT elements.

Chunked kernels split a chunk of BT columns into NC = cdiv(BT, BC) sub-chunks of BC and give each
program one of them (``i_i = i_c % NC``). The column stays inside its row without a mask when the
host launches NC as that count and BT is a multiple of BC: the sub-chunk index is below BT / BC, so
``i_i * BC + BC <= BT``. The host shows the multiple with literals (``BT, BC = 64, 16``) or with
``BC = min(16, BT)`` for a BT the module makes a power of two (``next_power_of_2``, or a raise unless
it is one). A count that is no such quotient, or a BT that may be 48 with BC = 32, proves nothing.

The same holds for a constant column (``16 + arange(0, 16)``, or ``(i_t * 16) % BT + arange(0, 16)``)
in a kernel the host picks by the row length (``if BT == 32: fn = k32`` before ``fn[grid](...)``):
the branch fixes BT, and the column fits in it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from boundcheck import symbolic as sy
from boundcheck.frontends.pysource import callee, nested_statements

Subtile = tuple[str, str, str]  # kernel parameters (count NC, row length BT, tile BC)


def _int(node: ast.expr) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _is_pow2(n: int | None) -> bool:
    return n is not None and n > 0 and n & (n - 1) == 0


def _name(node: ast.expr) -> str | None:
    """``chunk_size`` and ``ctx.chunk_size`` name the same value as it is handed around."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _pow2_value(node: ast.expr) -> bool | None:
    """True for a value that is a power of two by construction (``next_power_of_2(n)``, ``64``,
    ``min(64, max(16, next_power_of_2(n)))``, ``2 ** k``), False for one that may be another number
    (``48``, ``n * 3``), None for a value handed on (a name, an attribute, ``kwargs.pop(...)``)."""
    if (n := _int(node)) is not None:
        return _is_pow2(n)
    if isinstance(node, ast.Call) and callee(node.func) == "next_power_of_2":
        return True
    if isinstance(node, ast.Call) and callee(node.func) in ("min", "max") and node.args and not node.keywords:
        return all(_pow2_value(a) for a in node.args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and _int(node.left) == 2:
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.LShift) and _int(node.left) == 1:
        return True
    if isinstance(node, (ast.BinOp, ast.UnaryOp)):
        return False
    return None


def _failing_op(node: ast.If | ast.Assert) -> type[ast.cmpop] | None:
    """The comparison that stops a wrong value: ``!=`` in an ``if`` that raises, ``==`` in an assert."""
    if isinstance(node, ast.Assert):
        return ast.Eq
    return ast.NotEq if any(isinstance(s, ast.Raise) for s in node.body) else None


def _checks_pow2(test: ast.expr, name: str, op: type[ast.cmpop]) -> bool:
    """A test that stops a ``name`` that is not a power of two: ``x != 2 ** (x.bit_length() - 1)``
    or ``x & (x - 1) != 0`` in an ``if`` that raises (possibly beside ``x is not None and ...``), or
    the same with ``==`` in an assert."""
    for node in ast.walk(test):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], op)):
            continue
        sides = [node.left, node.comparators[0]]
        named = [s for s in sides if _name(s) == name]
        if named and any(isinstance(s, ast.BinOp) and isinstance(s.op, ast.Pow) and _int(s.left) == 2 for s in sides):
            return True
        if any(isinstance(s, ast.BinOp) and isinstance(s.op, ast.BitAnd) and _name(s.left) == name for s in sides):
            return True
    return False


def power_of_two_names(tree: ast.Module) -> set[str]:
    """Names the module makes powers of two: it computes them as one or raises unless they are one
    (an ``if`` whose body raises, an ``assert``), and never sets them to another number. A value is
    handed between functions under its name (``chunk_size=chunk_size``, ``ctx.chunk_size``)."""
    shown: set[str] = set()
    vetoed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = zip(target.elts, node.value.elts) if isinstance(target, ast.Tuple) \
                    and isinstance(node.value, ast.Tuple) and len(target.elts) == len(node.value.elts) \
                    else [(target, node.value)]
                for t, v in pairs:
                    if (n := _name(t)) is not None:
                        kind = _pow2_value(v)
                        if kind is False:
                            vetoed.add(n)
                        elif kind and _int(v) is None:
                            shown.add(n)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = [*node.args.posonlyargs, *node.args.args]
            for a, d in zip(args[len(args) - len(node.args.defaults):], node.args.defaults):
                if _int(d) is not None and not _is_pow2(_int(d)):
                    vetoed.add(a.arg)
        elif isinstance(node, (ast.If, ast.Assert)) and (op := _failing_op(node)) is not None:
            shown |= {n for s in ast.walk(node.test) if (n := _name(s)) and _checks_pow2(node.test, n, op)}
    return shown - vetoed


def launch_subtiles(pairs: list[tuple[str | None, ast.expr]], constexpr: set[str],
                    resolve: Callable[[ast.expr], ast.expr], render: Callable[[ast.expr], str],
                    pow2: Callable[[], set[str]]) -> frozenset[Subtile]:
    """The (NC, BT, BC) parameter triples this launch passes as ``NC = cdiv(BT, BC)`` (or
    ``BT // BC``) with BT a multiple of BC on the host (``pow2``: the module's power-of-two names,
    read only when a launch needs them)."""
    bound = {p: v for p, v in pairs if p is not None}
    by_value: dict[str, list[str]] = {}
    for p, v in bound.items():
        by_value.setdefault(render(v), []).append(p)
    out = set()
    for count, value in bound.items():
        node = resolve(value)
        if count not in constexpr:
            continue
        if isinstance(node, ast.Call) and callee(node.func) == "cdiv" and len(node.args) == 2:
            row, tile = node.args
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
            row, tile = node.left, node.right
        else:
            continue
        if not _multiple(row, tile, resolve, render, pow2):
            continue
        out |= {(count, r, t) for r in by_value.get(render(row), []) for t in by_value.get(render(tile), [])
                if r in constexpr and t in constexpr}
    return frozenset(out)


def _multiple(row: ast.expr, tile: ast.expr, resolve: Callable[[ast.expr], ast.expr],
              render: Callable[[ast.expr], str], pow2: Callable[[], set[str]]) -> bool:
    """``row % tile == 0`` on the host: two literals, or ``tile = min(c, row)`` with c and row
    powers of two (the smaller of two powers of two divides the larger)."""
    r, t = resolve(row), resolve(tile)
    if _int(r) is not None and _int(t) is not None:
        return _int(t) != 0 and _int(r) % _int(t) == 0  # type: ignore[operator]
    if not (isinstance(t, ast.Call) and callee(t.func) == "min" and len(t.args) == 2 and not t.keywords):
        return False
    literal = [a for a in t.args if _is_pow2(_int(a))]
    other = [a for a in t.args if _int(a) is None]
    if len(literal) != 1 or len(other) != 1 or render(other[0]) != render(row):
        return False
    return bool(_pow2_value(r)) or _name(r) in pow2()


def column_in_row(part: sy.DimPart, index: sy.Expr, proved: set[Subtile]) -> str | None:
    """The row length a unit-stride lane ``(x % NC) * BC + arange(0, BC)`` stays inside, where every
    other term of the index steps whole rows of BT (has BT as a factor) or is the base pointer, and
    the launches prove (NC, BT, BC)."""
    tile = part.dim.tile
    if part.intrinsic is not None or part.stride or tile is None:
        return None
    terms = sy.collect(sy.expand(index))  # constants too: a shift moves the column off its sub-chunk
    for count, row, t in sorted(proved):
        if t != tile or row not in part.dim.pitches:
            continue
        sub = [x for x in terms if _steps_subtile(x, count, tile)]
        rest = [x for x in terms if x not in sub and not _own_lane(x, part.dim.source)]
        if len(sub) == 1 and all(_whole_rows(x, row) for x in rest):
            return row
    return None


def _own_lane(term: sy.Term, source: str) -> bool:
    return term.coeff == 1 and len(term.factors) == 1 and any(n == source for n, _ in sy.lanes(term.factors[0]))


def _steps_subtile(term: sy.Term, count: str, tile: str) -> bool:
    """``(x % NC) * BC``: a sub-tile index below NC times the tile."""
    if term.coeff != 1 or len(term.factors) != 2:
        return False
    names = [sy.render(f) for f in term.factors]
    wraps = [f for f in term.factors if isinstance(f, sy.Bin) and f.op == "%" and sy.render(f.right) == count
             and sy.kinds(f.left) & {sy.Kind.PROGRAM, sy.Kind.LOOP} and not sy.lanes(f)]
    return tile in names and len(wraps) == 1


def _whole_rows(term: sy.Term, row: str) -> bool:
    """A term that moves by whole rows (BT among its factors) or the base pointer alone."""
    if any(sy.render(f) == row for f in term.factors):
        return True
    return len(term.factors) == 1 and isinstance(term.factors[0], sy.Sym) \
        and term.factors[0].kind is sy.Kind.EXTENT and not term.factors[0].name.isdigit()


def dispatched_kernels(scope: ast.AST, callee: ast.expr, jit: set[str],
                       render: Callable[[ast.expr], str]) -> list[tuple[str, dict[str, int]]]:
    """``if BT == 16: fn = k16 elif BT == 32: fn = k32 ...`` then ``fn[grid](...)``: each kernel the
    chain before the launch picks, with the value its branch gives the tested size (``{"BT": 32}``);
    empty unless the name is set to a kernel in two or more branches of one chain of equality tests."""
    if not isinstance(callee, ast.Name):
        return []
    for node in nested_statements(getattr(scope, "body", [])):
        if not isinstance(node, ast.If) or (node.end_lineno or node.lineno) >= callee.lineno:
            continue
        out: list[tuple[str, dict[str, int]]] = []
        link: ast.stmt | None = node
        while isinstance(link, ast.If):
            test = link.test
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
                sides = [test.left, test.comparators[0]]
                value = next((_int(s) for s in sides if _int(s) is not None), None)
                named = [s for s in sides if _int(s) is None]
                kernels = [s.value.id for s in link.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name)
                           and s.value.id in jit and any(_name(t) == callee.id for t in s.targets)]
                if value is not None and len(named) == 1 and len(kernels) == 1:
                    out.append((kernels[0], {render(named[0]): value}))
            link = link.orelse[0] if len(link.orelse) == 1 else None
        if len(out) >= 2:
            return out
    return []


def column_in_known_row(part: sy.DimPart, index: sy.Expr, launches: list[dict[str, int]]) -> str | None:
    """The row length a unit-stride lane ``c + arange(0, t)`` (or ``(x * t) % BT + arange(0, t)``)
    stays inside, where every launch gives BT a value v with ``c + t <= v`` (or ``v % t == 0``) and
    every other term of the index steps whole rows of BT or is the base pointer."""
    tile = part.dim.tile
    if part.intrinsic is not None or part.stride or tile is None or not tile.isdigit() or not launches:
        return None
    t = int(tile)
    terms = sy.collect(sy.expand(index))
    for row in part.dim.pitches:
        values = [v.get(row) for v in launches]
        if any(v is None for v in values):
            continue
        rest = [x for x in terms if not _own_lane(x, part.dim.source) and not _whole_rows(x, row)]
        shift = sum(x.coeff for x in rest if not x.factors)
        wraps = [x for x in rest if x.factors and _wraps_by_tiles(x, row, t)]
        if len(rest) != len(wraps) + sum(1 for x in rest if not x.factors) or shift < 0 or len(wraps) > 1:
            continue
        if all(v is not None and (v % t == 0 and shift == 0 if wraps else shift + t <= v) for v in values):
            return row
    return None


def _wraps_by_tiles(term: sy.Term, row: str, tile: int) -> bool:
    """``(x * 16) % BT`` for a tile of 16: a multiple of the tile reduced modulo the row length."""
    if term.coeff != 1 or len(term.factors) != 1:
        return False
    f = term.factors[0]
    if not (isinstance(f, sy.Bin) and f.op == "%" and sy.render(f.right) == row) or sy.lanes(f):
        return False
    inner = sy.collect(sy.expand(f.left))
    return bool(inner) and all(x.factors and x.coeff % tile == 0 for x in inner)
