"""Host code: ``kernel<<<grid, block>>>(…)`` launches, their grid expressions and the host
facts that precede them: ``assert(n % 256 == 0)`` or an early rejection
``if (n % 256 != 0) { …; return; }`` in the same function, or in a function of the same file
that calls it (``main`` checks the image size, then calls the launcher with it)."""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import Converter, Scope, callee, children, is_integer, params, strip
from boundcheck.frontends.cuda_kernel import assume_comments, divisibility, equality_facts
from boundcheck.frontends.cuda_parse import (
    Token,
    arguments,
    binary_op,
    child_list,
    evaluate,
    first,
    functions,
    in_main_file,
    integral_arguments,
    is_device,
    is_kernel,
    last,
    literal_arguments,
    preorder,
    reads_placeholder,
    split_groups,
    unary_op,
    write_target,
)
from boundcheck.frontends.cuda_powers import SizeFacts, constant_of, exact_by_powers, size_facts
from boundcheck.frontends.cuda_slots import Allocations, Room
from boundcheck.frontends.cuda_stubs import VIRTUAL_DIR
from boundcheck.frontends.cuda_values import Values, host_values
from boundcheck.frontends.cuda_wrappers import Wrapper, launch_operand
from boundcheck.model import Divisibility, FloorDiv, Launch, Span
from boundcheck.symbolic import (
    Bin,
    Call,
    Expr,
    Kind,
    Num,
    constant,
    expand,
    floor_division,
    kinds,
    render,
    syms,
    terms_text,
    variable,
)

K = ci.CursorKind
_CONFIG = {"cudaConfigureCall", "__cudaPushCallConfiguration"}
_ASSERTS = {"__bc_assert", "__assert_fail", "__assert_rtn", "_assert"}
# a function or macro named as a check (`RuntimeCheck`, `STD_TORCH_CHECK`, `TVM_FFI_ICHECK_EQ`)
_CHECK_NAME = re.compile(r"\w*(?:ASSERT|CHECK|ENFORCE|REQUIRE|[Aa]ssert|[Cc]heck|[Ee]nforce|[Rr]equire)(?:_[A-Z]{2})?")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_IDENT_BYTES = re.compile(rb"[A-Za-z_]\w*")


@dataclass
class HostLaunch:
    launch: Launch
    kernel_args: list[str | None]  # host names passed, by kernel parameter position
    template_args: list[str]  # literal template arguments, rendered
    block: str  # the block size's x expression, rendered
    blocks: tuple[str, ...] = ()  # the block size per axis (x, y, z), rendered
    grid_axes: tuple[int, ...] = ()  # the grid axis of each floored dimension in ``launch.grid``
    block_var: str = ""  # the block argument's variable (``dimBlock``), whose ``.x`` a grid may divide by
    rooms: tuple[Room, ...] = ()  # the buffers passed that the host allocated, with their sizes
    ceil_axes: tuple[int, ...] = ()  # grid axes rounded up from a runtime count (``ceil_div(N * 32, bs)``)
    block_x_value: int | None = None  # the block's x size where it is a compile-time integer
    grid_names: tuple[str, ...] = ()  # the local each floored dimension is held in (``splits``), else ""
    tails: frozenset[tuple[str, str]] = frozenset()  # floored (n, T) whose remainder the host runs apart
    grids: tuple[str, ...] = ()  # the grid size per axis (x, y, z), rendered


def host_methods(cursor: ci.Cursor) -> list[ci.Cursor]:
    """Member functions of the main file, defined outside their class (``Real PiEstimator<Real>::
    operator()() {…}``) or inside it (a constructor that allocates and launches in a class
    template's body): host code that launches kernels as free functions do. Not the call
    operator of a generic lambda's specialization, which libclang lists here too: its body is
    walked with the function that writes it, where its captures have their values."""
    out = []
    for c in child_list(cursor):
        if (c.kind in _SCOPES or c.kind in _CLASSES) and in_main_file(c):
            out += host_methods(c)
        elif c.kind in (K.CXX_METHOD, K.CONSTRUCTOR) and c.is_definition() and in_main_file(c) \
                and not is_device(c) and not _lambda_method(c):
            out.append(c)
    return out


def _lambda_method(c: ci.Cursor) -> bool:
    """A method of a lambda's closure type (libclang spells the class ``(lambda at file:l:c)``)."""
    parent = c.semantic_parent
    return parent is not None and parent.spelling.startswith("(lambda at ")


