"""Host code around Triton kernels: launch grids (BC302), and the asserts and launch arguments
that document a divisibility the kernel relies on (contracts)."""

from __future__ import annotations

import ast
import copy
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from boundcheck import symbolic as sy
from boundcheck.frontends.pysource import callee
from boundcheck.frontends.triton_configs import config_values, unread_configs
from boundcheck.frontends.triton_imports import imported_check
from boundcheck.frontends.triton_kernel import Flag, ModuleContext, assume_fact, divisibility, flag_of
from boundcheck.frontends.triton_saved import first_param
from boundcheck.frontends.triton_subtiles import dispatched_kernels, launch_subtiles
from boundcheck.model import Divisibility, Launch

_MAX_DEPTH = 6
_HOST_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%"}
_META = ("meta", "META", "args", "kwargs", "nargs")
_ROUNDS = ("int", "abs", "floor", "trunc", "ceil")  # one-argument calls a grid size is rounded through
_ALLOCATORS = {"empty", "zeros", "ones", "full", "new_empty", "new_zeros", "new_ones", "new_full"}
_GRID_VALUES = (ast.Tuple, ast.List, ast.Lambda)
_METADATA = {"shape", "stride", "size", "numel", "dtype", "device", "dim", "ndim", "is_contiguous",
             "element_size", "data_ptr", "is_cuda"}
_SHAPE_READ = re.compile(r"\.(shape|numel|size|stride)\b|\[")  # a tensor dimension, not a block size


