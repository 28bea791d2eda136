"""Buffers a Triton kernel fills only with values that are never negative.

A two-stage reduction writes one partial per program in one kernel (``tl.max(tl.abs(x))``,
``tl.sum(x * x)``) and reduces the partials in another; there a load padded with 0 feeds a max
whose identity, over values that are all >= 0, is 0 too. This module reads the writing kernel's
side, syntactically: a pointer parameter every store of which writes a non-negative value, with no
other way for the kernel to write it (an atomic, a helper it is passed to, a descriptor). The host
side (every launch of the reader passes a fresh allocation only such kernels write, and no host
code writes) is :meth:`triton_kernel.ModuleContext.nonneg_buffer`, from what
:meth:`triton_host._Host.launch` records.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from boundcheck.frontends.pysource import callee

# elementwise functions whose result is >= 0 whatever their operand
_NONNEG = {"abs", "fabs", "exp", "exp2", "sqrt", "sqrt_rn", "rsqrt", "sigmoid", "zeros", "zeros_like", "numel"}
# functions and methods that keep their first operand's sign (reductions, casts, reshapes)
_SAME = {"max", "min", "sum", "cumsum", "cummax", "cummin", "to", "cast", "reshape", "view", "trans",
         "permute", "broadcast_to", "expand_dims", "ravel", "sort", "flip", "multiple_of", "max_contiguous",
         "pow", "powf", "fmax"}
_KNOWN = _NONNEG | _SAME | {"maximum", "minimum", "where", "full", "fma"}
_BUILTINS = {"range", "len", "int", "float", "bool", "print", "isinstance", "tuple", "list", "zip", "enumerate",
             "str", "static_range"}  # plain names that write no memory
_MODULES = {"tl", "triton", "language", "math", "libdevice", "tle"}  # roots of Triton's own functions


def written_params(fn: ast.FunctionDef, helpers: set[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The parameters ``fn`` may write (a store, an atomic, a helper or descriptor it is passed
    to), and those among them that only its stores write, each with a value >= 0. ``helpers``: the
    module's jit functions; another plain name is Triton's own only where it names one of its
    functions (``pow = tl_extra_shim.pow``), else it may be a helper of another file."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    signs = _Signs(fn, params, helpers)
    stored: set[str] = set()
    tainted: set[str] = set()
    for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
        name, kind = callee(call.func), signs.kind(call.func)
        if name == "store" and kind == "module":
            args = dict(zip(("pointer", "value"), call.args)) | {k.arg: k.value for k in call.keywords if k.arg}
            targets = signs.bases(args["pointer"]) & params if "pointer" in args else params
            stored |= targets
            if "value" not in args or not signs.nonneg(args["value"]):
                tainted |= targets
        elif name.startswith("atomic"):
            pointer = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "pointer"), None)
            tainted |= (signs.bases(pointer) if pointer is not None else params) & params
        elif kind == "function" or name == "store":
            # a helper, a descriptor's store: writes not read here
            operands = [*call.args, *(k.value for k in call.keywords)]
            if isinstance(call.func, ast.Attribute):
                operands.append(call.func.value)
            tainted |= {b for a in operands for b in signs.bases(a)} & params
    return frozenset(stored | tainted), frozenset(stored - tainted)


def _kind(func: ast.expr) -> str:
    """``module`` for Triton's own functions (``tl.math.exp``), ``method`` for a value's method
    (``x.to``, ``desc.store``), ``function`` for a plain name (a jit helper, a builtin)."""
    if isinstance(func, ast.Name):
        return "function"
    while isinstance(func, ast.Attribute):
        func = func.value
    return "module" if isinstance(func, ast.Name) and func.id in _MODULES else "method"


class _Signs:
    """Local assignments of one function, and what they say of signs and pointer bases."""

    def __init__(self, fn: ast.FunctionDef, params: set[str], helpers: set[str]) -> None:
        self.params, self.helpers = params, helpers
        self.assigned: dict[str, list[ast.expr | None]] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                value = ast.BinOp(node.target, node.op, node.value) if isinstance(node, ast.AugAssign) else node.value
                self._bind(node.target, value)
            elif isinstance(node, (ast.For, ast.comprehension, ast.withitem, ast.NamedExpr)):
                target = node.optional_vars if isinstance(node, ast.withitem) else node.target
                if target is not None:
                    self._bind(target, node.value if isinstance(node, ast.NamedExpr) else None)
        self._visiting: set[str] = set()

    def _bind(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self.assigned.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
                else [None] * len(target.elts)
            for t, v in zip(target.elts, values):
                self._bind(t, v)

    def _values(self, name: str) -> Iterator[ast.expr | None]:
        """Every value ``name`` can hold: its assignments, and an unknown one for a parameter."""
        if name in self.params:
            yield None
        yield from self.assigned.get(name, [None])

    def nonneg(self, node: ast.expr) -> bool:
        """``node`` is >= 0 on every lane (a name: every assignment is, taking the name itself as
        >= 0 where an assignment reads it, which is induction over the stores of a loop)."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and node.value >= 0
        if isinstance(node, ast.Name):
            if node.id in self._visiting:
                return True
            self._visiting.add(node.id)
            try:
                return all(v is not None and self.nonneg(v) for v in self._values(node.id))
            finally:
                self._visiting.discard(node.id)
        if isinstance(node, ast.Compare) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd):
            return self.nonneg(node.operand)
        if isinstance(node, ast.Subscript):
            return self.nonneg(node.value)
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.IfExp):
            return self.nonneg(node.body) and self.nonneg(node.orelse)
        if isinstance(node, ast.Call):
            return self._call(node)
        return False

    def _binary(self, node: ast.BinOp) -> bool:
        if isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant) \
                and isinstance(node.right.value, int) and node.right.value % 2 == 0:
            return True  # x ** 2
        if isinstance(node.op, ast.Mult) and ast.dump(node.left) == ast.dump(node.right):
            return True  # x * x
        if isinstance(node.op, (ast.BitAnd, ast.BitOr)):
            return self.nonneg(node.left) and self.nonneg(node.right)
        if isinstance(node.op, (ast.Add, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)):
            return self.nonneg(node.left) and (isinstance(node.op, ast.Pow) or self.nonneg(node.right))
        return False

    def kind(self, func: ast.expr) -> str:
        """:func:`_kind`, with a plain name that is no jit helper of the module and names one of
        Triton's (or Python's) functions read as that function."""
        kind = _kind(func)
        if kind == "function" and isinstance(func, ast.Name) and func.id not in self.helpers \
                and (func.id in _KNOWN or func.id in _BUILTINS):
            return "module"
        return kind

    def _call(self, node: ast.Call) -> bool:
        name, kind = callee(node.func), self.kind(node.func)
        operands = list(node.args)
        if kind == "method":
            assert isinstance(node.func, ast.Attribute)
            operands.insert(0, node.func.value)  # `x.to(tl.float32)` keeps x's sign
        elif kind == "function":
            return False  # a helper's result: not read here
        name = {"max": "maximum", "min": "minimum"}.get(name, name) if isinstance(node.func, ast.Name) else name
        if name in _NONNEG:
            return True
        if name == "full":
            value = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "value"), None)
            return value is not None and self.nonneg(value)
        if name == "maximum":
            return any(self.nonneg(a) for a in operands)
        if name in ("minimum", "fma"):
            return bool(operands) and all(self.nonneg(a) for a in operands)
        if name == "where":
            return len(operands) == 3 and self.nonneg(operands[1]) and self.nonneg(operands[2])
        return name in _SAME and bool(operands) and self.nonneg(operands[0])

    def bases(self, node: ast.expr) -> set[str]:
        """Parameters ``node``'s value may be a pointer into (more, never fewer); loaded data
        (``tl.load(X + i)``) points into nothing."""
        found: set[str] = set()
        seen: set[str] = set()
        stack: list[ast.AST] = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Call) and callee(n.func) == "load" and self.kind(n.func) == "module":
                continue
            if isinstance(n, ast.Name) and n.id not in seen:
                seen.add(n.id)
                if n.id in self.params:
                    found.add(n.id)
                stack.extend(v for v in self.assigned.get(n.id, []) if v is not None)
            stack.extend(ast.iter_child_nodes(n))
        return found