_SCOPES = {K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL}
_CLASSES = {K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
_ASSIGN_OPS = {"=", "&=", "|=", "^="}


def launches_in(fn: ci.Cursor, conv: Converter, wrappers: dict[str, Wrapper] | None = None) -> list[HostLaunch]:
    """The launches in host function ``fn``: ``<<<…>>>`` and calls of launch ``wrappers``."""
    marks = (b"<<<", *(name.encode() for name in wrappers or {}), *_launching_macros(conv.src.data))
    if not _launches(conv.src.data[first(fn).offset:last(fn).offset], marks):
        return []  # no launch written here: skip walking what may be most of a file's host code
    body = next((k for k in child_list(fn) if k.kind == K.COMPOUND_STMT), None)
    if body is None:
        return []
    scope = Scope()
    for p in params(fn):
        scope.kinds[p.spelling] = Kind.EXTENT if is_integer(p) else Kind.OTHER
    walk = _Walk(conv, scope, first(body).offset, wrappers or {}, marks)
    walk.facts += assume_comments(conv.src, fn)  # `// boundcheck: assume n % 256 == 0` in the host function
    walk.facts += caller_facts(fn, conv)
    if b"cudaMalloc" in conv.src.data[first(body).offset:last(body).offset]:
        walk.allocs = Allocations(body, conv)
    # `<<<` tokens in source order: one that no launch call has claimed by the time the walk
    # passes it lies in a statement libclang dropped (a template argument it could not resolve)
    pending = [t for t in conv.src.tokens_between(first(body).offset, last(body).offset) if t.text == "<<<"]
    for c in _launch_paths(body, conv, marks):
        start = first(c).offset
        while pending and pending[0].offset < start:
            walk.written(pending.pop(0))
        if walk.launch(c) or walk.wrapped(c):
            pending = [t for t in pending if not start <= t.offset < last(c).offset]
        else:
            walk.visit(c)
    for tok in pending:
        walk.written(tok)
    floors = {(d.extent, d.tile) for hl in walk.out for d in hl.launch.grid}
    tails = _whole_block_ends(body, conv, scope, floors) if floors else frozenset()
    return [replace(hl, tails=tails) for hl in walk.out] if tails else walk.out


def _whole_block_ends(body: ci.Cursor, conv: Converter, scope: Scope,
                      floors: set[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """The floored ``(n, T)`` whose tail the host function takes up after the whole blocks: it
    counts what they leave, ``n - n / T * T`` (a second launch runs ``size - hot`` elements)."""
    out = set()
    for c in preorder(body):
        if c.kind != K.BINARY_OPERATOR or binary_op(c) != "-":
            continue
        value = conv.quiet_expr(c, scope)
        ends = value.right if isinstance(value, Bin) and value.op == "-" else None
        if isinstance(ends, Bin) and ends.op == "*" and isinstance(ends.left, Bin) and ends.left.op == "/" \
                and (pair := (render(ends.left.left), render(ends.right))) in floors \
                and render(ends.left.right) == pair[1] and render(value.left) == pair[0]:
            out.add(pair)
    return frozenset(out)


def keep_floors(hl: HostLaunch, keep: Callable[[int, FloorDiv, str], bool]) -> HostLaunch:
    """``hl`` with only the floored grid dimensions ``keep(axis, floor, local)`` accepts."""
    kept = [(a, d, n) for a, d, n in zip(hl.grid_axes, hl.launch.grid, hl.grid_names) if keep(a, d, n)]
    if len(kept) == len(hl.launch.grid):
        return hl
    return replace(hl, launch=replace(hl.launch, grid=tuple(d for _, d, _ in kept)),
                   grid_axes=tuple(a for a, _, _ in kept), grid_names=tuple(n for _, _, n in kept))


class _Walk:
    """Host statements in source order: the locals, ``dim3`` members and asserts a launch sees."""

    def __init__(self, conv: Converter, scope: Scope, start: int, wrappers: dict[str, Wrapper],
                 marks: tuple[bytes, ...]) -> None:
        self.conv, self.scope, self.start = conv, scope, start
        self.wrappers, self.marks = wrappers, marks
        self.facts: list[Divisibility] = []
        self.out: list[HostLaunch] = []
        self.decls: dict[str, ci.Cursor] = {}  # local name -> its declaration
        self.members: dict[str, dict[int, ci.Cursor]] = {}  # dim3 local -> axis -> assigned value
        self.branches: list[tuple[int, int, list[Divisibility]]] = []  # `if (n % 4 == 0) {…}`: where they hold
        self.arms: list[tuple[int, int]] = []  # the then / else statements of every `if` seen
        self.allocs: Allocations | None = None
        self.sizes: list[tuple[int, int, SizeFacts]] = []  # powers of two and lower bounds: where they hold
        self.values: list[tuple[int, int, Values]] = []  # sizes pinned to numbers: where they are

    def visit(self, c: ci.Cursor) -> None:
        conv, scope = self.conv, self.scope
        if c.kind == K.VAR_DECL:
            self.decls[c.spelling] = c
            self.members.pop(c.spelling, None)
        if c.kind == K.VAR_DECL and c.type.get_canonical().kind == ci.TypeKind.BOOL:
            # `const bool full = n % T == 0;`: the flag reads as its test (`divisibility`)
            init = next((k for k in child_list(c) if k.kind.is_expression()), None)
            if init is not None:
                scope.conds[c.spelling] = (scope.held(init),)
        elif c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and binary_op(c) in _ASSIGN_OPS:
            target = strip(child_list(c)[0]) if child_list(c) else None
            if target is not None and target.kind == K.DECL_REF_EXPR:
                scope.conds.pop(target.spelling, None)  # a flag set again is no longer its test
        if (name := _stepped_local(c)) is not None and name in scope.env:
            # `blocks = n / 512; blocks = n % 512 ? blocks + 1 : blocks` (or `blocks++`): no longer
            # the floor it was first given
            scope.env.pop(name)
            scope.kinds = {**scope.kinds, name: Kind.EXTENT}
        if c.kind == K.VAR_DECL and is_integer(c):
            init = next((k for k in child_list(c) if k.kind.is_expression()), None)
            if c.type.is_const_qualified() and init is not None and strip(init).kind == K.INTEGER_LITERAL:
                scope.kinds = {**scope.kinds, c.spelling: Kind.CONST}
            elif init is not None:
                value = conv.expr(init, scope)
                if _opaque_call(value):
                    scope.kinds = {**scope.kinds, c.spelling: Kind.EXTENT}
                else:
                    scope.env[c.spelling] = value
                    self.facts += rounded_up(c.spelling, value)
        elif (check := check_call(conv, c)) is not None:
            self._holds_after(c, checked_facts(conv, *check, scope))
            name, args = check
            if args and not _equality_check(name, args):
                self._sizes_after(c, size_facts(conv, args[0], scope))
                self._values_after(c, host_values(conv, args[0], scope))
        elif c.kind == K.STATIC_ASSERT:  # `static_assert(BN % 4 == 0)`: BN is a multiple of 4
            self.facts += [replace(f, between_sizes=True) for k in child_list(c)[:1]
                           for f in divisibility(conv, k, scope, "static_assert")]
        elif c.kind == K.IF_STMT and not _launches(conv.src.data[first(c).offset:last(c).offset], self.marks):
            # a launch after it runs where the test failed (the if's own arms do not enclose it: in
            # a macro, `CHECK(n % 4 == 0)`, they sit at the same place)
            self._holds_after(c, rejected(conv, c, scope))
            self._sizes_after(c, _rejected_sizes(conv, c, scope))
            cond = _rejecting(conv, c)
            if cond is not None:
                self._values_after(c, host_values(conv, cond, scope, holds=False))
            self._arms(c)
        elif c.kind == K.IF_STMT:
            self._arms(c)
            cond, then = if_parts(c)
            if cond is not None and then is not None:
                self.branches.append((first(then).offset, last(then).offset,
                                      divisibility(conv, cond, scope, "host branch")))
                other = child_list(c)[-1]
                if other != then and other != cond:  # `if (n % T != 0) {…} else {…}`: n % T is 0 in the else
                    self.branches.append((first(other).offset, last(other).offset,
                                          divisibility(conv, cond, scope, "host check", negated=True)))
                self._arm_sizes(cond, then, other)
        elif c.kind == K.BINARY_OPERATOR and binary_op(c) == "=":
            self._member_assignment(c)

    def _arms(self, c: ci.Cursor) -> None:
        kids = child_list(c)
        _, then = if_parts(c)
        if then is not None:
            self.arms += [(first(k).offset, last(k).offset) for k in kids[kids.index(then):]]

    def _holding(self, c: ci.Cursor) -> tuple[int, int | None]:
        """Where what a check at ``c`` establishes holds: from it to the end of the ``if`` arm it
        is in (None at the function's top level: for the rest of the function)."""
        at = first(c).offset
        ends = [end for start, end in self.arms if start <= at < end]
        return at, min(ends) if ends else None

    def _holds_after(self, c: ci.Cursor, facts: list[Divisibility]) -> None:
        """An assert (or a rejecting ``if``) holds for what follows it in its own branch: at the
        function's top level for the rest of it, inside an ``if`` arm only to that arm's end."""
        at, end = self._holding(c)
        if end is None:
            self.facts += facts
        elif facts:
            self.branches.append((at, end, facts))

    def _values_after(self, c: ci.Cursor, values: Values) -> None:
        """Sizes pinned by an assert (or a rejecting ``if``) stay pinned as its facts hold."""
        if values.among or values.excluded:
            at, end = self._holding(c)
            self.values.append((at, len(self.conv.src.data) if end is None else end, values))

    def _pinned(self, size: str, at: int) -> int | None:
        """The one number ``size`` (as rendered) is where a launch at ``at`` runs, if one."""
        here = Values()
        for start, end, v in self.values:
            if start <= at < end:
                here = here.add(v)
        return here.single(size)

    def _sizes_after(self, c: ci.Cursor, sizes: SizeFacts) -> None:
        """Powers of two and lower bounds hold past their check as divisibility facts do."""
        if not sizes.powers and not sizes.least:
            return
        at, end = self._holding(c)
        self.sizes.append((at, len(self.conv.src.data) if end is None else end, sizes))

    def _arm_sizes(self, cond: ci.Cursor, then: ci.Cursor, other: ci.Cursor) -> None:
        """``if (n <= 1024) {…} else {…}``: n > 1024 in the else; ``if (C / H == 64) {…} else {…}``:
        C / H is 64 in the then arm, and not 64 in the else."""
        arms = [(then, True)] + ([(other, False)] if other != then and other != cond else [])
        for arm, holds in arms:
            self.sizes.append((first(arm).offset, last(arm).offset, size_facts(self.conv, cond, self.scope, holds)))
            self.values.append((first(arm).offset, last(arm).offset, host_values(self.conv, cond, self.scope, holds)))

    def _powers_exact(self, floored: list[FloorDiv], at: int) -> list[Divisibility]:
        """Floored grids made exact by a power-of-two size at least as large as the tile."""
        sizes = SizeFacts()
        for start, end, s in self.sizes:
            if start <= at < end:
                sizes = sizes.add(s)
        if not sizes.powers:
            return []
        return [f for div in floored for f in exact_by_powers(div, self._tile_value(div.tile), sizes)]

    def _tile_value(self, tile: str) -> int | None:
        """A tile written as a number, an object-like macro of one or a constant local, or a
        product of those (``4 * THREADBLOCK_SIZE``)."""
        if tile.startswith("(") and tile.endswith(")"):
            tile = tile[1:-1]
        if " * " in tile:
            values = [v for f in tile.split(" * ") if (v := self._tile_value(f)) is not None]
            return math.prod(values) if len(values) == tile.count(" * ") + 1 else None
        if tile.isdigit():
            return int(tile)
        if tile in self.conv.macros:  # defined once, as a number (not one value per `#if` branch)
            defined = re.findall(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(tile.encode()) + rb"\b(.*)$",
                                 self.conv.src.data, re.MULTILINE)
            value = re.fullmatch(rb"[ \t]+\(?(\d+)[uUlL]*\)?[ \t]*(?://.*)?", defined[0]) if len(defined) == 1 else None
            return int(value.group(1)) if value else None
        decl = self.decls.get(tile)
        init = next((k for k in child_list(decl) if k.kind.is_expression()), None) if decl is not None else None
        return constant_of(init) if init is not None and decl.type.is_const_qualified() else None

    def _member_assignment(self, c: ci.Cursor) -> None:
        """``grid.x = n / 256``: the value of one axis of a ``dim3`` local."""
        kids = child_list(c)
        if len(kids) != 2:
            return
        lhs = strip(kids[0])
        base = strip(child_list(lhs)[0]) if lhs.kind == K.MEMBER_REF_EXPR and child_list(lhs) else None
        if base is not None and base.kind == K.DECL_REF_EXPR and lhs.spelling in _AXES \
                and base.type.get_canonical().spelling.endswith("dim3"):
            self.members.setdefault(base.spelling, {})[_AXES.index(lhs.spelling)] = kids[1]

    def launch(self, c: ci.Cursor) -> bool:
        """A ``kernel<<<grid, block>>>(…)`` call libclang kept; False for any other call."""
        if c.kind != K.CALL_EXPR:
            return False
        conv, scope = self.conv, self.scope
        kids = children(c)
        config = next((k for k in kids[1:2] if k.kind == K.CALL_EXPR and k.spelling in _CONFIG), None)
        if config is None:
            return False
        cargs = [a for a in config.get_arguments() if first(a).line > 0]
        # `k<_N_><<<…>>>` with `_N_` defined by the build: its name, not the parse's placeholder
        targs = (_template_values(c) if not (kids and reads_placeholder(kids[0])) else []) \
            or [render(conv.expr(k, scope)) for k in (preorder(kids[0]) if kids else []) if k.kind == K.INTEGER_LITERAL]
        self._record(c, _kernel_name(c, kids, conv), targs, cargs[0] if cargs else None,
                     cargs[1] if len(cargs) > 1 else None, kids[2:])
        return True

    def wrapped(self, c: ci.Cursor) -> bool:
        """A call of a launch wrapper (:mod:`cuda_wrappers`): a launch of the kernel it passes."""
        kids = child_list(c) if c.kind == K.CALL_EXPR and self.wrappers else []
        w = self.wrappers.get(_kernel_name(c, kids, self.conv)) if kids else None
        args = kids[1:]
        if w is None or len(args) <= max(w.kernel, w.grid[0], w.block[0], *w.args):
            return False
        grid, block = launch_operand(args[w.grid[0]], w.grid[1]), launch_operand(args[w.block[0]], w.block[1])
        kernel = args[w.kernel]
        callee, targs = _callee([t for t in self.conv.src.tokens_between(first(kernel).offset, last(kernel).offset)
                                 if t.text != "&"])
        if grid is None or block is None or callee is None:
            return False
        self._record(c, callee.text, targs, grid, block, args[w.args[0]:] if w.pack else [args[i] for i in w.args])
        return True

    def _record(self, c: ci.Cursor, kernel: str, targs: list[str], grid_arg: ci.Cursor | None,
                block_arg: ci.Cursor | None, call_args: list[ci.Cursor]) -> None:
        """A launch of ``kernel`` with the grid and block expressions given, at call ``c``."""
        conv, scope = self.conv, self.scope
        grid = self._dims(grid_arg) if grid_arg is not None else []
        block_dims = self._dims(block_arg) if block_arg is not None else []
        block = [render(conv.expr(d, scope)) for _, d in block_dims]
        names = [strip(a).spelling if strip(a).kind == K.DECL_REF_EXPR else None for a in call_args]
        block_x = dict(block_dims).get(0)
        value = evaluate(block_x) if block_x is not None else None
        if value is None and block:
            value = self._pinned(block[0], first(c).offset)  # `if (C / H == 64) k<64><<<g, C / H>>>`
        self._add(kernel, conv.src.span(c), grid, names, targs, block,
                  _var_name(block_arg) if block_arg is not None else "", first(c).offset, value)
        if self.allocs is not None and grid_arg is not None and block_arg is not None:
            rooms = [self.allocs.room(c, i, a, grid_arg, block_arg, scope) for i, a in enumerate(call_args)]
            self.out[-1] = replace(self.out[-1], rooms=tuple(r for r in rooms if r is not None))

    def written(self, tok: Token) -> None:
        """A launch read from its tokens: ``name<…><<<grid, block, …>>>(args)``. Only a grid or
        block held in a local can be followed (its declaration is still in the tree)."""
        src = self.conv.src
        config, rest = split_groups(src.tokens_between(tok.offset, len(src.data)), ">>>")
        if not config or len(rest) < 2 or rest[1].text != "(":
            return
        args, tail = split_groups(rest[1:], ")")
        callee, targs = _callee(src.tokens_between(self.start, tok.offset))
        if callee is None or not tail:
            return
        grid = self._named_dims(config[0], tok.offset)
        block_arg = config[1] if len(config) > 1 else []
        block = [render(self.conv.expr(d, self.scope)) for _, d in self._named_dims(block_arg)] \
            or ([" ".join(t.text for t in block_arg)] if block_arg else [])
        names = [a[0].text if len(a) == 1 and _IDENT.fullmatch(a[0].text) else None for a in args]
        start, end = src.token_span(callee), src.token_span(tail[0])
        block_var = block_arg[0].text if len(block_arg) == 1 else ""
        kernel = _aliased_function(self.decls.get(callee.text)) or callee.text
        self._add(kernel, Span(start.line, start.col, end.end_line, end.end_col), grid, names, targs, block,
                  block_var, tok.offset, self._token_value(block_arg[0]) if len(block_arg) == 1 else None)

    def _token_value(self, tok: Token) -> int | float | None:
        """The compile-time value of a one-token launch argument: a literal, or the constant the
        name refers to."""
        if tok.text.isdigit():
            return int(tok.text)
        if tok.text in self.decls:
            return evaluate(self.decls[tok.text])
        # a local of the function around a lambda walked on its own: the file's one constant of
        # that name, where it has one value
        values = self.conv.src.constants.get(tok.text, set())
        return next(iter(values)) if len(values) == 1 else None

    def _named_dims(self, arg: list[Token], at: int | None = None) -> list[tuple[int, ci.Cursor]]:
        if len(arg) != 1 or arg[0].text not in self.decls:
            return []
        return self._var_dims(self.decls[arg[0].text], at=at)

    def _add(self, kernel: str, span: Span, grid: list[tuple[int, ci.Cursor]], names: list[str | None],
             targs: list[str], block: list[str], block_var: str, at: int, block_value: float | None) -> None:
        whole: dict[FloorDiv, tuple[str, str]] = {}
        held = [(axis, div, strip(d)) for axis, d in grid if (div := _floor(d, self.conv, self.scope, whole)) is not None]
        floored = [(axis, div) for axis, div, _ in held]
        facts = self.facts + [f for start, end, fs in self.branches if start <= at < end for f in fs]
        facts += self._powers_exact([div for _, div in floored], at)
        # `n / c / w` is `n / (c * w)`: a fact `n % (c * w) == 0` makes its last division exact
        facts += [replace(f, extent=div.extent, tile=div.tile) for _, div in floored for f in facts
                  if whole.get(div) == (f.extent, f.tile)]
        self.out.append(HostLaunch(Launch(kernel, span, tuple(d for _, d in floored), tuple(facts)), names,
                                   targs, block[0] if block else "", tuple(block), tuple(a for a, _ in floored),
                                   block_var,
                                   ceil_axes=tuple(a for a, d in grid if _ceiling(d, self.conv, self.scope)),
                                   block_x_value=block_value if isinstance(block_value, int) else None,
                                   grid_names=tuple(d.spelling if d.kind == K.DECL_REF_EXPR else "" for _, _, d in held),
                                   grids=_by_axis([(a, render(self.conv.expr(d, self.scope))) for a, d in grid])))

    def _dims(self, c: ci.Cursor) -> list[tuple[int, ci.Cursor]]:
        """The written dimension expressions of a ``dim3`` argument (or of an integer), by axis."""
        s = strip(c)
        if s.kind == K.CALL_EXPR and s.spelling == "dim3":
            args = [a for a in s.get_arguments() if first(a).line > 0]
            if len(args) == 1 and strip(args[0]).type.get_canonical().spelling.endswith("dim3"):
                return self._dims(args[0])
            return list(enumerate(args))
        if s.kind == K.DECL_REF_EXPR and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
            return self._var_dims(s.referenced, c)
        return [(0, c)]

    def _var_dims(self, decl: ci.Cursor, use: ci.Cursor | None = None, at: int | None = None) \
            -> list[tuple[int, ci.Cursor]]:
        init = next((k for k in child_list(decl) if k.kind.is_expression()), None)
        if decl.type.get_canonical().spelling.endswith("dim3"):
            dims = dict(self._dims(init)) if init is not None else {}
            dims.update(self.members.get(decl.spelling, {}) if self.decls.get(decl.spelling, decl) == decl else {})
            if dims or use is None:
                return sorted(dims.items())
        if at is not None and init is not None:
            init = _reaching(decl, at)  # its value at the launch (none after a two-part ceiling)
            return [(0, init)] if init is not None else []
        if init is not None and first(decl).file is not None:
            return [(0, init)]
        return [(0, use)] if use is not None else []


_AXES = ("x", "y", "z")


def _by_axis(dims: list[tuple[int, str]]) -> tuple[str, ...]:
    """Rendered dimensions by axis position (``""`` for an axis not written)."""
    found = dict(dims)
    return tuple(found.get(a, "") for a in range(max(found, default=-1) + 1))


def _callee(before: list[Token]) -> tuple[Token | None, list[str]]:
    """The kernel's name before ``<<<`` (``ns::kernel<T, 128>``: ``kernel``) and its template
    arguments that are integer literals."""
    i = len(before) - 1
    targs: list[str] = []
    if i >= 0 and before[i].text in (">", ">>"):
        depth, j = 0, i
        while j >= 0:
            t = before[j].text
            depth += 2 if t == ">>" else 1 if t == ">" else -1 if t == "<" else 0
            if depth <= 0:
                break
            j -= 1
        if j < 0:
            return None, []
        targs = [str(v) for _, v in sorted(literal_arguments([t.text for t in before[j + 1:i + 1]]).items())]
        i = j - 1
    if i < 0 or not _IDENT.fullmatch(before[i].text):
        return None, []
    return before[i], targs


def _template_values(call: ci.Cursor) -> list[str]:
    """The integer template arguments of the kernel a launch instantiates, as the compiler reads
    them (``k<WKV * 2>`` with ``#define WKV 64``: 128), in order; empty where the callee is no
    specialization (a launch inside a template)."""
    fn = call.referenced
    return [str(v) for v in integral_arguments(fn).values()] if fn is not None else []


def rounded_up(name: str, value: Expr) -> list[Divisibility]:
    """``P = (V + 63) & ~63`` or ``(V + 63) / 64 * 64``: P is V rounded up to a multiple of 64, a
    padded row pitch."""
    tile = None
    if isinstance(value, Bin) and value.op == "&" and isinstance(value.right, Call) and value.right.fn == "~" \
            and len(value.right.args) == 1 and isinstance(value.right.args[0], Num):
        mask = value.right.args[0].value
        if isinstance(mask, int) and mask > 0 and mask & (mask + 1) == 0 and constant(expand(value.left)) == mask:
            tile = mask + 1
    elif isinstance(value, Bin) and value.op == "*" and isinstance(value.right, Num) \
            and isinstance(value.left, Bin) and value.left.op == "/" and value.left.right == value.right:
        m = value.right.value
        if isinstance(m, int) and m > 1 and constant(expand(value.left.left)) == m - 1:
            tile = m
    return [Divisibility(name, str(tile), "host round-up")] if tile and variable(expand(value)) else []


def _opaque_call(e: Expr) -> bool:
    """A value only a call can give at run time, with no name in it (``a.size(0)``, ``numel()``):
    the host local holding it is a runtime extent, not the constant its arguments are."""
    return isinstance(e, Call) and e.fn not in _FOLDABLE and not any(True for _ in syms(e))


_FOLDABLE = {"min", "max", "cdiv"}
_LOOPS = {K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.CXX_FOR_RANGE_STMT}
_BLOCKS = {K.COMPOUND_STMT, K.IF_STMT, K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.SWITCH_STMT, K.CXX_FOR_RANGE_STMT,
           K.CXX_TRY_STMT}


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)((?:[^\n]*\\\r?\n)*[^\n]*)", re.MULTILINE)
@lru_cache(maxsize=8)  # by the file's bytes, whose hash Python keeps: once per file
def _launching_macros(data: bytes) -> tuple[bytes, ...]:
    """The macros of the file whose body launches (``#define LAUNCH … kernel<<<grid, block>>>(…)``):
    a function that uses one holds a launch its own text does not show."""
    if b"<<<" not in data or b"define" not in data:
        return ()
    return tuple(m[1] for m in _DEFINE.finditer(data) if b"<<<" in m[2])


def _launches(data: bytes, marks: tuple[bytes, ...]) -> bool:
    """The source text holds a launch: ``<<<`` or the name of a launch wrapper."""
    return any(m in data for m in marks)


def _launch_paths(body: ci.Cursor, conv: Converter, marks: tuple[bytes, ...]):
    """Pre-order over ``body``, not entering nested blocks that hold no launch: what they declare
    is out of scope at every launch, and what they assert holds only on their own path."""
    stack = [(body, True)]
    while stack:
        node, enter = stack.pop()
        yield node
        if not enter:
            continue
        for k in reversed(child_list(node)):
            if _once(k):
                stack.append((child_list(k)[0], True))
                continue
            if k.kind in _BLOCKS and not _launches(conv.src.data[first(k).offset:last(k).offset], marks):
                if k.kind == K.IF_STMT:
                    stack.append((k, False))  # an early rejection (`if (n % 4) return;`) is read whole
                continue
            stack.append((k, True))


def _once(c: ci.Cursor) -> bool:
    """``do { … } while (false)``: a macro's statement wrapper (``CHECK(n % 4 == 0)``), whose body
    runs once in the enclosing scope."""
    if c.kind != K.DO_STMT:
        return False
    kids = child_list(c)
    return len(kids) == 2 and evaluate(kids[1]) == 0


def _kernel_name(call: ci.Cursor, kids: list[ci.Cursor], conv: Converter) -> str:
    """The function a call calls (the launched kernel, or a launch wrapper): the call's name, or,
    where the call depends on a template parameter (libclang leaves it unnamed), the last
    identifier of its callee as written (``ns::kernel<T>`` → ``kernel``)."""
    if call.spelling or not kids:
        return _aliased_function(call.referenced) or call.spelling
    names = _IDENT.findall(conv.src.text_of(kids[0]).split("<", 1)[0])
    return names[-1] if names else ""


def _aliased_function(decl: ci.Cursor | None) -> str:
    """The function a local is initialised with, where a launch goes through it (``auto kernel =
    permute<T, true>; kernel<<<grid, block>>>(…)``), else ""."""
    if decl is None or decl.kind != K.VAR_DECL:
        return ""
    init = next((k for k in child_list(decl) if k.kind.is_expression()), None)
    if init is None or any(k.kind == K.CALL_EXPR for k in preorder(init)):
        return ""  # `kernel = pick_kernel(half2)`: a picker's choice, not one function
    target = next((k.referenced for k in preorder(init) if k.kind == K.DECL_REF_EXPR and k.referenced is not None
                   and k.referenced.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE)), None)
    return target.spelling if target is not None else ""


def _var_name(c: ci.Cursor) -> str:
    """The variable a ``dim3`` argument copies (through the implicit copy construction)."""
    s = strip(c)
    while s.kind == K.CALL_EXPR and s.spelling == "dim3" and len(child_list(s)) == 1:
        s = strip(child_list(s)[0])
    return s.spelling if s.kind == K.DECL_REF_EXPR else ""


def _floor(c: ci.Cursor, conv: Converter, scope: Scope, whole: dict[FloorDiv, tuple[str, str]],
           depth: int = 0) -> FloorDiv | None:
    """The floored division a grid dimension is, followed through locals and ternaries; ``whole``
    gets, for a division of a division, the extent and tile of the single division it equals."""
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR and depth < 4 and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
        value = _reaching(s.referenced, first(s).offset)
        return _floor(value, conv, scope, whole, depth + 1) if value is not None else None
    if s.kind == K.CONDITIONAL_OPERATOR and depth < 4:
        return _floor_branch(s, conv, scope, whole, depth)
    value = _constant_tile(conv.expr(s, scope))
    if isinstance(value, Call) and value.fn == "max" and len(value.args) == 2 and Num(1) in value.args:
        value = next(a for a in value.args if a != Num(1))  # `max(n / 32, 1)`: at least one block, still n / 32
    if _inexact_quotient(value):
        # `int n = 50000; … n / 256`: the locals hold constants, but the grid still drops n % 256
        value = _constant_tile(conv.expr(s, Scope(kinds=scope.kinds)))
    div = floor_division(value, conv.src.span(s), ("/",))
    if div is not None and not div.tile.strip("() "):
        return None  # a divisor libclang could not spell (a dependent `Details<T>::kInterleave`)
    nested = _nested_quotient(value, div.extent) if div is not None else None
    if nested is not None:
        # `n / 16 / 4` is `n / 64`, which a test of `n % 64` makes exact
        whole[div] = (render(nested.left.left),
                      render(_constant_tile(Bin("/", Num(0), Bin("*", nested.left.right, nested.right))).right))
    return div


def _nested_quotient(e: Expr, extent: str) -> Bin | None:
    """The ``n / a / b`` whose inner quotient is the floor's ``extent``, at the top of ``e`` or
    among its factors (``(m + 127) / 128 * (n / 16 / 4)`` blocks)."""
    if not isinstance(e, Bin):
        return None
    if e.op == "/" and isinstance(e.left, Bin) and e.left.op == "/" and render(e.left) == extent:
        return e
    return _nested_quotient(e.left, extent) or _nested_quotient(e.right, extent) if e.op == "*" else None


def _reaching(decl: ci.Cursor, at: int) -> ci.Cursor | None:
    """The value of a local where it is read at offset ``at``: the last plain assignment before it,
    or its initializer. An update that reads the local itself (``bx = swz ? (bx + s - 1) / s : bx``)
    keeps the earlier value's floor; a step (``blocks++`` under ``if (n % 256)``) is the ceiling
    written in two parts: None, not followed."""
    fn = decl.semantic_parent
    if fn is None or fn.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.CONSTRUCTOR):
        return None
    writes = []
    for c in preorder(fn):
        kids = children(c) if c.kind in (K.UNARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.BINARY_OPERATOR) else []
        if kids and first(c).offset < at and _names(kids[0], decl):
            writes.append((first(c).offset, c, kids))
    for _, c, kids in sorted(writes, key=lambda w: w[0], reverse=True):
        if c.kind == K.COMPOUND_ASSIGNMENT_OPERATOR or c.kind == K.UNARY_OPERATOR and unary_op(c) in _STEPS:
            return None
        if c.kind == K.BINARY_OPERATOR and binary_op(c) == "=" and len(kids) == 2 and _steps_up(kids[1], decl):
            return None  # `blocks = n % 512 == 0 ? blocks : blocks + 1`: the same two-part ceiling
        if c.kind == K.BINARY_OPERATOR and binary_op(c) == "=" and len(kids) == 2 and \
                not any(_names(k, decl) for k in preorder(kids[1])):
            return kids[1]
    return next((k for k in child_list(decl) if k.kind.is_expression()), None)