@dataclass
class _Host:
    """One host function (or the module's top level) walked in source order."""

    ctx: ModuleContext
    scope: ast.AST
    env: dict[str, ast.expr] = field(default_factory=dict)
    facts: list[Divisibility] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    rounded: dict[str, ast.expr] = field(default_factory=dict)  # name -> the tile it was rounded up to
    equalities: list[Divisibility] = field(default_factory=list)  # facts asserted as a == b
    branch: list[Divisibility] = field(default_factory=list)  # facts of the `if` tests around this statement
    sizes: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (tensor, dim) it reads the size of
    last: dict[str, str] = field(default_factory=dict)  # name -> the tensor whose last dimension a whole unpack gave it
    written: dict[str, bool] = field(default_factory=dict)  # name -> no host code here writes it
    declared: dict[str, list[str]] = field(default_factory=dict)  # name -> the shape an assert gives it
    # tests moved out of check functions, kept alive: Source caches a node's text by its id
    synthetic: list[ast.expr] = field(default_factory=list)
    uses: tuple[set[int], dict[str, list[int]]] | None = None  # _name_uses of the scope, walked once

    def rounding(self, name: str, value: ast.expr) -> None:
        """``X = ceil(n / T) * T`` (or ``cdiv(n, T) * T``, ``(n + T - 1) // T * T``): X % T == 0."""
        self.rounded.pop(name, None)
        if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult)):
            return
        for quotient, tile in ((value.left, value.right), (value.right, value.left)):
            t = self.render(tile)
            if isinstance(quotient, ast.Call) and callee(quotient.func) == "ceil" and len(quotient.args) == 1:
                inner = quotient.args[0]
                if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Div) and self.render(inner.right) == t:
                    self.rounded[name] = tile
            elif isinstance(quotient, ast.Call) and callee(quotient.func) == "cdiv" and len(quotient.args) == 2:
                if self.render(quotient.args[1]) == t:
                    self.rounded[name] = tile
            elif isinstance(quotient, ast.BinOp) and isinstance(quotient.op, ast.FloorDiv) \
                    and self.render(quotient.right) == t \
                    and sy.floor_division(self.expr(quotient), self.ctx.src.span(quotient)) is None:
                self.rounded[name] = tile  # a ceiling numerator, not a floor

    def expr(self, node: ast.expr, depth: int = 0) -> sy.Expr:
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return sy.Num(node.value)
        if isinstance(node, ast.Name):
            if node.id in self.env and depth < _MAX_DEPTH:
                return self.expr(self.env[node.id], depth + 1)
            return sy.Sym(node.id, sy.Kind.OTHER)
        if isinstance(node, ast.BinOp) and type(node.op) in _HOST_OPS:
            return sy.Bin(_HOST_OPS[type(node.op)], self.expr(node.left, depth), self.expr(node.right, depth))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in _META \
                and isinstance(node.slice, ast.Constant):
            return sy.Sym(str(node.slice.value), sy.Kind.CONST)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and depth < _MAX_DEPTH:
            # `config["ChunkQ"]` of a local `config = {"ChunkQ": ChunkQ, ...}`: the value it maps to,
            # as `**config` passes it to the kernel
            value = dict(self._mapping(node.value) or ()).get(node.slice.value)
            if value is not None:
                return self.expr(value, depth + 1)
        if isinstance(node, ast.Attribute) and (value := self.saved(node)) is not None and depth < _MAX_DEPTH:
            return self.expr(value, depth + 1)  # `ctx.BT` in backward: the forward's `ctx.BT = 64`
        if isinstance(node, ast.Call) and callee(node.func) == "cdiv" and len(node.args) == 2:
            return sy.Call("cdiv", tuple(self.expr(a, depth) for a in node.args))
        if isinstance(node, ast.Call) and callee(node.func) in _ROUNDS and len(node.args) == 1:
            # `int(n / B)`, `math.floor(n / B)`: n // B; `math.ceil(n / B)`: cdiv(n, B); and
            # `math.ceil(n // B)` still n // B, the floor taken before the ceiling sees it
            inner = self.expr(node.args[0], depth)
            if isinstance(inner, sy.Bin) and inner.op == "/":
                name = callee(node.func)
                return sy.Call("cdiv", (inner.left, inner.right)) if name == "ceil" \
                    else sy.Bin("//", inner.left, inner.right) if name != "abs" else inner
            return inner
        if isinstance(node, ast.Call) and callee(node.func) == "sum" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.GeneratorExp):
            return self.expr(node.args[0].elt, depth)  # sum(cdiv(m, BLOCK) for m in ms): a count per m
        return sy.Sym(self.ctx.src.text(node), sy.Kind.OTHER)

    def render(self, node: ast.expr) -> str:
        return sy.render(self.expr(node))

    def saved(self, node: ast.Attribute) -> ast.expr | None:
        """``ctx.X`` read in a method of an autograd Function: the value its forward saved, if fixed."""
        if not (isinstance(node.value, ast.Name) and isinstance(self.scope, ast.FunctionDef)
                and first_param(self.scope) == node.value.id):
            return None
        return self.ctx.saved.get(id(self.scope), {}).get(node.attr)

    def resolve(self, node: ast.expr) -> ast.expr:
        for _ in range(_MAX_DEPTH):
            if isinstance(node, ast.Name) and node.id in self.env:
                node = self.env[node.id]
            elif isinstance(node, ast.Attribute) and (value := self.saved(node)) is not None:
                node = value
            else:
                break
        return node

    def declare(self, test: ast.expr) -> None:
        """``assert x.shape == (B, H, n, C, C)``: x has that shape (not that it is contiguous)."""
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            for tensor, shape in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
                if isinstance(tensor, ast.Attribute) and tensor.attr == "shape" and isinstance(tensor.value, ast.Name) \
                        and isinstance(shape, (ast.Tuple, ast.List)) \
                        and not any(isinstance(d, ast.Starred) for d in shape.elts):
                    self.declared[tensor.value.id] = [self.render(d) for d in shape.elts]

    def fact(self, test: ast.expr) -> None:
        for found, equality in self.facts_of(test):
            self.facts.append(found)
            if equality:
                self.equalities.append(found)  # a == b: a contract only for a grid divided by b

    def facts_of(self, test: ast.expr, origin: str = "host assert", depth: int = 0) -> list[tuple[Divisibility, bool]]:
        """The divisibility facts a test states, each with whether it is an equality ``a == b``."""
        parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        out = []
        for part in parts:
            if depth < _MAX_DEPTH and (inlined := self.predicate(part)) is not None:
                out += self.facts_of(inlined, origin, depth + 1)
                continue
            found = divisibility(part, self.render, origin)
            if found and not (found.extent.isdigit() and found.tile.isdigit()):  # 128 % 32 == 0 says nothing
                equality = not (isinstance(part, ast.Compare) and isinstance(part.left, ast.BinOp))
                out.append((found, equality))
                product = sy.expand(self.expr(part.comparators[0])) if equality else []
                if len(product) == 1 and (len(product[0].factors) > 1 or product[0].coeff != 1):
                    # `c == groups * w`: c is a multiple of groups and of w
                    out += [(Divisibility(found.extent, sy.render(f), origin), False) for f in product[0].factors]
                elif len(product) > 1:
                    # `c == qh * d + 2 * kvh * d`: a sum of multiples of d is one
                    out += [(Divisibility(found.extent, name, origin), False) for name in _common_factors(product)]
        return out

    def checked(self, call: ast.Call) -> list[ast.expr]:
        """The tests a check function called as a statement asserts (``assert t``, ``if not t:
        raise``) at the top of its body, in this call's arguments (a test naming what the call
        does not pass is left out)."""
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        fn = self.ctx.functions.get(name)
        if fn is None and name and self.ctx.tree is not None:
            if name not in self.ctx.checks:
                self.ctx.checks[name] = imported_check(self.ctx.tree, self.ctx.path, name)
            fn = self.ctx.checks[name]
        if fn is None:
            return []
        tests = [test for stmt in fn.body for test in (
            [stmt.test] if isinstance(stmt, ast.Assert) else
            _held_after_raise(stmt.test) if isinstance(stmt, ast.If) and _raises(stmt.body) else [])]
        return [moved for test in tests if (moved := self._in_arguments(fn, call, test)) is not None]

    def predicate(self, call: ast.expr) -> ast.expr | None:
        """``shape_ok(k, n)``, a module function whose body returns one test (``return n % 64 == 0
        and …``): that test in the call's arguments."""
        fn = self.ctx.functions.get(call.func.id) \
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else None
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))] \
            if fn is not None else []
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            return None
        return self._in_arguments(fn, call, body[0].value)  # type: ignore[arg-type]

    def _in_arguments(self, fn: ast.FunctionDef, call: ast.Call, test: ast.expr) -> ast.expr | None:
        """A test of ``fn``'s body with its parameters replaced by what ``call`` passes (another
        module's nodes placeless); None where it names a parameter the call does not pass."""
        if any(isinstance(a, ast.Starred) for a in call.args):
            return None
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]]
        given = dict(zip(params, call.args)) | {k.arg: k.value for k in call.keywords if k.arg}
        if not {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} & set(params) <= set(given):
            return None
        self.synthetic.append(moved := _Substitute(given, placeless=True).visit(copy.deepcopy(test)))
        return moved

    def kernel_of(self, node: ast.expr) -> str | None:
        """The one jit function a launch's callee names (:meth:`kernels_of`), else None."""
        names = self.kernels_of(node)
        return names[0] if len(names) == 1 else None

    def kernels_of(self, node: ast.expr, depth: int = 0) -> list[str]:
        """The jit functions a launch's callee may name: directly, through a local alias, its
        ``.fn`` (the function under autotune), either branch of ``k.fn if c else k`` or of an
        ``if`` that sets the alias in both arms, or what a selector function of the module returns
        (``kernel = select_kernel(M, N, config)``, every ``return`` a kernel); empty where any
        choice is no kernel of the file."""
        if depth > _MAX_DEPTH:
            return []
        if isinstance(node, ast.Name) and node.id not in self.ctx.jit and node.id in self.env:
            return self.kernels_of(self.env[node.id], depth + 1)
        if isinstance(node, ast.Attribute) and node.attr == "fn":
            return self.kernels_of(node.value, depth + 1)
        if isinstance(node, ast.IfExp):
            body, orelse = self.kernels_of(node.body, depth + 1), self.kernels_of(node.orelse, depth + 1)
            return list(dict.fromkeys(body + orelse)) if body and orelse else []
        if isinstance(node, ast.Call) and callee(node.func) in _WRAPPERS and len(node.args) == 1:
            return self.kernels_of(node.args[0], depth + 1)  # torch.library's wrap_triton(kernel)[grid]
        name = callee(node)
        if name in self.ctx.jit:
            return [name]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return _selected(self.ctx.definitions.get(node.func.id, []), self.ctx.jit)
        return []

    def assume(self, text: str) -> None:
        """``# boundcheck: assume n % BLOCK == 0``: as written, and in the host's values (n may
        be ``x.numel()``, BLOCK a literal) as the grid renders them."""
        fact = assume_fact(text)
        if fact is None:
            return
        self.facts.append(fact)
        node = ast.parse(text.strip(), mode="eval").body
        rendered = divisibility(node, self.render, "assume comment")
        if rendered and rendered != fact:
            self.facts.append(rendered)

    def unwritten(self, name: str) -> bool:
        """No host code in this function writes ``name`` (:func:`_name_uses`), the scope walked once."""
        if name not in self.written:
            if self.uses is None:
                self.uses = _name_uses(self.scope)
            allowed, by_name = self.uses
            self.written[name] = all(i in allowed for i in by_name.get(name, ()))
        return self.written[name]

    def launch(self, node: ast.Call, name: str, values: dict[str, int] | None = None) -> None:
        """``values``: host sizes the branch that picked this kernel fixes (``{"BT": 32}``)."""
        sub = node.func
        assert isinstance(sub, ast.Subscript)
        node = self._unpacked(node)
        fn = self.ctx.jit[name]
        params = [a.arg for a in [*fn.args.args, *fn.args.kwonlyargs]]
        constexpr = {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs]
                     if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)}
        configs = config_values(fn, self.ctx.tree)
        implicit = _implicit_params(fn) | set(configs)
        pairs = _bind_arguments(node, [p for p in params if p not in implicit], by_name=unread_configs(fn, self.ctx.tree))
        bound: dict[str, str] = {}
        for pname, value in pairs:
            if pname is None:
                continue
            bound[pname] = self.render(value)
            if pname not in params:
                constexpr.add(pname)  # autotune / heuristics meta-parameters are compile-time
        to_kernel: dict[str, list[str]] = {}
        for p, host in bound.items():
            to_kernel.setdefault(host, []).append(p)
        names = {n: self.render(ast.Name(n)) for n in self.env}
        for pname, value in pairs:
            flag = flag_of(self.resolve(value), names) if pname else None
            if flag and pname:
                facts = tuple(Divisibility(e, t, "launch argument") for f in flag.facts
                              for e in to_kernel.get(f.extent, [f.extent]) for t in _kernel_tiles(f.tile, to_kernel))
                self.ctx.flag_facts.setdefault(name, {})[pname] = Flag(facts, flag.when)
        self.ctx.subtiles.setdefault(name, []).append(launch_subtiles(
            pairs, constexpr & set(params), self.resolve, self.render, lambda: self.ctx.power_of_two_names))
        self.ctx.row_values.setdefault(name, []).append(
            {p: v for p, value in pairs if p in constexpr and (v := (values or {}).get(self.render(value))) is not None})
        shapes = {p: shape for p, value in pairs if p and (shape := self._allocation(value)) is not None}
        self.ctx.launch_layouts.setdefault(name, []).append((dict(bound), shapes))
        self.ctx.launch_shapes.setdefault(name, []).append(
            {p: (shape, value.id) for p, value in pairs if p and isinstance(value, ast.Name)
             and (shape := shapes.get(p) or self.declared.get(value.id)) is not None})
        fresh = {p: value.id for p, value in pairs if p in shapes and isinstance(value, ast.Name)
                 and self.unwritten(value.id)}
        self.ctx.launch_buffers.setdefault(name, []).append((id(self.scope), fresh))
        for p, value in pairs:
            if p and isinstance(value, ast.Name):
                self.ctx.buffer_users.setdefault((id(self.scope), value.id), []).append((name, p))
        self.ctx.launch_grids.setdefault(name, []).append(self._grid_elements(sub.slice))
        self.ctx.launch_sizes.setdefault(name, []).append(
            {p: size for p, value in pairs if p and (size := self._size_of(value)) is not None})
        tiles = constexpr | {bound[p] for p in constexpr if p in bound}
        host_tiles = {bound[p] for p in constexpr if p in bound}  # a host value passed as a block size
        runtime = set(params) - constexpr - set(configs)
        # a compile-time parameter given a runtime value (`S=S`, S a tensor dimension) is still
        # a problem size where a grid function reads it as `meta["S"]`
        runtime |= {p for p, value in pairs if p in constexpr and p in params and p not in configs
                    and sy.kinds(self.expr(value)) & {sy.Kind.OTHER, sy.Kind.EXTENT}}
        floors = [div for el in self._grid(sub.slice) for alt in _alternatives(el)
                  for div in self._floors(alt, runtime, tiles, host_tiles)]
        divisors = {d.tile for d in floors}  # a == b covers a // b, not every floor of a
        facts = tuple(f for f in [*self.facts, *self.branch]
                      if f not in self.equalities or {f.extent, f.tile} & divisors)
        self.launches.append(Launch(name, self.ctx.src.span(node), tuple(floors), facts))
        for host_name, tile in self.rounded.items():  # a padded size passed as a kernel argument
            for extent in to_kernel.get(self.render(ast.Name(host_name)), []):
                for p in _dividing(self.render(tile), to_kernel, constexpr & set(params), bound, configs):
                    self.ctx.host_contracts.setdefault(name, []).append(
                        Divisibility(extent, p, "rounded allocation", pitch=True))
        # `assert x.shape[1] % g == 0` of a size passed under its own name (`B, C, H, W = x.shape`)
        dims = {f"{tensor}.shape[{d}]": n for n, (tensor, d) in self.sizes.items() if d >= 0 and n in to_kernel}

        def in_kernel_terms(f: Divisibility, origin: str) -> Iterator[Divisibility]:
            """The tile must name a kernel parameter; the extent may stay a host shape."""
            extent = f.extent if f.extent in to_kernel else dims.get(f.extent, f.extent)
            if f in self.equalities and extent not in to_kernel:
                return  # `if x.ndim != 2: raise`: an equality of something the kernel is not given
            tiles_named = set(to_kernel.get(f.tile, [f.tile] if f.tile in params else []))
            tiles_named |= _dividing(f.tile, {}, constexpr & set(params), bound, configs)  # n % 128 == 0: 64 too
            for tile in sorted(tiles_named):
                for named in to_kernel.get(extent, [extent]):
                    yield Divisibility(named, tile, origin)

        for f in self.facts:
            self.ctx.host_contracts.setdefault(name, []).extend(in_kernel_terms(f, "host assert"))
        def variant(f: Divisibility) -> bool:
            """``if BT == 64:`` picks a kernel variant by a compile-time size: through the divisors of
            64 it would make ``BT % BC`` a fact, which says nothing of a runtime extent."""
            return f in self.equalities and f.tile.isdigit() and set(to_kernel.get(f.extent, [f.extent])) <= constexpr

        # a grid of `n // B` programs never runs past n: where every launch floors an axis, the
        # kernel's tiles along it are full, and the skipped tail is the launch's defect (BC302,
        # reported there once) rather than one finding per access, as for a CUDA grid
        floored: list[Divisibility] = []
        for axis, element in enumerate(self._grid_axes(sub.slice) or ()):
            axis_floors = self._floors(element, runtime, tiles, host_tiles)
            scaled = _axis_tiles(fn, axis) if axis_floors else set()  # the kernel is walked only for a floor
            floored += [d for f in axis_floors for d in in_kernel_terms(Divisibility(f.extent, f.tile, "floor grid"),
                                                                        "floor grid") if d.tile in scaled]
        self.ctx.branch_contracts.setdefault(name, []).append(
            frozenset(d for f in self.branch if not variant(f) for d in in_kernel_terms(f, "host branch")) | set(floored))
        self.ctx.launch_units.setdefault(name, []).append(frozenset(
            p for p, value in pairs if p and isinstance(value, ast.Constant) and value.value == 1 and type(value.value) is int))
        # `BLOCK=n_cols` with n_cols read from x.shape: one tile spans that dimension of x
        self.ctx.launch_bindings.setdefault(name, []).append(
            {p: size[0] for p, value in pairs if p in constexpr and p in params
             and (size := self._size_of(value)) is not None})

    def through_launcher(self, node: ast.Call) -> list[tuple[ast.Call, str]]:
        """Launches made by a module function that takes the kernel as an argument
        (``_launch(kernel, grid=..., kwargs={...})`` whose body runs ``kernel[grid](**kwargs)``):
        each launch with the launcher's parameters replaced by this call's arguments."""
        name = callee(node.func) if isinstance(node.func, ast.Name) else ""
        inner_launches = self.ctx.launchers.get(name, [])
        if not inner_launches or any(isinstance(a, ast.Starred) for a in node.args):
            return []
        fn = self.ctx.functions[name]
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        given = dict(zip(params, node.args)) | {k.arg: k.value for k in node.keywords if k.arg}
        out = []
        for inner in inner_launches:
            if inner.func.value.id in given and (kernel := self.kernel_of(given[inner.func.value.id])):  # type: ignore[attr-defined]
                launch = _Substitute(given).visit(copy.deepcopy(inner))
                out.append((ast.copy_location(launch, node), kernel))
        return out

    def _allocation(self, value: ast.expr) -> list[str] | None:
        """``torch.empty((a, b, c), …)`` / ``torch.zeros(a, b, c)``: the contiguous shape, rendered."""
        node = self.resolve(value)
        if not (isinstance(node, ast.Call) and callee(node.func) in _ALLOCATORS and node.args):
            return None
        shape = self.resolve(node.args[0])  # `torch.empty(ws_shape, …)` with `ws_shape = (n, C, K)`
        dims = shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else node.args
        if any(isinstance(d, ast.Starred) for d in dims):
            return None
        return [self.render(d) for d in dims]

    def _unpacked(self, node: ast.Call) -> ast.Call:
        """The launch with ``*args`` / ``**kwargs`` spelled out where they name a local tuple
        (``*common[:4]`` too) or a local dict (``dict(BT=BT)``, ``{"BT": BT}``)."""
        args: list[ast.expr] = []
        for a in node.args:
            elts = self._sequence(a.value) if isinstance(a, ast.Starred) else None
            args += elts if elts is not None else [a]
        keywords: list[ast.keyword] = []
        for k in node.keywords:
            entries = self._mapping(k.value) if k.arg is None else None
            keywords += [ast.keyword(key, value) for key, value in entries] if entries is not None else [k]
        return ast.copy_location(ast.Call(node.func, args, keywords), node)

    def _sequence(self, node: ast.expr) -> list[ast.expr] | None:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            whole = self._sequence(node.value)
            bounds = [node.slice.lower, node.slice.upper, node.slice.step]
            if whole is None or not all(b is None or isinstance(b, ast.Constant) and type(b.value) is int
                                        for b in bounds):
                return None
            lo, hi, step = (b.value if isinstance(b, ast.Constant) else None for b in bounds)
            return whole[lo:hi:step]
        node = self.resolve(node)
        return list(node.elts) if isinstance(node, (ast.Tuple, ast.List)) \
            and not any(isinstance(e, ast.Starred) for e in node.elts) else None

    def _mapping(self, node: ast.expr, depth: int = 0) -> list[tuple[str, ast.expr]] | None:
        node = self.resolve(node)
        if isinstance(node, ast.Call) and callee(node.func) == "dict" and not node.args \
                and all(k.arg for k in node.keywords):
            return [(str(k.arg), k.value) for k in node.keywords]
        if isinstance(node, ast.Dict) and all(k is None or isinstance(k, ast.Constant) and isinstance(k.value, str)
                                              for k in node.keys):
            out: list[tuple[str, ast.expr]] = []
            for k, v in zip(node.keys, node.values):
                if k is None:  # {**common, "NT": T // BT}
                    inner = self._mapping(v, depth + 1) if depth < _MAX_DEPTH else None
                    if inner is None:
                        return None
                    out += inner
                else:
                    out.append((k.value, v))  # type: ignore[union-attr]
            return out
        return None

    def note_sizes(self, stmt: ast.Assign) -> None:
        """``B, T, H, M = *k.shape, s.shape[-1]`` / ``M = s.size(-1)``: names that hold a tensor's
        dimension, with the tensor as rendered here (a later reassignment renders differently)."""
        for t in stmt.targets:
            for name in ast.walk(t):
                if isinstance(name, ast.Name):
                    self.last.pop(name.id, None)
            if isinstance(t, ast.Name):
                self.sizes.pop(t.id, None)
                if (size := self._dimension(stmt.value)) is not None:
                    self.sizes[t.id] = size
            elif isinstance(t, (ast.Tuple, ast.List)) and isinstance(stmt.value, ast.Attribute) \
                    and stmt.value.attr == "shape" and not any(isinstance(n, ast.Starred) for n in t.elts):
                for i, name in enumerate(t.elts):  # `B, C, H, W = x.shape`: W is also `x.shape[-1]`
                    if isinstance(name, ast.Name):
                        self.sizes[name.id] = (self.render(stmt.value.value), i)
                        if i == len(t.elts) - 1:
                            self.last[name.id] = self.render(stmt.value.value)
            elif isinstance(t, (ast.Tuple, ast.List)) and isinstance(stmt.value, (ast.Tuple, ast.List)):
                values = stmt.value.elts
                star = next((i for i, v in enumerate(values) if isinstance(v, ast.Starred)), None)
                spread = len(t.elts) - len(values) + 1
                for i, name in enumerate(t.elts):
                    if not isinstance(name, ast.Name):
                        continue
                    self.sizes.pop(name.id, None)
                    if star is None or i < star:
                        size = self._dimension(values[i]) if i < len(values) else None
                    elif i < star + spread:
                        shape = values[star].value  # type: ignore[attr-defined]  # rank `spread`: index from the end
                        size = (self.render(shape.value), i - star - spread) \
                            if isinstance(shape, ast.Attribute) and shape.attr == "shape" else None
                    else:
                        size = self._dimension(values[i - spread + 1])
                    if size is not None:
                        self.sizes[name.id] = size

    def _dimension(self, node: ast.expr) -> tuple[str, int] | None:
        """``x.shape[i]`` or ``x.size(i)`` with a literal ``i``: (x rendered, i)."""
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            index, tensor = node.slice, node.value.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size" \
                and len(node.args) == 1 and not node.keywords:
            index, tensor = node.args[0], node.func.value
        else:
            return None
        negated = isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub)
        literal = index.operand if negated else index  # type: ignore[attr-defined]
        if not (isinstance(literal, ast.Constant) and type(literal.value) is int):
            return None
        return self.render(tensor), -literal.value if negated else literal.value

    def _size_of(self, value: ast.expr) -> tuple[str, int] | None:
        """The tensor dimension a launch argument is, where the host read it from a shape."""
        if isinstance(value, ast.Name) and value.id in self.last:
            return self.last[value.id], -1
        if isinstance(value, ast.Name) and value.id in self.sizes:
            return self.sizes[value.id]
        return self._dimension(self.resolve(value))

    def _grid_axes(self, node: ast.expr) -> list[ast.expr] | None:
        """A grid's elements by axis; None where it is no one tuple (``grid if c else other`` has
        two)."""
        node = self.resolve(node)
        if isinstance(node, ast.Lambda):
            node = self.resolve(node.body)
        if not isinstance(node, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in node.elts):
            return None
        return list(node.elts)

    def _grid_elements(self, node: ast.expr) -> tuple[str, ...] | None:
        """A grid's elements by axis, rendered in host values (:meth:`_grid_axes`)."""
        axes = self._grid_axes(node)
        return tuple(self.render(e) for e in axes) if axes is not None else None

    def _floors(self, element: ast.expr, runtime: set[str], tiles: set[str], host_tiles: set[str]
                ) -> list[sy.FloorDiv]:
        """The floored tile counts a grid element adds up (``n // BLOCK``). A floor of a tile the
        element cuts an extent into by a ceiling (``cdiv(L, BLKQ) * (BLKQ // WARPQ)``) counts
        sub-tiles of each tile, not tiles of an extent."""
        out = []
        expr = self.expr(element)
        cut = sy.ceiling_divisors(expr)
        for part in _tile_counts(_runtime_meta(expr, runtime)):
            div = sy.floor_division(part, self.ctx.src.span(self.resolve(element)))
            if div is not None and _is_tile(div.tile, part, tiles, host_tiles) and div.extent not in cut:
                out.append(div)
        return out

    def _grid(self, node: ast.expr, depth: int = 0) -> list[ast.expr]:
        if depth > _MAX_DEPTH:
            return []
        if isinstance(node, ast.Name) and node.id in self.env:
            return self._grid(self.env[node.id], depth + 1)
        if isinstance(node, ast.Lambda):
            return self._grid(node.body, depth + 1)
        if isinstance(node, ast.IfExp) and isinstance(node.body, _GRID_VALUES) \
                and isinstance(node.orelse, _GRID_VALUES):
            return [*self._grid(node.body, depth + 1), *self._grid(node.orelse, depth + 1)]
        if isinstance(node, (ast.Tuple, ast.List)):
            return list(node.elts)
        return [node]