_COUNTS = ("++", "--", "post++", "post--")
_STEPS = (*_COUNTS, "&")  # `&x` handed to a call that writes it: its value unknown after


def _names(c: ci.Cursor, decl: ci.Cursor) -> bool:
    s = strip(c)
    return s.kind == K.DECL_REF_EXPR and s.referenced is not None and s.referenced == decl


def _stepped_local(c: ci.Cursor) -> str | None:
    """The local a statement steps from its own value: ``x++``, ``x += k``, or ``x = t ? x + 1 : x``
    (not ``&x`` handed to a call: the walk keeps what it knew of that local, as before)."""
    kids = children(c) if c.kind in (K.UNARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.BINARY_OPERATOR) else []
    target = strip(kids[0]) if kids else None
    if target is None or target.kind != K.DECL_REF_EXPR or target.referenced is None:
        return None
    if c.kind == K.UNARY_OPERATOR and unary_op(c) in _COUNTS or c.kind == K.COMPOUND_ASSIGNMENT_OPERATOR \
            and binary_op(c) in ("+=", "-="):
        return target.spelling
    stepped = c.kind == K.BINARY_OPERATOR and binary_op(c) == "=" and len(kids) == 2 \
        and _steps_up(kids[1], target.referenced)
    return target.spelling if stepped else None


def _steps_up(value: ci.Cursor, decl: ci.Cursor) -> bool:
    """``cond ? x : x + 1`` (either way round) of the local ``x``: one more block where the test holds."""
    s = strip(value)
    arms = children(s)[1:] if s.kind == K.CONDITIONAL_OPERATOR else []
    return len(arms) == 2 and any(_names(a, decl) for a in arms) and any(_plus_one(a, decl) for a in arms)


def _plus_one(c: ci.Cursor, decl: ci.Cursor) -> bool:
    s = strip(c)
    kids = children(s) if s.kind == K.BINARY_OPERATOR and binary_op(s) == "+" else []
    return len(kids) == 2 and any(_names(k, decl) for k in kids) and any(evaluate(strip(k)) == 1 for k in kids)


_CEIL_CALL = re.compile(r"(?i)ceil|cdiv|div_?up|round_?up")


def _ceiling(c: ci.Cursor, conv: Converter, scope: Scope, depth: int = 0) -> bool:
    """The grid dimension rounds a runtime count up to whole blocks (``ceil_div(N * 32, bs)``,
    ``(N + bs - 1) / bs``), followed through locals: the last block may hold threads past it."""
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR and depth < 4 and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
        value = _reaching(s.referenced, first(s).offset)
        return value is not None and _ceiling(value, conv, scope, depth + 1)
    value = conv.quiet_expr(s, scope)
    if isinstance(value, Call) and _CEIL_CALL.search(value.fn) and value.args:
        num = value.args[0]
    elif isinstance(value, Bin) and value.op == "/" and (
            constant(expand(value.left)) > 0 or _adds(value.left, value.right)):
        num = value.left
    else:
        return False
    return bool({Kind.EXTENT, Kind.OTHER} & kinds(num))