def _axis_tiles(fn: ast.FunctionDef, axis: int) -> set[str]:
    """The names the kernel scales its program id along ``axis`` by (``pid = tl.program_id(1)``,
    ``pid * BLOCK_N``): the tiles a floored grid dimension of that axis counts."""
    pids: set[str] = set()

    def is_pid(node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in pids
        if not (isinstance(node, ast.Call) and callee(node.func) == "program_id"):
            return False
        given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "axis"), None)
        return isinstance(given, ast.Constant) and given.value == axis

    nodes = list(ast.walk(fn))
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and is_pid(node.value):
            pids.add(node.targets[0].id)
    return {b.id for node in nodes if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
            for a, b in ((node.left, node.right), (node.right, node.left)) if is_pid(a) and isinstance(b, ast.Name)}


def _common_factors(terms: list[sy.Term]) -> list[str]:
    """The factors every term of a sum holds, by name (``d`` of ``qh * d + 2 * kvh * d``)."""
    common = Counter(sy.render(f) for f in terms[0].factors)
    for t in terms[1:]:
        common &= Counter(sy.render(f) for f in t.factors)
    return sorted(common)


def _dividing(tile: str, to_kernel: dict[str, list[str]], constexpr: set[str], bound: dict[str, str],
              configs: dict[str, set[int] | None]) -> set[str]:
    """Kernel tiles that divide ``tile``: the parameter it is passed as, or constexpr parameters
    whose every value (a literal at the launch, or each autotune config) divides it."""
    out = set(to_kernel.get(tile, []))
    if tile.isdigit() and int(tile) > 0:
        for p in constexpr:
            values = {int(bound[p])} if bound.get(p, "").isdigit() else configs.get(p) or set()
            if values and all(v > 0 and int(tile) % v == 0 for v in values):
                out.add(p)
    return out