def _adds(num: Expr, den: Expr) -> bool:
    """``n + bs - 1`` over ``bs``: the numerator adds the (runtime) divisor."""
    den_text = terms_text(variable(expand(den)))
    return bool(den_text) and any(terms_text([t]) == den_text for t in variable(expand(num)))


def _floor_branch(c: ci.Cursor, conv: Converter, scope: Scope, whole: dict[FloorDiv, tuple[str, str]],
                  depth: int) -> FloorDiv | None:
    """``swizzle ? n / S : 1``: a floored arm is the grid on that path. A condition that tests a
    remainder (``n % S == 0 ? n / S : n / S + 1``) may be what makes the arm exact: not followed."""
    kids = child_list(c)
    if len(kids) != 3 or "%" in conv.src.text_of(kids[0]) or "%" in render(conv.quiet_expr(kids[0], scope)):
        return None  # the test itself, or a local it reads (`rest = n % (2 * s)`), takes a remainder
    return _floor(kids[1], conv, scope, whole, depth + 1) or _floor(kids[2], conv, scope, whole, depth + 1)


def _constant_tile(e: Expr) -> Expr:
    """A tile of constants as its value (``const int BN = 16 * 8``: ``n / 128``)."""
    if not (isinstance(e, Bin) and e.op == "/") or isinstance(e.right, Num):
        return e
    den = expand(e.right)
    return Bin("/", e.left, Num(constant(den))) if not variable(den) and isinstance(constant(den), int) else e


def _inexact_quotient(e: Expr) -> bool:
    """A division of two integer constants with a remainder."""
    if not (isinstance(e, Bin) and e.op == "/" and isinstance(e.right, Num)):
        return False
    num, den = expand(e.left), e.right.value
    top = constant(num)
    return not variable(num) and isinstance(top, int) and isinstance(den, int) and den > 0 and top % den != 0


# --- facts from early rejections and from the callers of a launcher -----------------------------

_LEAVE = {"exit", "_exit", "_Exit", "quick_exit", "abort"}
_ROUNDED_MASK = re.compile(rb"&\s*~")  # `(V + 63) & ~63`, not a destructor `~Name()`
_DEPTH = 4  # callers followed upwards: main → test driver → dispatcher → launcher; no fixpoint over a call graph


def rejected(conv: Converter, c: ci.Cursor, scope: Scope) -> list[Divisibility]:
    """``if (n % B != 0 || …) { …; return; }``: past the ``if``, every ``n % B`` tested is 0."""
    cond = _rejecting(conv, c)
    return divisibility(conv, cond, scope, "host check", negated=True) if cond is not None else []


def _rejecting(conv: Converter, c: ci.Cursor) -> ci.Cursor | None:
    """The condition of an ``if`` whose arm leaves the function (or a checking macro's ``if``):
    past it, the condition failed."""
    cond, then = if_parts(c)
    return cond if cond is not None and then is not None and (_leaves(then) or _check_macro(conv, c)) else None


_CHECK_MACRO = re.compile(rb"\w*(?:ASSERT|CHECK|ENFORCE|REQUIRE)\w*\s*\(")


def check_call(conv: Converter, c: ci.Cursor) -> tuple[str, list[ci.Cursor]] | None:
    """A check the host makes, with its arguments: ``assert(c)`` and ``TORCH_CHECK(c, …)`` (through
    the stubs), a call of a function named as one (``RuntimeCheck(n % 8 == 0, "…")``), or a checking
    macro whose header was not found, which libclang keeps as a call of an undeclared name
    (``STD_TORCH_CHECK(c, …)``, ``TVM_FFI_ICHECK_EQ(a, b)``: its name read from the text)."""
    if c.kind == K.CALL_EXPR and (c.spelling in _ASSERTS or _CHECK_NAME.fullmatch(c.spelling)):
        return c.spelling, arguments(c)
    if c.kind != K.UNEXPOSED_EXPR:
        return None
    kids = child_list(c)
    if not kids or kids[0].kind != K.DECL_REF_EXPR or kids[0].spelling or not in_main_file(c):
        return None
    m = _IDENT_BYTES.match(conv.src.data, first(c).offset)
    name = m.group().decode() if m else ""
    return (name, kids[1:]) if _CHECK_NAME.fullmatch(name) else None


def checked_facts(conv: Converter, name: str, args: list[ci.Cursor], scope: Scope) -> list[Divisibility]:
    """What a check (:func:`check_call`) holds: its condition's ``n % B == 0``, or for an ``_EQ``
    form (``TVM_FFI_ICHECK_EQ(n % 8, 0)``) its two operands' equality."""
    if _equality_check(name, args):
        return equality_facts(conv, args[0], args[1], scope, "host assert")
    return divisibility(conv, args[0], scope, "host assert") if args else []


def _equality_check(name: str, args: list[ci.Cursor]) -> bool:
    return name.endswith("_EQ") and len(args) == 2


def _check_macro(conv: Converter, c: ci.Cursor) -> bool:
    """The ``if`` is the expansion of a project's checking macro (``NVTE_CHECK(n % 4 == 0, "…")``,
    ``XX_ASSERT(…)``): its error branch leaves even where libclang dropped it (a message helper
    from a header that was not found)."""
    at = first(c).offset
    return conv.src.data[at:at + 2] != b"if" and _CHECK_MACRO.match(conv.src.data, at) is not None


def _rejected_sizes(conv: Converter, c: ci.Cursor, scope: Scope) -> SizeFacts:
    """``if (n < 2 || (n & (n - 1))) return;``: past the ``if``, the test failed."""
    cond, then = if_parts(c)
    if cond is None or then is None or not _leaves(then):
        return SizeFacts()
    return size_facts(conv, cond, scope, holds=False)


def if_parts(c: ci.Cursor) -> tuple[ci.Cursor | None, ci.Cursor | None]:
    """An ``if``'s condition and the branch taken when it holds."""
    kids = child_list(c)
    at = next((i for i, k in enumerate(kids) if k.kind.is_expression()), len(kids))
    return (kids[at], kids[at + 1]) if at + 1 < len(kids) else (None, None)


def _leaves(s: ci.Cursor) -> bool:
    """Whether a branch ends by leaving the function (``return``, ``exit(1)``, ``throw``, a call of
    a ``noreturn`` function): also through an error macro's ``do { throw …; } while (false)``."""
    s = strip(s) if s.kind.is_expression() else s
    if s.kind in (K.COMPOUND_STMT, K.DO_STMT):
        kids = child_list(s)
        body = kids[0] if s.kind == K.DO_STMT and kids else kids[-1] if kids else None
        return body is not None and _leaves(body)
    return s.kind in (K.RETURN_STMT, K.CXX_THROW_EXPR) or s.kind == K.CALL_EXPR and (
        s.spelling in _LEAVE or _noreturn(s))


def _noreturn(call: ci.Cursor) -> bool:
    """The callee is declared ``[[noreturn]]`` / ``__attribute__((noreturn))`` / ``_Noreturn``
    (``ggml_abort``, behind ``GGML_ASSERT``), read from its declaration's tokens."""
    decl = call.referenced
    if decl is None or decl.kind not in (K.FUNCTION_DECL, K.CXX_METHOD):
        return False
    if "noreturn" in decl.type.spelling:  # __attribute__((noreturn)) is part of the type
        return True
    return any(k.kind == K.UNEXPOSED_ATTR and _written(k) and any("noreturn" in t.spelling.lower() for t in k.get_tokens())
               for k in child_list(decl))


def _written(c: ci.Cursor) -> bool:
    """An attribute written in a project's source, a few tokens long: not one of the stub header's
    (precompiled, whose ranges tokenise to thousands of tokens)."""
    start, end = c.extent.start, c.extent.end
    return start.file is not None and end.file is not None and start.file.name == end.file.name \
        and not start.file.name.startswith(VIRTUAL_DIR + "/") and 0 <= end.offset - start.offset <= 64