def _kernel_tiles(tile: str, to_kernel: dict[str, list[str]]) -> list[str]:
    """A host tile in the kernel's names: the parameters it is passed as, or for a product of
    host values (``BLOCK_K * SPLIT_K`` on the host, rendered ``32 * 8``) the products of the
    parameters each factor is passed as; else the tile as the host writes it."""
    if tile in to_kernel:
        return to_kernel[tile]
    factors = tile.split(" * ")
    if len(factors) < 2 or not all(f in to_kernel for f in factors):
        return [tile]
    return [" * ".join(p) for p in itertools.islice(itertools.product(*(to_kernel[f] for f in factors)), 8)]


def _implicit_params(fn: ast.FunctionDef) -> set[str]:
    """Parameters ``@triton.heuristics`` sets: the caller never passes them."""
    out: set[str] = set()
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and callee(dec.func) == "heuristics":
            table = dec.args[0] if dec.args else next((k.value for k in dec.keywords if k.arg == "values"), None)
            if isinstance(table, ast.Dict):
                out |= {k.value for k in table.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return out


def _bind_arguments(node: ast.Call, params: list[str], by_name: bool = False) -> list[tuple[str | None, ast.expr]]:
    """Pair launch arguments with kernel parameters. Positional arguments after a ``*args``
    are paired from the end of the positional parameters (launches pass every argument); with
    ``by_name`` (the parameters the caller leaves to autotune configs are not known), only those
    named as the parameter they fill (``kernel_height``) are paired."""
    positional = node.args
    stars = [i for i, a in enumerate(positional) if isinstance(a, ast.Starred)]
    keywords = {k.arg for k in node.keywords if k.arg}
    open_params = [p for p in params if p not in keywords]
    pairs: list[tuple[str | None, ast.expr]] = []
    head = positional[: stars[0]] if stars else positional
    pairs += [(open_params[i] if i < len(open_params) else None, a) for i, a in enumerate(head)]
    if stars and by_name:
        pairs += [(a.id if isinstance(a, ast.Name) and a.id in open_params[len(head):] else None, a)
                  for a in positional[stars[-1] + 1:]]
    elif stars:
        tail = positional[stars[-1] + 1:]
        start = len(open_params) - len(tail)
        pairs += [(open_params[start + i] if start + i >= len(head) else None, a) for i, a in enumerate(tail)]
    pairs += [(k.arg, k.value) for k in node.keywords if k.arg]
    return pairs


def _alternatives(node: ast.expr) -> list[ast.expr]:
    """``cdiv(n, B) if SEQUENCE_PARALLEL else 1``: each branch is a grid the launch may use;
    ``min(NUM_SMS, cdiv(M, BM) * cdiv(N, BN))`` (a persistent grid) is capped, not rounded: a
    floored tile count in it still leaves tiles without a program."""
    if isinstance(node, ast.IfExp):
        return [*_alternatives(node.body), *_alternatives(node.orelse)]
    if isinstance(node, ast.Call) and callee(node.func) in ("min", "max") and not node.keywords \
            and len(node.args) > 1 and not any(isinstance(a, ast.Starred) for a in node.args):
        return [alt for a in node.args for alt in _alternatives(a)]
    return [node]


def _tile_counts(e: sy.Expr) -> list[sy.Expr]:
    """A grid element that adds tile counts (``V // BV + cdiv(K, BK)``: programs for two ranges)
    is checked term by term; anything else is one element."""
    if isinstance(e, sy.Bin) and e.op == "+":
        parts = [*_tile_counts(e.left), *_tile_counts(e.right)]
        if all(_is_count(p) for p in parts):
            return parts
    return [e]


def _is_count(e: sy.Expr) -> bool:
    if isinstance(e, sy.Call) and e.fn == "cdiv" or isinstance(e, sy.Bin) and e.op == "//":
        return True
    return isinstance(e, sy.Bin) and e.op == "*" and (_is_count(e.left) or _is_count(e.right))


def _runtime_meta(e: sy.Expr, runtime: set[str]) -> sy.Expr:
    """``meta["M"]`` names a runtime launch argument where M is a kernel parameter that is not a
    compile-time one: an extent, not a block size."""
    match e:
        case sy.Sym(name=name, kind=sy.Kind.CONST) if name in runtime:
            return sy.Sym(name, sy.Kind.OTHER)
        case sy.Bin(op=op, left=left, right=right):
            return sy.Bin(op, _runtime_meta(left, runtime), _runtime_meta(right, runtime))
        case sy.Call(fn=fn, args=args):
            return sy.Call(fn, tuple(_runtime_meta(a, runtime) for a in args))
    return e


def _is_tile(tile: str, e: sy.Expr, tiles: set[str], host_tiles: set[str]) -> bool:
    """The divisor is a block size of the launch: a compile-time parameter (or the host value
    passed as one), or such a block size times compile-time factors (``meta["BLOCK"] * UNROLL``)."""
    if tile in host_tiles and not _SHAPE_READ.search(tile):  # numel() // shape[-1] is exact: rows
        return True
    if tile in tiles:
        return _static_divisor(e, tile)
    for node in _subexprs(e):
        if isinstance(node, sy.Bin) and node.op == "//" and sy.render(node.right) == tile:
            factors = _factors(node.right)
            return any(sy.render(f) in tiles for f in factors) and all(
                isinstance(f, sy.Num) or (isinstance(f, sy.Sym) and not _SHAPE_READ.search(f.name)) for f in factors)
    return False


def _factors(e: sy.Expr) -> list[sy.Expr]:
    if isinstance(e, sy.Bin) and e.op == "*":
        return [*_factors(e.left), *_factors(e.right)]
    return [e]


def _static_divisor(e: sy.Expr, tile: str) -> bool:
    """The divisor is a block size fixed in the source (a literal, a constant, ``meta["BLOCK"]``),
    not a runtime shape: ``prod(shape) // shape[-1]`` is an exact division, not a grid of tiles."""
    for node in _subexprs(e):
        if isinstance(node, sy.Bin) and node.op in ("//", "/") and sy.render(node.right) == tile:
            den = node.right
            return sy.kinds(den) <= {sy.Kind.CONST} or (isinstance(den, sy.Sym) and den.name.isidentifier())
    return False


def _subexprs(e: sy.Expr) -> Iterator[sy.Expr]:
    yield e
    if isinstance(e, sy.Bin):
        yield from _subexprs(e.left)
        yield from _subexprs(e.right)
    elif isinstance(e, sy.Call):
        for a in e.args:
            yield from _subexprs(a)


class _Substitute(ast.NodeTransformer):
    """A launcher's (or a check function's) parameters replaced by the arguments of one call to
    it. ``placeless``: the function is another module's, so every node but the arguments (the
    caller's own) loses its position and is rendered by ``ast.unparse``."""

    def __init__(self, given: dict[str, ast.expr], placeless: bool = False) -> None:
        self.given, self.placeless = given, placeless

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.given:
            return self.given[node.id]
        return ast.Name(node.id, ast.Load()) if self.placeless else node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if self.placeless:
            for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                vars(node).pop(attr, None)
        return super().generic_visit(node)


def _returned(fn: ast.FunctionDef) -> ast.expr | None:
    """The value a one-return helper gives back (a grid function), else None."""
    returns = [n for n in _statements(fn.body) if isinstance(n, ast.Return)]  # its own, not a nested def's
    if len(returns) == 1 and returns[0].value is not None:
        return returns[0].value
    return None


_WRAPPERS = {"wrap_triton", "capture_triton"}  # torch.library: the kernel, traceable by torch.compile


def _raises(body: list[ast.stmt]) -> bool:
    return any(isinstance(s, ast.Raise) for s in body)


def _held_after_raise(test: ast.expr) -> list[ast.expr]:
    """The equalities that hold past ``if test: raise``: ``K % B != 0`` (or ``K % B``, or ``not
    K % B == 0``) gives ``K % B == 0``; ``not ok(K)`` gives ``ok(K)``; ``a or b`` gives what each
    side gives."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return [held for value in test.values for held in _held_after_raise(value)]
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq):
        return [ast.Compare(test.left, [ast.Eq()], test.comparators)]
    if isinstance(test, ast.BinOp) and isinstance(test.op, ast.Mod):
        return [ast.Compare(test, [ast.Eq()], [ast.Constant(0)])]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Compare) \
            and len(test.operand.ops) == 1 and isinstance(test.operand.ops[0], ast.Eq):
        return [test.operand]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Call):
        return [test.operand]  # a predicate's test (:meth:`_Host.predicate`)
    return []


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements in source order, into compound statements but not into nested definitions."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list):
                yield from _statements([s for s in inner if isinstance(s, ast.stmt)] +
                                       [s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body])


def analyse_host(scope: ast.FunctionDef | ast.Module, ctx: ModuleContext, jit_ids: set[int]) -> list[Launch]:
    """Launches in one host function (or the module's top level), with the facts before them."""
    host = _Host(ctx, scope)
    if (outer := ctx.enclosing.get(id(scope))) is not None:  # a closure: what was checked before its `def`
        env, facts, equalities, declared = outer
        host.env, host.facts, host.equalities, host.declared = dict(env), list(facts), list(equalities), dict(declared)
    first = getattr(scope, "lineno", 1)
    last = getattr(scope, "end_lineno", None) or len(ctx.src.lines)
    assumed = sorted((line, text) for line, text in ctx.assumes.items() if first <= line <= last)
    branches: list[tuple[int, dict[str, ast.expr]]] = []  # an `if`'s last line -> the grids after it
    scopes: list[tuple[int, int, list[Divisibility]]] = []  # lines of an `if` branch -> the facts its test gives
    for stmt in _statements(scope.body):
        while branches and branches[-1][0] < stmt.lineno:
            host.env.update(branches.pop()[1])
        scopes = [sc for sc in scopes if sc[1] >= stmt.lineno]
        host.branch = [f for first_line, _, facts in scopes if first_line <= stmt.lineno for f in facts]
        if isinstance(stmt, ast.If):
            merged = _merged(stmt, host.env, lambda v: isinstance(v, _GRID_VALUES)) | _flag_of_branches(stmt) \
                | _merged(stmt, host.env, lambda v: bool(host.kernels_of(v)), kept=False)
            if merged:
                branches.append((stmt.end_lineno or stmt.lineno, merged))
            scopes += _branch_scopes(host, stmt)
        while assumed and assumed[0][0] <= stmt.lineno:  # `# boundcheck: assume n % BLOCK == 0`
            host.assume(assumed.pop(0)[1])
        if isinstance(stmt, ast.Assign):
            host.note_sizes(stmt)
            for t in stmt.targets:
                if isinstance(t, ast.Name):
                    host.env[t.id] = stmt.value
                    host.rounding(t.id, stmt.value)
                elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) \
                        and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str) \
                        and isinstance(table := host.env.get(t.value.id), ast.Dict):
                    grown = ast.Dict([*table.keys, t.slice], [*table.values, stmt.value])  # args["BLOCK"] = 16
                    host.env[t.value.id] = ast.copy_location(grown, table)
                elif isinstance(t, ast.Tuple) and isinstance(stmt.value, ast.Tuple) \
                        and len(t.elts) == len(stmt.value.elts):
                    for name, value in zip(t.elts, stmt.value.elts):
                        if isinstance(name, ast.Name):
                            host.env[name.id] = value
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            host.env.pop(stmt.target.id, None)  # M = 1; M *= shape[i]: a runtime value
            host.rounded.pop(stmt.target.id, None)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            for target in ast.walk(stmt.target):
                if isinstance(target, ast.Name):
                    host.env.pop(target.id, None)
        elif isinstance(stmt, ast.FunctionDef) and (returned := _returned(stmt)) is not None:
            host.env[stmt.name] = returned  # def grid(meta): return (cdiv(M, meta["BLOCK"]),)
            for check in stmt.body:  # `assert N % meta["BLOCK_N"] == 0` before it returns the grid
                if isinstance(check, ast.Assert):
                    host.fact(check.test)
        elif isinstance(stmt, ast.Assert):
            host.fact(stmt.test)
            host.declare(stmt.test)
        elif isinstance(stmt, ast.If) and _raises(stmt.body):
            for held in _held_after_raise(stmt.test):
                host.fact(held)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            for held in host.checked(stmt.value):  # `_validate(A, B)`: what its body asserts holds after it
                host.fact(held)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(scope, ast.FunctionDef):
            ctx.enclosing[id(stmt)] = (dict(host.env), [*host.facts, *host.branch], list(host.equalities),
                                       dict(host.declared))
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in _calls(stmt):
            if isinstance(node.func, ast.Subscript) \
                    and (picked := dispatched_kernels(scope, node.func.value, set(ctx.jit), host.render)):
                for kernel, values in picked:
                    host.launch(node, kernel, values)
            elif isinstance(node.func, ast.Subscript) and (kernels := host.kernels_of(node.func.value)):
                for kernel in kernels:
                    host.launch(node, kernel)
            else:
                for launch, kernel in host.through_launcher(node):
                    host.launch(launch, kernel)
    return host.launches