@dataclass
class _Site:
    """One call of a launcher: what holds where it is made, and what it passes."""

    caller: ci.Cursor
    args: list[str]  # each argument as rendered, by parameter position
    facts: list[Divisibility]
    aliases: list[tuple[str, str]]  # `ImgSize.width = ImgWidth`: copies made before the call
    names: set[str] = field(default_factory=set)  # the caller's parameters and locals


_SITES: weakref.WeakKeyDictionary[Converter, dict[str, list[_Site]]] = weakref.WeakKeyDictionary()
_FACTS: weakref.WeakKeyDictionary[Converter, dict[tuple[str, int], list[Divisibility]]] = weakref.WeakKeyDictionary()


def caller_facts(fn: ci.Cursor, conv: Converter, depth: int = _DEPTH) -> list[Divisibility]:
    """The facts every call of ``fn`` in this file makes about its parameters (none where the
    file never calls it). A caller's own callers are followed up to ``depth`` levels."""
    memo = _FACTS.setdefault(conv, {})
    key = (fn.get_usr(), depth)
    if key not in memo:
        memo[key] = _caller_facts(fn, conv, depth)
    return memo[key]


def _caller_facts(fn: ci.Cursor, conv: Converter, depth: int) -> list[Divisibility]:
    sites = _sites(conv).get(fn.get_usr(), [])
    names = [p.spelling for p in params(fn)]
    common: set[tuple[str, str]] | None = None
    for site in sites:
        facts = site.facts + (caller_facts(site.caller, conv, depth - 1) if depth > 1 else [])
        bound = {b for f in _closure(facts, site.aliases) if (b := _bind(f, site, names)) is not None}
        common = bound if common is None else common & bound
    for made in conv.foreign_callers.get(fn.spelling, []) if fn.linkage == ci.LinkageKind.EXTERNAL else []:
        bound = {b for fact in made if (b := _named(fact, names)) is not None}
        common = bound if common is None else common & bound
    return [Divisibility(e, t, "caller check") for e, t in sorted(common or ())]


Positional = tuple[tuple[str, str], ...]  # what a call holds of its arguments, by position: ("$1.size(2)", "2")
_POSITION = re.compile(r"\$(\d+)")


def _named(fact: tuple[str, str], names: list[str]) -> tuple[str, str] | None:
    """A positional fact (:data:`Positional`) in the parameter names of the function called."""
    if any(int(i) >= len(names) for part in fact for i in _POSITION.findall(part)):
        return None
    extent, tile = (_POSITION.sub(lambda m: names[int(m.group(1))], part) for part in fact)
    return extent, tile


def launch_entries(conv: Converter) -> frozenset[str]:
    """The functions of this file other files may call to reach a launch: the launchers and
    their callers (:func:`_sites`' targets) that have external linkage and parameters."""
    return frozenset(f.spelling for f in _targets(conv).values()
                     if f.linkage == ci.LinkageKind.EXTERNAL and params(f))


def calls_made(conv: Converter, names: set[str]) -> dict[str, list[Positional]]:
    """What each call of ``names`` (functions another file defines) holds of its arguments, by
    position, with what the caller's own callers in this file hold (:func:`caller_facts`)."""
    own = {f.spelling for f in functions(conv.src.root)}
    spellings = {n: [n] for n in names - own}
    if not spellings:
        return {}
    out: dict[str, list[_Site]] = {}
    for f in functions(conv.src.root):
        body = next((k for k in child_list(f) if k.kind == K.COMPOUND_STMT), None)
        if body is not None and not (is_kernel(f) or is_device(f)):
            _CallWalk(conv, f, spellings, out).block(body, [], [])
    return {name: [_positional(site.facts + caller_facts(site.caller, conv, _DEPTH - 1), site.aliases, site)
                   for site in sites] for name, sites in out.items()}


def _positional(facts: list[Divisibility], aliases: list[tuple[str, str]], site: _Site) -> Positional:
    """``facts`` (and those on the copies ``aliases`` name) in the positions of ``site``'s arguments."""
    places = [f"${i}" for i in range(len(site.args))]
    return tuple(sorted({b for f in _closure(facts, aliases) if (b := _bind(f, site, places)) is not None}))


def _closure(facts: list[Divisibility], aliases: list[tuple[str, str]]) -> list[Divisibility]:
    """A fact on a value holds for its copies, either way round."""
    out = list(facts)
    for a, b in aliases:
        out += [replace(f, extent=a) for f in facts if f.extent == b]
        out += [replace(f, extent=b) for f in facts if f.extent == a]
    return out


_NAME = re.compile(r"(?<![\w.>])[A-Za-z_]\w*")  # a name, not a member after `.` / `->`


def _bind(fact: Divisibility, site: _Site, names: list[str]) -> tuple[str, str] | None:
    """``fact`` in the callee's names: an argument's text becomes its parameter (``ImgSize.width``
    passed as ``Size`` → ``Size.width``); a fact on a caller's local not passed says nothing."""
    bound = dict(zip(site.args, names))

    def rename(text: str) -> str | None:
        if text in bound:
            return bound[text]
        ok = True

        def sub(m: re.Match[str]) -> str:
            nonlocal ok
            if m.group(0) in bound:
                return bound[m.group(0)]
            ok = ok and m.group(0) not in site.names
            return m.group(0)

        out = _NAME.sub(sub, text)
        return out if ok else None

    extent, tile = rename(fact.extent), rename(fact.tile)
    return (extent, tile) if extent is not None and tile is not None else None


def _sites(conv: Converter) -> dict[str, list[_Site]]:
    """The calls of this file's launchers (functions that hold a ``<<<``) and of their callers, by
    callee, once per file."""
    if conv in _SITES:
        return _SITES[conv]
    hosts = _host_functions(conv)
    if not conv.foreign_callers and not any(may_hold_facts(chunk) for _, chunk in hosts):
        _SITES[conv] = {}  # no caller here can check anything
        return _SITES[conv]
    spellings: dict[str, list[str]] = {}
    for usr, f in _targets(conv).items():
        spellings.setdefault(f.spelling, []).append(usr)
    out: dict[str, list[_Site]] = {}
    for f, chunk in hosts:
        body = next((k for k in child_list(f) if k.kind == K.COMPOUND_STMT), None)
        if body is not None and any(name.encode() in chunk for name in spellings):
            _CallWalk(conv, f, spellings, out).block(body, [], [])
    _SITES[conv] = out
    return out


def may_hold_facts(text: bytes) -> bool:
    """Whether host code can state a fact: every one is a remainder test or an ``& ~`` rounding."""
    return b"%" in text or _ROUNDED_MASK.search(text) is not None


_HOSTS: weakref.WeakKeyDictionary[Converter, list[tuple[ci.Cursor, bytes]]] = weakref.WeakKeyDictionary()


def _host_functions(conv: Converter) -> list[tuple[ci.Cursor, bytes]]:
    """The file's host function definitions with their text, once per file."""
    if conv not in _HOSTS:
        _HOSTS[conv] = [(f, conv.src.data[first(f).offset:last(f).offset]) for f in functions(conv.src.root)
                        if not (is_kernel(f) or is_device(f))]
    return _HOSTS[conv]


_CHECKS: weakref.WeakKeyDictionary[Converter, dict[tuple[str, int], Positional]] = weakref.WeakKeyDictionary()


def checks_made(fn: ci.Cursor, conv: Converter, depth: int) -> Positional:
    """What holds of ``fn``'s parameters once it returns, by position: its checks at the top level
    of its body (``TORCH_CHECK(c % 64 == 0)`` with ``c = x.size(2)``: ``$0.size(2) % 64``)."""
    memo = _CHECKS.setdefault(conv, {})
    key = (fn.get_usr(), depth)
    if key not in memo:
        memo[key] = ()  # a function that calls itself checks nothing more on the way
        body = next((k for k in child_list(fn) if k.kind == K.COMPOUND_STMT), None)
        if body is not None and may_hold_facts(conv.src.data[first(fn).offset:last(fn).offset]):
            walk = _CallWalk(conv, fn, {}, {}, depth)
            facts, aliases = walk.block(body, [], [])
            memo[key] = _positional(facts, aliases, _Site(fn, [p.spelling for p in params(fn)], [], [], walk.names))
    return memo[key]