def _selected(definitions: list[ast.FunctionDef], jit: dict[str, ast.FunctionDef]) -> list[str]:
    """The kernels a selector function returns, over every definition of it (one per arm of a
    module-level ``if``), where each of its returns names a kernel; else empty."""
    found: list[str] = []
    for fn in definitions:
        returns = [n.value for n in _statements(fn.body) if isinstance(n, ast.Return)]
        if not returns or not all(isinstance(r, ast.Name) and r.id in jit for r in returns):
            return []
        found += [r.id for r in returns]  # type: ignore[union-attr]
    return list(dict.fromkeys(found))


def _branch_scopes(host: _Host, stmt: ast.If) -> list[tuple[int, int, list[Divisibility]]]:
    """``if n % B == 0:`` (or a local holding that test, ``if aligned:``) gives its body the fact;
    ``if n % B != 0: ... else:`` gives it to the ``else``. Only launches inside the branch see it."""
    test = host.resolve(stmt.test)
    negated = isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq)
    if negated:
        test = ast.Compare(test.left, [ast.Eq()], test.comparators)  # type: ignore[union-attr]
    found = host.facts_of(test, "host branch")
    host.equalities += [f for f, equality in found if equality]
    body = stmt.orelse if negated else stmt.body
    if not found or not body:
        return []
    return [(body[0].lineno, body[-1].end_lineno or body[-1].lineno, [f for f, _ in found])]


def _flag_of_branches(stmt: ast.If) -> dict[str, ast.expr]:
    """``if K % B == 0: even = True`` / ``else: even = False``: past the ``if``, ``even`` is the
    test (its negation where the branches set the other way round), as ``even = K % B == 0`` is."""
    if len(stmt.body) != 1 or len(stmt.orelse) != 1:
        return {}
    then, other = stmt.body[0], stmt.orelse[0]
    sides = [(a.targets[0].id, a.value.value) for a in (then, other)
             if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
             and isinstance(a.value, ast.Constant) and isinstance(a.value.value, bool)]
    if len(sides) != 2 or sides[0][0] != sides[1][0] or sides[0][1] == sides[1][1]:
        return {}
    test = stmt.test if sides[0][1] else ast.copy_location(ast.UnaryOp(ast.Not(), stmt.test), stmt.test)
    return {sides[0][0]: test}


def _merged(stmt: ast.If, env: dict[str, ast.expr], keep: Callable[[ast.expr], bool],
            kept: bool = True) -> dict[str, ast.expr]:
    """Values an ``if`` leaves in a local, of the kind ``keep`` accepts: ``grid = (…)`` in one
    branch and ``grid = (…)`` (or ``def grid(meta)``) in the other, ``kernel = k1`` / ``kernel =
    select(…)``, down an ``elif`` chain; a launch after it may use either. ``kept``: a branch that
    does not set the name leaves the value from before (else the name is merged only where every
    branch sets it)."""
    body, orelse = _definitions(stmt.body, keep, kept), _definitions(stmt.orelse, keep, kept)
    merged = {}
    for name in body.keys() | orelse.keys():
        before = env.get(name) if kept else None
        first, second = body.get(name, before), orelse.get(name, before)
        if first is not None and second is not None and keep(first) and keep(second) and first is not second:
            merged[name] = ast.copy_location(ast.IfExp(stmt.test, first, second), stmt)
    return merged