_TARGETS: weakref.WeakKeyDictionary[Converter, dict[str, ci.Cursor]] = weakref.WeakKeyDictionary()


def _targets(conv: Converter) -> dict[str, ci.Cursor]:
    """The launchers (host functions that hold a ``<<<``, also through a launching macro), then (by
    name, from the text) what calls them, up to _DEPTH levels up, by USR; once per file."""
    if conv in _TARGETS:
        return _TARGETS[conv]
    hosts = _host_functions(conv)
    marks = (b"<<<", *_launching_macros(conv.src.data))
    targets = {f.get_usr(): f for f, chunk in hosts if _launches(chunk, marks)}
    level = dict(targets)
    for _ in range(_DEPTH - 1):
        names = {f.spelling.encode() for f in level.values()}
        level = {f.get_usr(): f for f, chunk in hosts if f.get_usr() not in targets and any(n in chunk for n in names)}
        targets.update(level)
    _TARGETS[conv] = targets
    return targets


def _copied(c: ci.Cursor) -> ci.Cursor:
    """An argument without the copy construction a struct passed by value gets (``ROI(ImgSize)``)."""
    s = strip(c)
    while s.kind == K.CALL_EXPR and s.referenced is not None and s.referenced.kind == K.CONSTRUCTOR \
            and len(child_list(s)) == 1:
        s = strip(child_list(s)[0])
    return s


def _size_query(c: ci.Cursor) -> bool:
    """``x.size(2)``, ``x.numel()``: a method of a named object asked with literal arguments, the
    same number each time it is asked (``const int64_t C = x.size(2)`` copies it)."""
    s = strip(c)
    kids = child_list(s) if s.kind == K.CALL_EXPR else []
    return bool(kids) and kids[0].kind == K.MEMBER_REF_EXPR and s.spelling in _SIZE_QUERIES \
        and all(strip(a).kind == K.INTEGER_LITERAL for a in kids[1:])


_SIZE_QUERIES = {"size", "numel", "stride", "dim", "size_bytes", "nbytes"}


class _CallWalk:
    """A caller's statements in order, with the facts and copies that dominate each point: what
    a nested block (a branch, a loop body) establishes stays inside it, except an early rejection,
    which holds past its ``if``."""

    def __init__(self, conv: Converter, fn: ci.Cursor, spellings: dict[str, list[str]],
                 out: dict[str, list[_Site]], depth: int = 2) -> None:
        self.conv, self.fn, self.spellings, self.out = conv, fn, spellings, out
        self.scope = Scope()
        self.names = {p.spelling for p in params(fn)} | {k.spelling for k in preorder(fn) if k.kind == K.VAR_DECL}
        self.depth = depth  # checking functions followed down: `check_inputs(x)` calling `check_sizes(x)`

    def block(self, c: ci.Cursor, facts: list[Divisibility], aliases: list[tuple[str, str]]) \
            -> tuple[list[Divisibility], list[tuple[str, str]]]:
        """Walk a block from what holds at its start; what holds at its end."""
        facts, aliases = list(facts), list(aliases)
        for s in child_list(c):
            self.statement(s, facts, aliases)
        return facts, aliases

    def statement(self, s: ci.Cursor, facts: list[Divisibility], aliases: list[tuple[str, str]]) -> None:
        if s.kind == K.COMPOUND_STMT:
            self.block(s, facts, aliases)
        elif s.kind in _BLOCKS:
            if s.kind in _LOOPS:  # what the loop writes differs on its next trip
                for k in preorder(s):
                    self.forget(self.written(k)[0], facts, aliases)
            cond, then = if_parts(s) if s.kind == K.IF_STMT else (None, None)
            for k in child_list(s):
                if k.kind.is_expression():
                    self.calls(k, facts, aliases)
                elif then is not None and k == then:  # `if (n % 4 == 0) {…}`: the test holds inside
                    self.statement(k, facts + divisibility(self.conv, cond, self.scope, "host branch"), list(aliases))
                else:  # a branch or a loop body: a scope of its own
                    self.statement(k, list(facts), list(aliases))
            if s.kind == K.IF_STMT:
                facts += rejected(self.conv, s, self.scope)
        else:
            self.calls(s, facts, aliases)
            if strip(s).kind == K.CALL_EXPR and self.depth > 0:
                facts += self.checked_by(strip(s))
            for k in preorder(s):
                if (check := check_call(self.conv, k)) is not None:
                    facts += checked_facts(self.conv, *check, self.scope)
                target, value = self.written(k)
                self.forget(target, facts, aliases)
                if target and value is not None:
                    facts += rounded_up(target, self.conv.quiet_expr(value, self.scope))
                if target and value is not None and (strip(value).kind in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR)
                                                     or _size_query(value)):
                    aliases.append((target, render(self.conv.quiet_expr(value, self.scope))))

    def checked_by(self, call: ci.Cursor) -> list[Divisibility]:
        """What a call of a function of this file that checks its arguments holds past it
        (``check_inputs(x, w)``, whose ``TORCH_CHECK(x.size(2) % 64 == 0)`` then holds here)."""
        ref = call.referenced
        fn = ref.get_definition() if ref is not None and ref.kind == K.FUNCTION_DECL else None
        if fn is None or not in_main_file(fn) or is_kernel(fn) or is_device(fn):
            return []
        args = [render(self.conv.quiet_expr(_copied(a), self.scope)) for a in arguments(call) if first(a).line > 0]
        return [Divisibility(e, t, "host check") for fact in checks_made(fn, self.conv, self.depth - 1)
                if (bound := _named(fact, args)) is not None for e, t in [bound]]

    def written(self, c: ci.Cursor) -> tuple[str, ci.Cursor | None]:
        """What ``c`` writes and the value it copies there: ``x = y`` / ``int x = y`` /
        ``s.w = y`` copy y; ``x += 1``, ``x++`` and ``read(&x)`` write x with no copy."""
        if c.kind == K.VAR_DECL:
            return c.spelling, next((k for k in child_list(c) if k.kind.is_expression()), None)
        target = write_target(c)
        if target is None:
            return "", None
        kids = child_list(c)
        copied = kids[1] if c.kind == K.BINARY_OPERATOR and len(kids) == 2 else None
        return render(self.conv.quiet_expr(target, self.scope)), copied

    @staticmethod
    def forget(target: str, facts: list[Divisibility], aliases: list[tuple[str, str]]) -> None:
        """A write to ``target`` ends what was known of it and of its members."""
        if not target:
            return
        facts[:] = [f for f in facts if f.extent != target and not f.extent.startswith(target + ".")]
        aliases[:] = [a for a in aliases if not any(x == target or x.startswith(target + ".") for x in a)]

    def calls(self, s: ci.Cursor, facts: list[Divisibility], aliases: list[tuple[str, str]]) -> None:
        for k in preorder(s):
            name = callee(k) if k.kind == K.CALL_EXPR else ""  # also a call a dependent argument leaves unnamed
            if name not in self.spellings:
                continue
            ref = k.referenced
            usrs = self.spellings[name]
            usr = ref.get_usr() if ref is not None else ""
            if usr not in usrs and len(usrs) != 1:
                continue  # an overload this call may not reach
            target = usr if usr in usrs else usrs[0]
            args = [render(self.conv.quiet_expr(_copied(a), self.scope)) for a in arguments(k)
                    if first(a).line > 0]
            self.out.setdefault(target, []).append(_Site(self.fn, args, list(facts), list(aliases), self.names))