def _definitions(body: list[ast.stmt], keep: Callable[[ast.expr], bool], kept: bool) -> dict[str, ast.expr]:
    """The last value of the kind ``keep`` accepts that each name gets at the top level of a branch."""
    out: dict[str, ast.expr] = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            out[stmt.targets[0].id] = stmt.value
        elif isinstance(stmt, ast.FunctionDef) and (returned := _returned(stmt)) is not None:
            out[stmt.name] = returned
        elif isinstance(stmt, ast.If):
            out.update(_merged(stmt, out, keep, kept))
    return {name: value for name, value in out.items() if keep(value)}


def _calls(stmt: ast.stmt) -> Iterator[ast.Call]:
    """Calls in the statement itself (not in the nested statements it contains)."""
    stack: list[ast.AST] = [c for name, c in ast.iter_fields(stmt) if name not in ("body", "orelse", "finalbody",
                                                                                   "handlers")
                            for c in (c if isinstance(c, list) else [c]) if isinstance(c, ast.AST)]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        if not isinstance(node, ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


def _name_uses(scope: ast.AST) -> tuple[set[int], dict[str, list[int]]]:
    """One walk of ``scope``: the name nodes that only pass a value to a kernel launch, read its
    metadata (``name.shape``) or are assigned, and every name node by name. A name all of whose
    nodes are of the first kind is, in ``scope``, assigned and launched and otherwise only read for
    its metadata: no host code writes it."""
    allowed: set[int] = set()
    by_name: dict[str, list[int]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript):
            allowed.update(id(a) for a in [*node.args, *(k.value for k in node.keywords)])
        elif isinstance(node, ast.Attribute) and node.attr in _METADATA:
            allowed.add(id(node.value))
        elif isinstance(node, (ast.Assign, ast.Return)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.value]
            allowed.update(id(t) for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Name):
            by_name.setdefault(node.id, []).append(id(node))
    return allowed, by_name