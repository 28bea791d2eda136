"""Model one ``@triton.jit`` kernel: walk its body once, in order, tracking what each name holds
(:class:`~boundcheck.frontends.triton_values.Val`), and record every access with the mask that
protects it, the padding of its masked lanes and the reductions that padding reaches."""

from __future__ import annotations

import ast
import itertools
import math
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from boundcheck import symbolic as sy
from boundcheck.coverage import BRANCH_CONDITION, contract_for
from boundcheck.frontends.pysource import Source, callee
from boundcheck.frontends.triton_configs import config_values
from boundcheck.frontends.triton_flags import FlagPath
from boundcheck.frontends.triton_foreign import FAR, Helper, dotted, placed
from boundcheck.frontends.triton_head_rows import head_in_row, whole_last_dimension
from boundcheck.frontends.triton_items import whole_item
from boundcheck.frontends.triton_presence import NONE, Optional, argument_presence, presence, rewritten
from boundcheck.frontends.triton_saved import saved_values
from boundcheck.frontends.triton_signs import written_params
from boundcheck.frontends.triton_subtiles import column_in_known_row, column_in_row, power_of_two_names
from boundcheck.frontends.triton_tile_aliases import aliases, with_aliases
from boundcheck.frontends.triton_tile_slots import tile_slot
from boundcheck.frontends.triton_values import (
    ELEMENTWISE,
    BlockPtr,
    Flow,
    Val,
    arith,
    arith_reversed,
    elementwise,
    scanned,
)
from boundcheck.model import (
    LAUNCH_BINDING,
    Access,
    AccessKind,
    Bound,
    Dim,
    Divisibility,
    FloorDiv,
    Kernel,
    Language,
    Loop,
    Padding,
    Reduction,
    Space,
    Span,
    TileWalk,
    Tiling,
    Use,
    Walk,
)
from boundcheck.prose import PYTHON_COMMENT, comment_text, stated_multiples
from boundcheck.symbolic import Comparison

_BINOPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>", ast.Pow: "**",
}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_REDUCTIONS = {
    "sum": Reduction.SUM, "max": Reduction.MAX, "min": Reduction.MIN, "argmax": Reduction.ARGMAX,
    "argmin": Reduction.ARGMIN, "cumsum": Reduction.SUM, "cumprod": Reduction.PROD, "prod": Reduction.PROD,
}
_ATOMICS = {"atomic_add", "atomic_max", "atomic_min", "atomic_cas", "atomic_xchg", "atomic_and",
            "atomic_or", "atomic_xor"}
_TRANSPARENT = {"multiple_of", "max_contiguous", "max_constancy", "assume_aligned"}
_DESCRIPTORS = {"make_tensor_descriptor", "_experimental_make_tensor_descriptor", "TensorDescriptor",
                "tensor_descriptor", "host_tensor_descriptor"}
_SCANS = {"cumsum", "cumprod"}
_RANGES = {"range", "static_range"}
_MODULE_NUMBER = re.compile(r"([A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*\d+\s*(?:#.*)?$")  # GROUP = 32
_MAX_INLINE_DEPTH = 4
_SHAPE_COMMENT = re.compile(r"#\s*\[([^\]]+)\]")  # `# [num_reqs + 1]`: a parameter's documented shape


@dataclass
class ModuleContext:
    """What the whole file tells a kernel: its jit helpers, contracts from host code and comments."""

    src: Source
    assumes: dict[int, str]
    tree: ast.Module | None = None  # the whole file, as parsed once
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)  # plain module functions
    path: str = ""  # the file, where modules it imports from are looked for
    # plain functions of other modules called as statements, by name: the function where its body
    # checks its arguments, None where it does not (looked up once each, when host code calls it)
    checks: dict[str, ast.FunctionDef | None] = field(default_factory=dict)
    # every definition of each plain function name, at any depth (a selector may be defined once
    # per arm of a module-level `if`)
    definitions: dict[str, list[ast.FunctionDef]] = field(default_factory=dict)
    jit: dict[str, ast.FunctionDef] = field(default_factory=dict)
    host_contracts: dict[str, list[Divisibility]] = field(default_factory=dict)
    flag_facts: dict[str, dict[str, Flag]] = field(default_factory=dict)
    # kernel -> per launch, the contracts only the `if` branches around that launch give
    branch_contracts: dict[str, list[frozenset[Divisibility]]] = field(default_factory=dict)
    # kernel -> one (parameter -> host value, parameter -> allocated shape) per launch
    launch_layouts: dict[str, list[tuple[dict[str, str], dict[str, list[str]]]]] = field(default_factory=dict)
    # kernel -> per launch, tile parameter -> the tensor one of whose sizes it is given (`BLOCK=n_cols`)
    launch_bindings: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    # kernel -> per launch, the parameters it passes the literal 1 (`XBLOCK=1`)
    launch_units: dict[str, list[frozenset[str]]] = field(default_factory=dict)
    # kernel -> per launch, its grid's elements rendered in host values (None: not a plain tuple)
    launch_grids: dict[str, list[tuple[str, ...] | None]] = field(default_factory=dict)
    # kernel -> per launch, the parameters given a tensor's dimension (``M=s.shape[-1]``): (tensor, dim)
    launch_sizes: dict[str, list[dict[str, tuple[str, int]]]] = field(default_factory=dict)
    # kernel -> per launch, the (NC, BT, BC) sub-tile counts it proves (triton_subtiles)
    subtiles: dict[str, list[frozenset[tuple[str, str, str]]]] = field(default_factory=dict)
    # kernel -> per launch, the compile-time sizes the host branch that picked the kernel fixes
    row_values: dict[str, list[dict[str, int]]] = field(default_factory=dict)
    # kernel -> per launch, (its host function, parameter -> the fresh allocation it is given, which
    # no host code there writes); and (host function, allocation) -> the (kernel, parameter) given it
    # kernel -> per launch, parameter -> (shape, host name) of each tensor variable it is given, the
    # shape allocated or asserted (``assert x.shape == (…)``)
    launch_shapes: dict[str, list[dict[str, tuple[list[str], str]]]] = field(default_factory=dict)
    launch_buffers: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)
    buffer_users: dict[tuple[int, str], list[tuple[str, str]]] = field(default_factory=dict)
    written: dict[str, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)  # kernel -> written_params
    # a host function nested in another (by node id) -> what the one around it knew at its `def`
    # (names, facts, asserted equalities and shapes): a closure launching a kernel sees them
    enclosing: dict[int, tuple[dict[str, ast.expr], list[Divisibility], list[Divisibility], dict[str, list[str]]]] = \
        field(default_factory=dict)
    # an `if` test (by node id) with its `p is not None` on helper parameters made flags (triton_presence)
    presence_tests: dict[int, ast.expr | None] = field(default_factory=dict)
    # jit helpers the file calls through an import or a class, by the call's dotted text; and those
    # of other files its kernels inlined, by (real path, line of the ``def``)
    foreign: dict[str, Helper] = field(default_factory=dict)
    inlined: set[tuple[str, int]] = field(default_factory=set)

    @cached_property
    def real_path(self) -> str:
        return os.path.realpath(self.path)

    @cached_property
    def saved(self) -> dict[int, dict[str, ast.expr]]:
        """Per method (by node id) of an autograd Function, the values its forward saves on ctx."""
        return saved_values(self.tree) if self.tree is not None else {}

    @cached_property
    def launchers(self) -> dict[str, list[ast.Call]]:
        """Module functions that launch a kernel they are given (``kernel[grid](...)`` with
        ``kernel`` a parameter), with those launches: read once per file, not per call site."""
        out = {}
        for name, fn in self.functions.items():
            params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
            calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Subscript)
                     and isinstance(c.func.value, ast.Name) and c.func.value.id in params]
            if calls:
                out[name] = calls
        return out

    @cached_property
    def power_of_two_names(self) -> set[str]:
        """Names the module makes powers of two, read once per file."""
        return power_of_two_names(self.tree if self.tree is not None else ast.parse("\n".join(self.src.lines)))

    def nonneg_buffer(self, kernel: str, param: str) -> bool:
        """Every launch of ``kernel`` gives ``param`` a fresh allocation that the kernels launched
        beside it write only with values >= 0 (the partials of a two-stage max of ``abs``)."""
        launches = self.launch_buffers.get(kernel, [])
        if not launches:
            return False
        for scope, fresh in launches:
            host = fresh.get(param)
            if host is None:
                return False
            writers = [(k, p) for k, p in self.buffer_users.get((scope, host), []) if p in self._writes(k)[0]]
            if not writers or not all(p in self._writes(k)[1] for k, p in writers):
                return False
        return True

    def _writes(self, kernel: str) -> tuple[frozenset[str], frozenset[str]]:
        if kernel not in self.written:
            self.written[kernel] = written_params(self.jit[kernel], set(self.jit))
        return self.written[kernel]

    @cached_property
    def module_numbers(self) -> set[str]:
        """Names the module sets to a number (``GROUP = 32``), read once per file."""
        return {m.group(1) for line in self.src.lines if (m := _MODULE_NUMBER.match(line))}


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def divisibility(node: ast.expr, render: Callable[[ast.expr], str], origin: str) -> Divisibility | None:
    """``A % B == 0`` (or ``A == B``) → the fact; ``render`` names each side."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
        return None
    left, right = node.left, node.comparators[0]
    if _is_zero(left):
        left, right = right, left
    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod):
        return Divisibility(render(left.left), render(left.right), origin) if _is_zero(right) else None
    return Divisibility(render(left), render(right), origin)


def arg_key(node: ast.expr) -> str:
    """``args["K"]`` → ``K`` (heuristics and autotune pass kernel arguments by name)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    return ast.unparse(node)


@dataclass(frozen=True)
class Flag:
    """A compile-time flag computed from divisibility: ``facts`` hold when the flag is ``when``
    (``EVEN_K = K % B == 0`` holds when true; ``MASK_NEEDED = K % B != 0`` when false)."""

    facts: tuple[Divisibility, ...]
    when: bool


def _remainder_test(node: ast.expr) -> ast.expr:
    """A flag's remainder read as the test it is: ``n % B``, ``bool(n % B)`` and ``n % B > 0``
    are true exactly where ``n % B != 0``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" \
            and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return ast.Compare(node, [ast.NotEq()], [ast.Constant(0)])
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Gt) \
            and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mod) and _is_zero(node.comparators[0]):
        return ast.Compare(node.left, [ast.NotEq()], node.comparators)
    return node


def flag_of(node: ast.FunctionDef | ast.expr, mapping: dict[str, str]) -> Flag | None:
    """The flag a function or expression computes: its ``== 0`` tests, else its ``!= 0`` ones
    (a remainder returned as the flag among them); a negated test holds them the other way."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):  # `not (K % B == 0)`: the other value
        inner = flag_of(node.operand, mapping)
        return Flag(inner.facts, not inner.when) if inner is not None else None
    if isinstance(node, ast.FunctionDef):
        returns = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
        if len(returns) == 1 and (test := _remainder_test(returns[0])) is not returns[0]:
            node = test
    else:
        node = _remainder_test(node)
    positive = ast_divisibilities(node, mapping)
    if positive:
        return Flag(tuple(positive), True)
    negative = ast_divisibilities(node, mapping, ast.NotEq)
    return Flag(tuple(negative), False) if negative else None


def ast_divisibilities(fn: ast.FunctionDef | ast.expr, mapping: dict[str, str],
                       op: type[ast.cmpop] = ast.Eq) -> list[Divisibility]:
    """``a % b == 0`` tests in a plain Python function or expression, named by the caller."""

    def name(node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return mapping.get(node.id, node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.FloorDiv)):
            # `args["BLOCK_K"] // 2`: a packed tile, named as the kernel writes it
            return f"{name(node.left)} {'*' if isinstance(node.op, ast.Mult) else '//'} {name(node.right)}"
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return str(node.value)
        return arg_key(node)

    out = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], op)):
            continue
        left, right = node.left, node.comparators[0]
        if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod) and _is_zero(right):
            out.append(Divisibility(name(left.left), name(left.right), "heuristics"))
        elif not isinstance(left, ast.Constant) and not isinstance(right, ast.Constant):
            a, b = name(left), name(right)  # headdim == BLOCK_HEADDIM: one tile is the extent
            out += [Divisibility(a, b, "heuristics"), Divisibility(b, a, "heuristics")]
    return out


def docstring_asserts(fn: ast.FunctionDef) -> list[Divisibility]:
    """Preconditions the kernel's docstring states as Python asserts (a line
    ``assert K % (BLOCK_K * SPLIT_K) == 0``): documented, as a contract must be."""
    facts = []
    for line in (ast.get_docstring(fn) or "").splitlines():
        if not line.lstrip().startswith("assert "):
            continue
        try:
            stmt = ast.parse(line.strip()).body[0]
        except (SyntaxError, IndexError):
            continue
        if isinstance(stmt, ast.Assert) and (fact := divisibility(stmt.test, ast.unparse, "docstring assert")):
            facts.append(fact)
    return facts


def documented(fn: ast.FunctionDef, region: str) -> list[Divisibility]:
    """Divisibility the kernel's docstring or the comments of its ``region`` of text state in words
    (``K is a multiple of BLOCK_SIZE_K``), between its parameters (or a literal tile)."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    return [Divisibility(extent, tile, "documented precondition")
            for text in (ast.get_docstring(fn) or "", comment_text(region, PYTHON_COMMENT))
            for extent, tile in stated_multiples(text, params)]


def assume_fact(text: str) -> Divisibility | None:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    fact = divisibility(node, ast.unparse, "assume comment")
    return fact


@dataclass
class _Pending:
    """An access being built; its uses grow as its data flows on."""

    kind: AccessKind
    buffer: str
    span: Span
    dims: tuple[Dim, ...]
    guards: tuple[Bound, ...]
    padding: Padding | None
    facts: tuple[Divisibility, ...]
    opaque: bool
    checked: frozenset[str]
    text: str
    other_at: Span | None
    uses: list[Use] = field(default_factory=list)
    row_bounds: tuple[Bound, ...] = ()  # guards that are rows of whole tiles (shared by the buffer)
    shape: dict[str, str] = field(default_factory=dict)  # block-pointer lane source -> its axis's extent
    masked_by: tuple[Bound, ...] = ()  # the mask's bounds on no lane dimension of the index
    rows: tuple[tuple[str, Loop], ...] = ()  # loop variables the index steps by outside its lane dimensions
    conditional: bool = False  # made under an ``if``
    row_tests: tuple[tuple[str, Bound], ...] = ()  # the mask's scalar bounds, by the loop variable they test
    within: tuple[Walk, ...] = ()  # the loops it is made in (see ``Access.within``)
    calls: tuple[Span, ...] = ()  # the helper calls it is made through (see ``Access.calls``)
    # a tile-sized slot of scratch (triton_tile_slots): the widths it needs to be tiles, and its bounds
    slot: tuple[frozenset[str], tuple[Bound, ...]] | None = None
    index: sy.Expr | None = None  # the flat address (of a pointer tensor; None for a block pointer)
    whole_last: tuple[Bound, ...] = ()  # lanes spanning the buffer's whole last dimension (a launch fact)
    items: tuple[tuple[str, Bound], ...] = ()  # (tile, bound) of lanes that run one whole item (triton_items)
    offsets: tuple[sy.Expr, ...] = ()  # a block pointer's offsets by axis (its ``index`` is None)

    def extents_of(self, source: str) -> set[str]:
        """What this access bounds a lane by: its mask's limits, or the block pointer's shape."""
        return {b.limit for b in self.guards if b.source == source and not b.wrap} | \
            ({self.shape[source]} if source in self.shape else set())


class KernelAnalyser:
    def __init__(self, ctx: ModuleContext, fn: ast.FunctionDef, depth: int = 0) -> None:
        self.ctx, self.fn, self.depth = ctx, fn, depth
        self.src = ctx.src
        self.jit, self.foreign = ctx.jit, ctx.foreign  # the helpers its calls can name
        self.calls_placed: dict[int, Span] = {}  # base -> the call reaching a helper of another file
        self.name = fn.name
        self.root = fn.name  # the kernel being analysed, also while inlining its helpers
        self.env: dict[str, Val] = {}
        self.sizes: dict[int, tuple[sy.Expr, int]] = {}  # tree sizes of bound values (sy.oversized), shared with helpers
        self.accesses: list[_Pending] = []
        self.loops: list[Loop] = []
        self.open_loops: list[Walk] = []  # the loops being walked, outermost first
        self.calls: tuple[Span, ...] = ()  # the helper calls being inlined, outermost first
        self.walks = itertools.count()  # numbers each walk of a loop body, the helpers' too
        self.loop_of: dict[str, Loop] = {}
        self.range_stops: dict[str, str] = {}  # loop variable -> the n of its `range(n)` / `range(a, n)`
        self.subtile_bounds: dict[str, sy.Expr] = {}  # loop variable -> the program's own sub-tile it counts from or to
        self.contracts: list[Divisibility] = []
        self.tail_handled: set[tuple[str, str]] = set()
        self.remainders: list[tuple[sy.Expr, sy.Expr, int]] = []  # (n, B, line) of each `n % B` evaluated
        self.facts: list[Divisibility] = []  # true on the current path (EVEN_K branches)
        self.tile_guards: list[Comparison] = []  # scalar `if` conditions on tile offsets
        self.flags: dict[str, Flag] = {}
        # helper parameter -> the facts the caller's argument gives when true, when false
        self.bound_flags: dict[str, tuple[list[Divisibility], list[Divisibility]]] = {}
        self.literal_flags: dict[str, bool] = {}  # helper parameter -> the True/False the caller wrote
        self.path = FlagPath()  # the operands of the tests around the current statement
        self.branches = 0  # the ``if`` bodies around the current statement
        self._resolving: set[str] = set()  # local flags being read through their definitions
        self.returned: Val | None = None
        self.labels: dict[str, str] = {}  # lane source -> the first variable that names it
        self.carried_advances: set[int] = set()  # `p = tl.advance(p, d)` calls a loop applies per iteration
        self.defs: dict[str, list[ast.expr]] = {}  # local name -> every expression assigned to it, in order
        self.tiles: set[str] = set()  # sizes the kernel cuts an extent into (cdiv divisors, range steps)
        self.handed: list[sy.Expr] = []  # addresses moved by a loop, passed to calls it cannot see into
        self.masks: list[tuple[str, Val]] = []  # `name = <comparison>` in the kernel's own body
        # (compile-time test, outcome) -> name -> (its value in that branch, its value after the if)
        self.scoped: dict[tuple[str, bool], dict[str, tuple[Val, Val]]] = {}

    # --- entry points -------------------------------------------------------------------------

    def run(self) -> Kernel:
        self._bind_params({})
        self._heuristics()
        self._assumes()
        self.contracts.extend(self.ctx.host_contracts.get(self.name, []))
        self._block(self.fn.body)
        self._remainders_taken_up()
        self.contracts = [f for f in self.contracts if not self._between_sizes(f)]
        # only where a fact can carry over: every kernel would pay for the reading otherwise
        if (self.contracts or any(p.facts for p in self.accesses)) and (names := aliases(self.defs)):
            self.contracts = list(with_aliases(tuple(self.contracts), names))
            for p in self.accesses:
                p.facts = with_aliases(p.facts, names)
        kernel = Kernel(self.name, Language.TRITON, self._name_span(), loops=self.loops,
                        contracts=self.contracts, tail_handled=self.tail_handled,
                        unused_masks=self._unused_masks())
        self._tile_slots()
        self._whole_items()
        self._share_rows()
        self._scalar_rows()
        kernel.accesses = [self._finish(p) for p in self.accesses]
        return placed(kernel, self.calls_placed) if self.calls_placed else kernel

    def _remainders_taken_up(self) -> None:
        """``nbytes = nbytes % 16`` after a loop over ``nbytes // 16`` vectors: the kernel goes on
        with the remainder that floor leaves (a tail loop, a cascade of narrower copies). Only a
        remainder computed after the loop counts: one before it is as often a divisibility test."""
        floors = [loop for loop in self.loops if loop.trip is not None]
        if not floors or not self.remainders:
            return
        rendered = [(sy.render(n), sy.render(b), line) for n, b, line in self.remainders]
        for loop in floors:
            pair = (loop.trip.extent, loop.trip.tile)
            if any((n, b) == pair and line > loop.span.line for n, b, line in rendered):
                self.tail_handled.add(pair)

    def _scalar_rows(self) -> None:
        """A loop variable that a mask bounds (``active = j < max_j``) walks rows that can pass an
        extent: it is a dimension of every access whose index steps by it (one row per iteration,
        ``(i_t * BT + j) * K + o_k``), bounded where that access's own mask tests it."""
        bounded = {name for p in self.accesses for name, _ in p.row_tests}
        for p in self.accesses:
            for name, loop in p.rows:
                if name not in bounded:
                    continue
                source = f"row {name}"
                p.dims = (*p.dims, Dim(source, name, None, Tiling.LOOP, loop=loop))
                p.guards = (*p.guards, *(replace(b, source=source) for n, b in p.row_tests if n == name))

    def _unused_masks(self) -> set[str]:
        """Lane sources of the comparisons with a runtime extent that the kernel assigns to a name
        and never reads (``mask = offs < n`` next to an unmasked ``tl.load(p + offs)``)."""
        read = self._names[1]
        return {b.source for name, value in self.masks if name not in read for c in value.conds or ()
                for b in self._bounds(c) if b.bounds_extent}

    def _between_sizes(self, fact: Divisibility) -> bool:
        """A fact that relates two tiles (``BS % BT == 0``: a split is whole chunks, where the kernel
        cuts T into ``cdiv(T, BS)`` splits) or two extents (``K == V``) says nothing about how an
        extent splits into tiles. A tile is a size the kernel cuts an extent into, or the size of a
        program- or loop-offset ``arange``; a whole ``arange(0, K)`` may span a compile-time extent."""
        extents = {b.limit for p in self.accesses for b in p.guards if b.limit_is_extent and not b.wrap}
        tiles = self._tile_sizes()
        return fact.extent in tiles or (fact.tile in extents and fact.tile not in tiles) \
            or (fact.tile in self._params and fact.tile not in tiles)  # T % num_householder: two sizes

    @cached_property
    def _params(self) -> set[str]:
        """The parameters of the kernel being analysed (also while inlining its helpers)."""
        kernel = self.ctx.jit.get(self.root, self.fn)
        return {a.arg for a in [*kernel.args.args, *kernel.args.kwonlyargs]}

    def _tile_sizes(self) -> set[str]:
        """Sizes the kernel cuts an extent into: cdiv divisors, range steps, and the sizes of
        program- or loop-offset ``arange`` lanes seen so far."""
        cut = self.tiles | {d.tile for p in self.accesses for d in p.dims if d.tile and d.tiling is not Tiling.WHOLE} \
            | {lp.trip.tile for lp in self.loops if lp.trip is not None}  # `range(n // g)` cuts n by g
        return cut | {t for tile in cut if (t := sy.packed_tile(tile))}  # `BN // 2` cuts by BN as well

    def inline(self, args: list[Val], kwargs: dict[str, Val], parent: KernelAnalyser) -> Val:
        """Analyse a jit helper called from ``parent`` with the caller's values bound."""
        self.accesses, self.loops, self.loop_of = parent.accesses, parent.loops, parent.loop_of
        self.open_loops, self.walks = list(parent.open_loops), parent.walks
        self.subtile_bounds = parent.subtile_bounds
        self.contracts, self.tail_handled, self.remainders = parent.contracts, parent.tail_handled, parent.remainders
        self.facts, self.tile_guards, self.flags = list(parent.facts), list(parent.tile_guards), parent.flags
        self.labels, self.tiles, self.sizes = parent.labels, parent.tiles, parent.sizes
        self.handed = parent.handed
        self.root, self.branches = parent.root, parent.branches
        params = [a.arg for a in self.fn.args.args]
        bound = dict(zip(params, args))
        bound.update({k: v for k, v in kwargs.items() if k in params})
        self._bind_params(bound)
        self._bind_presence()
        self._block(self.fn.body)
        return self.returned or Val()

    def _bind_presence(self) -> None:
        """Each parameter's ``p is not None`` as a flag of the caller's (``triton_presence``): settled
        where the argument says, with the facts of the test that chose it, and compile-time either way."""
        for a in [*self.fn.args.args, *self.fn.args.kwonlyargs]:
            value, flag = self.env[a.arg], presence(a.arg)
            facts, known = argument_presence(value.expr, value.extra.get("optional"), value.number)
            if facts is not None:
                self.bound_flags[flag] = facts
            if known is not None:
                self.literal_flags[flag] = known
            self.env[flag] = Val(expr=sy.Sym(flag if known is None else str(known), sy.Kind.CONST))

    def _presence_test(self, test: ast.expr) -> ast.expr:
        """In an inlined helper, ``test`` with its ``p is not None`` on parameters made the caller's flags."""
        if not self.depth:
            return test
        key = id(test)
        if key not in self.ctx.presence_tests:
            params = {a.arg for a in [*self.fn.args.args, *self.fn.args.kwonlyargs]} - set(self._assigned)
            self.ctx.presence_tests[key] = rewritten(test, params)
        return self.ctx.presence_tests[key] or test

    def _truth(self, test: ast.expr) -> bool | None:
        """The value ``test`` has on this path, where the caller settled it (``not PADDED_HEAD``)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._truth(test.operand)
            return None if inner is None else not inner
        flag = self._constant_flag(test)
        if flag is not None:
            return flag
        expr = self.ev(test).expr if isinstance(test, ast.Name) else None
        return {"True": True, "False": False}.get(expr.name) if isinstance(expr, sy.Sym) else None

    def _optional(self, value: Val, test: ast.expr, absent_when: bool) -> Val:
        """``value``, which is ``None`` instead where ``test`` has the outcome ``absent_when``."""
        known = self._truth(test)
        optional = Optional(tuple(self._branch_facts(test, not absent_when)), tuple(self._branch_facts(test, absent_when)),
                            None if known is None else known != absent_when)
        return replace(value, extra={**value.extra, "optional": optional})

    def _name_span(self) -> Span:
        line = self.fn.lineno
        col = self.src.lines[line - 1].find(self.fn.name) if line <= len(self.src.lines) else -1
        return Span(line, max(col, 0), line, max(col, 0) + len(self.fn.name))

    def _bind_params(self, bound: dict[str, Val]) -> None:
        args = self.fn.args
        defaults = dict(zip([a.arg for a in args.args[len(args.args) - len(args.defaults):]], args.defaults))
        for a in [*args.args, *args.kwonlyargs]:
            name = a.arg
            constexpr = a.annotation is not None and "constexpr" in self.src.text(a.annotation)
            if name in bound:
                self.env[name] = bound[name]
            elif self.depth and name in defaults:
                self.env[name] = self.ev(defaults[name])
            else:
                self.env[name] = Val(expr=sy.Sym(name, sy.Kind.CONST if constexpr else sy.Kind.EXTENT))

    def _heuristics(self) -> None:
        """``@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_K"] == 0})``, also
        through a module function the lambda calls (``lambda args: is_even(args["K"], …)``)."""
        flags = dict(self.ctx.flag_facts.get(self.name, {}))
        for dec in self.fn.decorator_list:
            if not (isinstance(dec, ast.Call) and callee(dec.func) == "heuristics"):
                continue
            table = dec.args[0] if dec.args else next((k.value for k in dec.keywords if k.arg == "values"), None)
            if not isinstance(table, ast.Dict):
                continue
            for key, value in zip(table.keys, table.values):
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    continue
                flag = None
                if isinstance(value, ast.Lambda):
                    flag = flag_of(value.body, {})
                    body = value.body
                    if flag is None and isinstance(body, ast.Call) and isinstance(body.func, ast.Name) \
                            and body.func.id in self.ctx.functions:
                        fn = self.ctx.functions[body.func.id]
                        flag = flag_of(fn, {p.arg: arg_key(a) for p, a in zip(fn.args.args, body.args)})
                elif isinstance(value, ast.Name) and value.id in self.ctx.functions:
                    flag = flag_of(self.ctx.functions[value.id], {})
                if flag:
                    flags[key.value] = flag
        self.flags = flags

    def _assumes(self) -> None:
        start = min([self.fn.lineno, *(d.lineno for d in self.fn.decorator_list)]) - 3
        end = self.fn.end_lineno or self.fn.lineno
        for line, text in self.ctx.assumes.items():
            if start <= line <= end and (fact := assume_fact(text)):
                self.contracts.append(fact)
        self.contracts.extend(docstring_asserts(self.fn))
        self.contracts.extend(documented(self.fn, "\n".join(self.src.lines[max(start, 1) - 1:end])))

    # --- helpers ------------------------------------------------------------------------------

    def text(self, node: ast.AST) -> str:
        return self.src.text(node)

    def span(self, node: ast.AST) -> Span:
        return self.src.span(node)

    def _sym(self, node: ast.AST, kind: sy.Kind = sy.Kind.OTHER) -> Val:
        return Val(expr=sy.Sym(self.text(node), kind))

    # --- statements ---------------------------------------------------------------------------

    def _block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if self.returned is not None and self.depth:
                return
            self._stmt(stmt)

    def _stmt(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    self.defs.setdefault(target.id, []).append(stmt.value)
        if isinstance(stmt, ast.Assign):
            value = self.ev(stmt.value)
            for target in stmt.targets:
                self._bind(target, value)
                if isinstance(target, ast.Name) and isinstance(stmt.value, ast.Compare) and self.root == self.name:
                    self.masks.append((target.id, value))
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self._bind(stmt.target, self.ev(stmt.value))
        elif isinstance(stmt, ast.AugAssign):
            op = _BINOPS.get(type(stmt.op))
            if op and isinstance(stmt.target, ast.Name):
                current = self.env.get(stmt.target.id) or self._sym(stmt.target)
                self.env[stmt.target.id] = _kept(stmt.target.id, self.binop(op, current, self.ev(stmt.value)),
                                                 self.sizes)
        elif isinstance(stmt, ast.Assert):
            fact = divisibility(stmt.test, self.text, "assert")
            if fact:
                (self.facts if self._under_compile_time_branch(stmt) else self.contracts).append(fact)
        elif isinstance(stmt, ast.Expr):
            self.ev(stmt.value)
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            self.returned = self.ev(stmt.value)
        elif isinstance(stmt, ast.If):
            self._if(stmt)
        elif isinstance(stmt, ast.For):
            self._for(stmt)
        elif isinstance(stmt, ast.While):
            self._while(stmt)
        elif isinstance(stmt, (ast.With, ast.Try)):
            self._block(stmt.body)

    def _bind(self, target: ast.expr, value: Val) -> None:
        if isinstance(target, ast.Name):
            value = self.env[target.id] = _kept(target.id, value, self.sizes)
            found = sy.lanes(value.expr) if value.expr is not None else set()
            if len({name for name, _ in found}) == 1:
                self.labels.setdefault(next(iter(found))[0], target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = value.items or ()
            for i, el in enumerate(target.elts):
                # a tuple from a call the frontend does not open: each name holds an unknown scalar
                self._bind(el, items[i] if i < len(items) else Val() if items else self._sym(el))

    def _if(self, stmt: ast.If) -> None:
        test = self._presence_test(stmt.test)
        saved_facts, saved_guards, saved_path = list(self.facts), list(self.tile_guards), self.path.copy()
        cond = self.ev(test)
        if isinstance(cond.expr, sy.Sym) and cond.expr.name in ("True", "False"):
            self._block(stmt.body if cond.expr.name == "True" else stmt.orelse)  # a flag bound by the caller
            return
        self.facts.extend(self._branch_facts(test, True))
        self._learn(test, True)
        self.tile_guards.extend(sy.scalar_tests(cond.conds or ()))
        key = self.text(test) if self._compile_time(test) else None
        before = dict(self.env)
        assigned, feasible, ended = [], [], []
        for taken, body in ((True, stmt.body), (False, stmt.orelse)):
            self.env = dict(before)  # each branch starts from the state before the if
            if not taken:
                self.facts, self.tile_guards, self.path = list(saved_facts), list(saved_guards), saved_path.copy()
                self.facts.extend(self._branch_facts(test, False))
                self._learn(test, False)
                if isinstance(test, ast.Compare) and cond.conds and len(cond.conds) == 1:
                    # `if end - n > 0: <masked> else: <unmasked>`: here end <= n
                    self.tile_guards.extend(replace(c, op=sy.negate(c.op)) for c in sy.scalar_tests(cond.conds))
            self._enter_branch(key, taken)
            entry = dict(self.env)
            feasible.append(not self.path.infeasible(self._constant_flag))
            if feasible[-1]:
                self.branches += 1
                self._block(body)
                self.branches -= 1
            assigned.append({n: v for n, v in self.env.items() if v is not entry.get(n)})
            ended.append(tuple(f for f in self.facts if f not in saved_facts))  # with what the path implies
        in_body, in_else = assigned
        self.env = {**before, **in_body, **in_else}  # later code sees the else value where both assign
        for name in set(in_body) & set(in_else):  # `if B != n: m = offs < n else: m = tl.full(.., 1)`
            if in_body[name].conds and _all_true(in_else[name]):
                self.env[name] = in_body[name]  # the bound, where the other branch's mask excludes nothing
        # under a compile-time test, loaded data keeps the padding of either branch (`if CAUSAL: s =
        # tl.where(...)`): both are kernels someone launches; a runtime test (`if kv_i + B > T - C:`
        # re-masks the tiles that straddle the end) says which tiles take the branch
        if key is not None and all(feasible):
            settled = [[*saved_facts, *self._branch_facts(test, taken)] for taken in (True, False)]
            for name in {*in_body, *in_else}:
                flows = tuple(dict.fromkeys(f for branch, facts in zip(assigned, settled)
                                            for f in self._branch_flows(name, branch, before, facts)))
                if flows != self.env[name].flows:
                    self.env[name] = replace(self.env[name], flows=flows)
        if key is not None and all(feasible):
            for name in set(in_body) & set(in_else):
                if in_body[name].conds or in_else[name].conds:
                    self.env[name] = _fullest_mask(self.env[name], (*_alternatives(in_body[name], ended[0]),
                                                                    *_alternatives(in_else[name], ended[1])))
        for name in set(in_body) ^ set(in_else):  # skip = False; if c: skip = True -> either, at run time
            old, new = before.get(name), self.env[name]
            if old is not None and _boolean(old) and _boolean(new) and old.expr != new.expr:
                self.env[name] = Val(expr=sy.Sym(name, sy.Kind.OTHER))
        for name in {*in_body, *in_else}:  # `if MASK: offs = start + arange(0, B) else: offs = None`
            body, orelse = in_body.get(name, before.get(name)), in_else.get(name, before.get(name))
            if body is not None and orelse is not None and (body.expr == NONE) != (orelse.expr == NONE):
                self.env[name] = self._optional(orelse if body.expr == NONE else body, test, body.expr == NONE)
        if key is not None:
            for taken, branch in ((True, in_body), (False, in_else)):
                # a later `if SWAP_AB: a = a.T` adds to what the first `if SWAP_AB:` set (a_ptrs)
                self.scoped[(key, taken)] = {**self.scoped.get((key, taken), {}),
                                             **{n: (v, self.env[n]) for n, v in branch.items()}}
        self.facts, self.tile_guards, self.path = saved_facts, saved_guards, saved_path

    def _branch_flows(self, name: str, branch: dict[str, Val], before: dict[str, Val],
                      facts: list[Divisibility]) -> list[Flow]:
        """The padded data ``name`` holds after one branch of a compile-time test: what the branch
        assigned, or what it left as it was, but then only data loaded on every path (a load under
        `if EVEN_N & EVEN_M: … else:` pads where flags the model does not relate, `if not EVEN_N:`
        re-masking it, say the other branch is taken); none the branch's facts make whole."""
        kept = name not in branch
        value = before.get(name) if kept else branch[name]
        return [f for f in value.flows if not (kept and self.accesses[f.access].conditional)
                and not self._unpadded(f, facts)] if value is not None else []

    def _compile_time(self, test: ast.expr) -> bool:
        """The test reads compile-time values only (``BIAS_TYPE == "vector"``, ``IS_VARLEN``), so
        it has the same outcome wherever the kernel tests it again."""
        for node in ast.walk(test):
            if isinstance(node, ast.Name):
                expr = self.ev(node).expr
                if not (isinstance(expr, sy.Sym) and expr.kind is sy.Kind.CONST):
                    return False
            elif not isinstance(node, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Constant,
                                       ast.cmpop, ast.boolop, ast.unaryop, ast.operator, ast.expr_context)):
                return False
        return True

    @cached_property
    def _branch_tests(self) -> dict[int, list[ast.expr]]:
        """The tests of the ``if`` statements each node of the body lies under (by node id)."""
        out: dict[int, list[ast.expr]] = {}

        def visit(node: ast.AST, tests: list[ast.expr]) -> None:
            out[id(node)] = tests
            if isinstance(node, ast.If):
                visit(node.test, tests)
                for child in [*node.body, *node.orelse]:
                    visit(child, [*tests, node.test])
                return
            for child in ast.iter_child_nodes(node):
                visit(child, tests)

        visit(self.fn, [])
        return out

    def _under_compile_time_branch(self, node: ast.AST) -> bool:
        """``if USE_TMA: tl.static_assert(K % BK == 0)``: the assert is compiled, and so holds,
        only where that compile-time branch is taken; a runtime ``if`` does not prune it."""
        return any(self._compile_time(t) for t in self._branch_tests.get(id(node), []))

    def _enter_branch(self, key: str | None, taken: bool) -> None:
        """Under a compile-time test seen before, a name assigned under the same outcome and not
        reassigned since holds that branch's value, not the other branch's."""
        for name, (value, after) in self.scoped.get((key, taken), {}).items() if key is not None else ():
            if self.env.get(name) is after:
                self.env[name] = value

    def _branch_facts(self, test: ast.expr, taken: bool) -> list[Divisibility]:
        """Facts that hold where ``test`` is ``taken``: flags it tests (``if EVEN_K:``,
        ``if MASK_NEEDED: … else: <unmasked>``) and, when true, its equalities (``d == BLOCK_K``);
        ``A & d == B`` is read as the author meant, ``A & (d == B)``."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, (ast.Not, ast.Invert)):
            return self._branch_facts(test.operand, not taken)
        test = _remainder_test(test)  # `if K % B:` is `if K % B != 0:`
        if isinstance(test, ast.Name):
            bound = self.bound_flags.get(test.id, ([], []))[0 if taken else 1]
            flag = self.flags.get(test.id)
            if bound or flag is None:
                return list(bound) or self._local_flag(test.id, taken)
            return list(flag.facts) if flag.when == taken else []
        parts: list[ast.expr] = []
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if taken else ast.Or):
            parts = list(test.values)
        elif isinstance(test, ast.BinOp) and isinstance(test.op, ast.BitAnd if taken else ast.BitOr):
            parts = [test.left, test.right]
        if parts:
            return [f for p in parts for f in self._branch_facts(p, taken)]
        if not taken and isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq) \
                and not (isinstance(test.left, ast.BinOp) and isinstance(test.left.op, ast.BitAnd)):
            return self._branch_facts(ast.Compare(test.left, [ast.Eq()], test.comparators), True)
        if taken and isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            left, right = test.left, test.comparators[0]
            mod = left if _is_zero(right) else right if _is_zero(left) else None
            if isinstance(mod, ast.BinOp) and isinstance(mod.op, ast.Mod) \
                    and (fact := divisibility(test, self.text, BRANCH_CONDITION)) is not None:
                # `if K % BLOCK_K == 0:` (and the `else` of `!= 0`): the branch holds whole tiles
                return [] if self._positional(mod.left) else [fact]
            facts = []
            while isinstance(left, ast.BinOp) and isinstance(left.op, ast.BitAnd):
                facts += self._branch_facts(left.left, True)
                left = left.right
            if not _is_zero(right) and not self._positional(left) and not self._positional(right):
                a, b = self.text(left), self.text(right)
                facts += [Divisibility(a, b, BRANCH_CONDITION), Divisibility(b, a, BRANCH_CONDITION)]
            return facts
        return []

    def _learn(self, test: ast.expr, taken: bool) -> None:
        """Take the test's outcome onto the path, with what it settles of an earlier chain: in
        ``if a and b: … elif a: <here>``, ``b`` is false."""
        self.path.learn(test, taken, lambda name: name not in self._assigned, self._constant_flag)
        for node, value in self.path.implied(self._constant_flag):
            self.facts.extend(f for f in self._branch_facts(node, value) if f not in self.facts)

    def _constant_flag(self, node: ast.expr) -> bool | None:
        """``True``/``False`` written for the flag: by the caller, for the helper's parameter."""
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return node.value
        fixed = isinstance(node, ast.Name) and node.id not in self._assigned
        return self.literal_flags.get(node.id) if fixed else None  # type: ignore[union-attr]

    def _flag_arguments(self, fn: ast.FunctionDef, args: list[ast.expr], kw: dict[str, ast.expr],
                        ) -> tuple[dict[str, tuple[list[Divisibility], list[Divisibility]]], dict[str, bool]]:
        """What each argument of a helper call says when true and when false (``EVEN_M``, a local
        ``padded = D != BLOCK_D``), in the caller's terms: the helper's ``if first:`` reads the
        caller's flag, whatever the helper calls its parameter. Also the ``True``/``False`` written
        for a parameter (here or by this function's own caller)."""
        params = [a.arg for a in fn.args.args]
        given = {**dict(zip(params, args)), **{k: v for k, v in kw.items() if k in params}}
        facts = {name: (self._branch_facts(node, True), self._branch_facts(node, False))
                 for name, node in given.items() if not any(isinstance(n, ast.Call) for n in ast.walk(node))}
        literal = {name: value for name, node in given.items() if (value := self._constant_flag(node)) is not None}
        return facts, literal

    def _local_flag(self, name: str, taken: bool) -> list[Divisibility]:
        """A name assigned once from a test (``padded_head = D != BLOCK_D``): the facts of that test."""
        value = self.defs[name][-1] if name in self.defs else None
        if value is None or self._assigned.get(name) != 1 or name in self._resolving \
                or not isinstance(value, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Name)) \
                or any(isinstance(n, ast.Call) for n in ast.walk(value)):
            return []
        self._resolving.add(name)
        try:
            return self._branch_facts(value, taken)
        finally:
            self._resolving.discard(name)

    @property
    def _assigned(self) -> dict[str, int]:
        """How many times the function stores each name."""
        return self._names[0]

    @cached_property
    def _names(self) -> tuple[dict[str, int], set[str]]:
        """The function's names in one walk: how many times it stores each, and those it reads."""
        stores: dict[str, int] = {}
        loads: set[str] = set()
        for n in ast.walk(self.fn):
            if isinstance(n, ast.Name):
                if isinstance(n.ctx, ast.Store):
                    stores[n.id] = stores.get(n.id, 0) + 1
                elif isinstance(n.ctx, ast.Load):
                    loads.add(n.id)
        return stores, loads

    def _positional(self, node: ast.expr) -> bool:
        """A program id, loop position or lane (``elif pid == E:``): equal to an extent, it names
        which program runs the branch, not a tile that spans the extent."""
        expr = self.ev(node).expr
        return expr is not None and bool(sy.kinds(expr) & {sy.Kind.PROGRAM, sy.Kind.LOOP, sy.Kind.LANE})

    def _header(self, stmt: ast.stmt, last: ast.AST) -> Span:
        start, end = self.span(stmt), self.span(last)
        return Span(start.line, start.col, end.end_line, end.end_col)

    def _for(self, stmt: ast.For) -> None:
        it = stmt.iter
        var = stmt.target.id if isinstance(stmt.target, ast.Name) else None
        header = self._header(stmt, it)
        trip, stop_expr, step, start, compile_time, stop = None, None, None, None, None, None
        if isinstance(it, ast.Call) and callee(it.func) in _RANGES and it.args:
            pos = it.args
            stop = self.ev(pos[0] if len(pos) == 1 else pos[1])
            stop_expr = stop.expr
            if stop_expr is not None:
                ends = [b.expr for b in stop.extra.get("branches", ()) if b.expr is not None] or [stop_expr]
                trip = next((d for e in ends for c in _min_operands(e) if (d := sy.floor_division(c, header))), None)
                compile_time = None if trip else sy.floor_division(_compile_time_extent(stop_expr), header)
            step_node = pos[2] if len(pos) > 2 else next((k.value for k in it.keywords if k.arg == "step"), None)
            step = self.ev(step_node) if step_node is not None else None
            if step_node is not None:
                self.tiles.add(self.text(step_node))
            start = self.ev(pos[0]) if len(pos) > 1 else Val(expr=sy.Num(0))
            if len(pos) > 1 and start.expr is not None and _falling(step):
                # range(T // BT * BT - BT, -BT, -BT): walking down from a floor skips the tail above it
                trip = trip or next((d for t in sy.expand(start.expr) for f in t.factors
                                     if (d := sy.floor_division(f, header))), None)
            elif len(pos) > 1 and start.expr is not None:
                for candidate in _start_floors(start.expr):  # range(max(first, n // B), …) starts at the tail
                    start_div = sy.floor_division(candidate, header)
                    if start_div:
                        self.tail_handled.add((start_div.extent, start_div.tile))
        if compile_time is not None and _exact_floor(compile_time, self.facts):
            compile_time = None  # `if K % B == 0:` around it: the floor is exact
        whole = trip is not None and _exact_floor(trip, self.facts)
        walks = _tile_walk(stop_expr, step) if stop_expr is not None and trip is None and not _falling(step) else None
        if var and stop_expr is not None and (step is None or step.expr == sy.Num(1)):
            self.range_stops[var] = sy.render(stop_expr)
        elif var:
            self.range_stops.pop(var, None)
        loop = Loop(header, var, None if whole else trip,
                    _stops_before_tail(stop_expr, step) or trip is not None or _below_own_tile(stop_expr, step, start),
                    self.span(stmt).end_line,
                    walks_tail=_walks_tail(stop, step, start) or self._steps_to_constexpr_extent(stop, step, start),
                    walks=walks)
        self.loops.append(loop)
        own = _own_subtile(start, stop_expr, step) if var and trip is None and not compile_time else None
        if var and own is not None:
            self.subtile_bounds[var] = own
        var_expr = None
        if var and step is not None and step.expr is not None and start is not None and start.expr is not None:
            # `for s in range(a, b, BLOCK)`: s = a + iteration * BLOCK moves by the tile
            var_expr = sy.Bin("+", start.expr, sy.Bin("*", sy.Sym(var, sy.Kind.LOOP), step.expr))
        first, handed = len(self.accesses), len(self.handed)
        self._loop_body(stmt.body, stmt, var, loop, var_expr)
        if compile_time is not None and self._grid_stride_floor(compile_time, self.accesses[first:]):
            self._replace_loop(loop, replace(loop, trip=compile_time, full_tiles=True), self.accesses[first:])
        elif compile_time is not None:
            self._floor_over_tiles(loop, compile_time, self.accesses[first:])
        elif trip is not None and not whole and not self._moves_accesses(loop, trip, self.accesses[first:], self.handed[handed:]):
            self._replace_loop(loop, replace(loop, trip=None), self.accesses[first:])

    def _moves_accesses(self, loop: Loop, trip: FloorDiv, body: list[_Pending], handed: list[sy.Expr]) -> bool:
        """Some access of the loop's body is at an address the loop moves: a tile of lanes
        (``k * BLOCK_K + arange(0, BLOCK_K)``, a pointer advanced each iteration), one element per
        iteration (``Mid + b * stride + i``), or an address handed to a call the analyser cannot see
        into that steps by the trip's tile (``load_v4(src + i * 16)`` in ``range(nbytes // 16)``). A
        loop that moves none (``for node in range(world_size // local_world_size)`` around library
        calls on node-indexed addresses) shows no elements its floor would skip."""
        mine = {name for name, lp in self.loop_of.items() if lp is loop}
        # a value the model keeps as its text still names the loop variable (`NT - 1 - i_c if REVERSE
        # else i_c`, a compile-time choice of direction)
        named = re.compile(rf"(?<![\w.]){re.escape(loop.var)}(?!\w)") if loop.var else None
        for p in body:
            if any(d.loop is loop for d in p.dims):
                return True
            if any(s.kind is sy.Kind.LOOP and s.name in mine
                   or named is not None and s.kind is sy.Kind.OTHER and named.search(s.name)
                   for e in (p.index, *p.offsets) if e is not None for s in sy.syms(e)):
                return True
        return any(_steps_by(e, mine, trip.tile) for e in handed)

    def _steps_to_constexpr_extent(self, stop: Val | None, step: Val | None, start: Val | None) -> bool:
        """``range(0, N, BLOCK_N)`` with N a ``tl.constexpr`` parameter of the kernel (a vocabulary
        or row length compiled per value): where N is no multiple of the step the last tile is
        partial, as with a runtime N. Not where N is itself a tile size (``range(0, BLOCK_K, 16)``)
        or every launch passes a number written in the code. Also N split evenly among groups
        (``hidden_size // channels_per_group``) of such parameters."""
        if stop is None or step is None or start is None or stop.expr is None \
                or not (isinstance(stop.expr, sy.Sym) or isinstance(stop.expr, sy.Bin) and stop.expr.op == "//"):
            return False
        if not (isinstance(start.expr, sy.Num) and start.expr.value == 0):
            return False
        names = list(sy.syms(stop.expr))
        return all(s.kind is sy.Kind.CONST and s.name in self._params and s.name not in self._tile_sizes()
                   and not self._fixed_at_launches(s.name) for s in names) and bool(names)

    def _grid_stride_floor(self, trip: FloorDiv, body: list[_Pending]) -> bool:
        """``range(n // (tl.num_programs(0) * B))`` over rows ``i * stride + pid * B + arange(0, B)``
        bounded by that n: a grid-stride loop whose floor skips the last rows whenever the
        compile-time n is no multiple of the stride (it varies across launches)."""
        factors = sy.tile_factors(trip.tile)
        if len(factors) != 2 or sum("num_programs" in f for f in factors) != 1:
            return False
        tile = next(f for f in factors if "num_programs" not in f)
        return not self._fixed_at_launches(trip.extent) and any(
            d.tile == tile and d.tiling is not Tiling.WHOLE and trip.extent in p.extents_of(d.source)
            for p in body for d in p.dims)

    def _replace_loop(self, old: Loop, new: Loop, body: list[_Pending]) -> None:
        """``new`` for ``old`` wherever the loop is referenced: the kernel's loops, the loop
        variables, and the dimensions and scalar rows of the accesses made in its body (a frozen
        ``Loop`` compares by value, so a stale copy would be another loop)."""
        self.loops[next(i for i, lp in enumerate(self.loops) if lp is old)] = new
        for name, lp in list(self.loop_of.items()):
            if lp is old:
                self.loop_of[name] = new
        for p in body:
            p.dims = tuple(replace(d, loop=new) if d.loop is old else d for d in p.dims)
            p.rows = tuple((name, new if lp is old else lp) for name, lp in p.rows)

    def _floor_over_tiles(self, loop: Loop, trip: FloorDiv, body: list[_Pending]) -> None:
        """``range(V // BV)`` with V a compile-time parameter (it still varies across launches) is a
        floor trip count where the loop walks tiles of BV: an access in it has a lane dimension of
        tile BV offset by the loop. Element loops (``range(HEAD_DIM // 16)`` over no such lane) stay
        silent."""
        if not any(d.loop is loop and d.tile == trip.tile for p in body for d in p.dims):
            return
        extents = {e for p in body for d in p.dims if d.loop is loop and d.tile == trip.tile
                   for e in p.extents_of(d.source)}
        if extents and trip.extent not in extents:
            return  # `BT // BC` sub-chunks of a chunk along T: the floor is not of this dimension's extent
        fixed = self._fixed_at_launches(trip.extent)  # its tiles are whole, and the tail is the author's
        self._replace_loop(loop, replace(loop, trip=None if fixed else trip, full_tiles=True), body)

    def _while(self, stmt: ast.While) -> None:
        """``while i < n // BLOCK:`` is a loop over tiles whose trip count is the bound."""
        header = self._header(stmt, stmt.test)
        trip = None
        test = stmt.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Lt, ast.LtE)):
            bound = self.ev(test.comparators[0])
            if bound.expr is not None:
                trip = sy.floor_division(bound.expr, header)
        loop = Loop(header, None, trip, trip is not None, self.span(stmt).end_line)
        self.loops.append(loop)
        self._loop_body(stmt.body, stmt, None, loop)

    def _loop_body(self, body: list[ast.stmt], stmt: ast.stmt, var: str | None, loop: Loop,
                   var_expr: sy.Expr | None = None) -> None:
        iter_name = f"iter({var or stmt.lineno})"
        if var:
            self.env[var] = Val(expr=var_expr or sy.Sym(var, sy.Kind.LOOP))
            self.loop_of[var] = loop
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
                step = sy.Bin("*", iteration, increment.expr)
                self.env[name] = replace(before, expr=sy.Bin("+", before.expr, step))
                for table in self.scoped.values():  # a pointer set under a compile-time test advances too
                    value, after = table.get(name, (None, None))
                    if value is not None and after is before and value.expr is not None:
                        table[name] = (replace(value, expr=sy.Bin("+", value.expr, step)), self.env[name])
        self.open_loops.append(Walk(loop.span, next(self.walks)))
        try:
            self._block(body)
        finally:
            self.open_loops.pop()

    def _carried(self, body: list[ast.stmt]) -> list[tuple[str, Val]]:
        """Names advanced each iteration: ``p += inc``, ``p = p + inc``, ``p = tl.advance(p, d)``."""
        out = []
        for stmt in body:
            if isinstance(stmt, ast.AugAssign | ast.Assign) and self._accesses_memory(stmt.value):
                continue  # data accumulated (`acc += tl.load(…)`), read in the walk itself, not an advance
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add) and isinstance(stmt.target, ast.Name):
                out.append((stmt.target.id, _distance(self.ev(stmt.value))))
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name, value = stmt.targets[0].id, stmt.value
                if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) \
                        and isinstance(value.left, ast.Name) and value.left.id == name:
                    out.append((name, self.ev(value.right)))
                elif isinstance(value, ast.Call) and callee(value.func) == "advance":
                    pointer, deltas = _advance_operands(value)
                    if isinstance(pointer, ast.Name) and pointer.id == name and deltas is not None:
                        out.append((name, self.ev(deltas)))
                        self.carried_advances.add(id(value))
        return out

    def _accesses_memory(self, node: ast.AST) -> bool:
        """``node`` loads, stores or calls a jit helper (which may): evaluating it makes accesses."""
        return any(isinstance(n, ast.Call) and (callee(n.func) in ("load", "store", *_ATOMICS) or callee(n.func) in self.jit
                                                or self.foreign and dotted(n.func) in self.foreign)
                   for n in ast.walk(node))

    def _advance(self, node: ast.Call) -> Val:
        """``tl.advance(p, d)`` / ``p.advance(d)``: the block pointer moved by ``d``. One a loop
        applies per iteration (``p = tl.advance(p, d)``) is already the loop's walk."""
        pointer_node, deltas_node = _advance_operands(node)
        pointer = self.ev(pointer_node) if pointer_node is not None else Val()
        deltas = self.ev(deltas_node) if deltas_node is not None else Val()
        if id(node) in self.carried_advances or pointer.bptr is None or not deltas.items \
                or len(deltas.items) != len(pointer.bptr.offsets):
            return pointer
        offs = tuple(o if d.number == 0 or d.expr is None else sy.Bin("+", o, d.expr)
                     for o, d in zip(pointer.bptr.offsets, deltas.items))
        return replace(pointer, bptr=replace(pointer.bptr, offsets=offs))

    # --- expressions --------------------------------------------------------------------------

    def ev(self, node: ast.expr) -> Val:
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            if node.id in ("True", "False", "None"):
                return Val(expr=sy.Sym(node.id, sy.Kind.CONST))
            return Val(expr=sy.Sym(node.id, sy.Kind.CONST if node.id.isupper() else sy.Kind.OTHER))
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool) or v is None:
                return Val(expr=sy.Sym(str(v), sy.Kind.CONST))
            if isinstance(v, (int, float)):
                return Val(expr=sy.Num(v), number=float(v))
            return self._sym(node, sy.Kind.CONST)
        if isinstance(node, ast.BinOp):
            arithmetic = isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Div, ast.Mod))
            left, right = (self._numeric(node.left), self._numeric(node.right)) if arithmetic \
                else (self.ev(node.left), self.ev(node.right))
            if isinstance(node.op, ast.Mod) and left.expr is not None and right.expr is not None:
                self.remainders.append((left.expr, right.expr, self.span(node).line))  # rendered only for a floor loop
            return self.binop(_BINOPS.get(type(node.op), "?"), left, right, node)
        if isinstance(node, ast.BoolOp):
            vals = [self.ev(v) for v in node.values]
            out = vals[0]
            for v in vals[1:]:
                out = self.binop("&" if isinstance(node.op, ast.And) else "|", out, v)
            return out
        if isinstance(node, ast.UnaryOp):
            inner = self.ev(node.operand)
            if isinstance(node.op, ast.USub):
                flows = tuple(replace(f, pad=None if f.pad is None else -f.pad) for f in inner.flows)
                expr = sy.Bin("*", sy.Num(-1), inner.expr) if inner.expr is not None else None
                return Val(expr=expr, number=None if inner.number is None else -inner.number, flows=flows)
            if isinstance(node.op, ast.UAdd):
                return inner
            return Val(opaque_mask=True, expr=sy.Sym(self.text(node), sy.Kind.OTHER))
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, (ast.Tuple, ast.List)):
            return Val(items=tuple(self.ev(e) for e in node.elts))
        if isinstance(node, ast.Attribute):
            base = node.value
            kind = sy.Kind.CONST if isinstance(base, ast.Name) and base.id in ("tl", "triton") else sy.Kind.OTHER
            return self._sym(node, kind)
        if isinstance(node, ast.IfExp):
            self.ev(node.test)
            arms = (node.body, node.orelse)
            nones = [isinstance(a, ast.Constant) and a.value is None for a in arms]
            if nones.count(True) == 1 and not self._accesses_memory(node):  # `None if not PADDED else offs`
                return self._optional(self.ev(arms[nones.index(False)]), node.test, nones[0])
            if not self._accesses_memory(node):  # `a if USE_WINDOW else b`: either may hold at run time
                return replace(self._sym(node), extra={"branches": (self.ev(node.body), self.ev(node.orelse))})
        return self._sym(node)

    def _numeric(self, node: ast.expr) -> Val:
        """``node``'s value as an operand of arithmetic: a scalar test (``masked = n % B != 0``) counts
        as an unknown 0 or 1 (``n_blocks - masked``), not as a mask."""
        value = self.ev(node)
        scalar = value.conds and not any(sy.lanes(c.left) or sy.lanes(c.right) for c in value.conds)
        if value.expr is None and scalar and not value.flows:
            return Val(expr=sy.Sym(self.text(node), sy.Kind.OTHER))
        return value

    def binop(self, op: str, a: Val, b: Val, node: ast.AST | None = None) -> Val:
        if op == "&":
            data = {"data": bool(a.extra.get("data") or b.extra.get("data") or a.flows or b.flows)}
            conds = (a.conds or ()) + (b.conds or ())
            if a.opaque_mask or b.opaque_mask:
                return Val(opaque_mask=True, conds=conds, extra=data)
            return Val(conds=conds, extra=data,
                       expr=sy.Bin("&", a.expr, b.expr) if a.expr is not None and b.expr is not None else None)
        if op == "|":
            return Val(opaque_mask=True)
        expr = sy.Bin(op, a.expr, b.expr) if a.expr is not None and b.expr is not None else None
        number = arith(op, a.number, b.number) if a.number is not None and b.number is not None and op in "+-*/" \
            else None
        if a.bptr is not None:
            return replace(a, expr=expr)
        scalar = {"scalar": True} if (a.extra.get("scalar") or b.extra.get("scalar")) and _scalar(a) and _scalar(b) else {}
        return Val(expr=expr, number=number, flows=self._arith_flows(op, a, b, node), extra=scalar)

    def _name_of(self, expr: sy.Expr) -> str:
        """The local name holding ``expr`` (``mean``), or its text."""
        return next((n for n, v in self.env.items() if v.expr == expr), sy.render(expr))

    def _shifted(self, f: Flow, shift: str, node: ast.AST | None) -> Flow:
        """``f`` with its shift, placed where it first happened (``node``, the arithmetic)."""
        if shift == f.shifted:
            return f
        return replace(f, shifted=shift, shift_at=self.span(node) if shift and node is not None else None)

    def _arith_flows(self, op: str, a: Val, b: Val, node: ast.AST | None = None) -> tuple[Flow, ...]:
        if op not in ("+", "-", "*", "/"):
            return ()
        out = []
        shared = {f.access for f in a.flows} & {f.access for f in b.flows}
        for f in a.flows:
            partner = next((g for g in b.flows if g.access == f.access), None)
            pad = arith(op, f.pad, partner.pad if partner else b.number)
            if partner is None:
                pad = _times_data(op, f.pad, pad, b)
            square = op == "*" and partner is not None and a == b
            scaled = f.nonneg and op in "*/" and (
                (partner is not None and partner.nonneg) or (b.number is not None and b.number >= 0))
            out.append(self._shifted(replace(f, pad=pad, nonneg=square or scaled), _shift_of(op, f, pad, b, self._name_of), node))
        for g in b.flows:
            if g.access not in shared:
                pad = _times_data(op, g.pad, arith_reversed(op, a.number, g.pad), a)
                out.append(self._shifted(replace(g, pad=pad, nonneg=False), _shift_of(op, g, pad, a, self._name_of), node))
        return tuple(out)

    def _compare(self, node: ast.Compare) -> Val:
        conds = []
        left_node: ast.expr = node.left
        left = self.ev(node.left)
        mentions_data = bool(left.flows)
        flows: tuple[Flow, ...] = ()
        for op_node, right_node in zip(node.ops, node.comparators):
            right = self.ev(right_node)
            test = _PAD_TESTS.get(type(op_node)) if len(node.ops) == 1 else None
            if test is not None:  # x != 0 on padded lanes tests the padding: 1 or 0 where it is counted
                tested = f"`{self.text(node)}`"
                flows = tuple(replace(f, pad=_tested(test, f.pad, right.number), nonneg=True, via=(*f.via, tested))
                              for f in left.flows) \
                    + tuple(replace(f, pad=_tested(test, left.number, f.pad), nonneg=True, via=(*f.via, tested))
                            for f in right.flows)
            mentions_data = mentions_data or bool(right.flows)
            op = _CMPOPS.get(type(op_node))
            if op and left.expr is not None and right.expr is not None:
                conds.append(Comparison(left.expr, op, right.expr, self.span(node),
                                  self.src.between(left_node, right_node, op), op,
                                  left_text=self.text(left_node), right_text=self.text(right_node)))
            left, left_node = right, right_node
        return Val(conds=tuple(conds), extra={"data": mentions_data}, flows=flows)

    def _subscript(self, node: ast.Subscript) -> Val:
        base = self.ev(node.value)
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        kinds = []
        for el in elements:
            if isinstance(el, ast.Slice) and el.lower is None and el.upper is None and el.step is None:
                kinds.append(":")
            elif isinstance(el, ast.Constant) and el.value is None:
                kinds.append("None")
            else:
                kinds.append("?")
        if "?" in kinds or kinds.count(":") != 1:
            idx = node.slice
            if base.items is not None and isinstance(idx, ast.Constant) and isinstance(idx.value, int) \
                    and 0 <= idx.value < len(base.items):
                return base.items[idx.value]
            meta = isinstance(node.value, ast.Name) and node.value.id in ("meta", "META", "args", "nargs", "kwargs")
            return self._sym(node, sy.Kind.CONST if meta else sy.Kind.OTHER)
        axis = kinds.index(":")
        conds = None
        if base.conds is not None:
            conds = tuple(replace(c, left=sy.Axis(c.left, axis), right=sy.Axis(c.right, axis)) for c in base.conds)
        expr = sy.Axis(base.expr, axis) if base.expr is not None else None
        extra = {**base.extra, "data": True} if base.flows else base.extra  # x[None, :] is still loaded data
        flows = tuple(replace(f, axis=axis) if f.axis is None and not f.swapped else f for f in base.flows)
        return Val(expr=expr, conds=conds, opaque_mask=base.opaque_mask, number=base.number, extra=extra,
                   flows=flows)

    # --- calls --------------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> Val:
        name = callee(node.func)
        args = node.args
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        if self.depth < _MAX_INLINE_DEPTH and (helper := self._helper(node)) is not None:
            helper.bound_flags, helper.literal_flags = self._flag_arguments(helper.fn, args, kw)
            helper.calls = (*self.calls, self.span(node))
            return helper.inline([self.ev(a) for a in args], {k: self.ev(v) for k, v in kw.items()}, self)
        if name == "program_id":
            axis = args[0] if args else kw.get("axis")
            return Val(expr=sy.Sym(f"program_id({self.text(axis) if axis is not None else 0})", sy.Kind.PROGRAM))
        if name == "swizzle2d" and len(args) >= 2:  # a permutation of the program grid: still tile indices
            return Val(items=tuple(Val(expr=sy.Sym(f"{self.text(node)}[{i}]", sy.Kind.PROGRAM)) for i in range(2)))
        if name == "arange" and len(args) >= 2:
            return Val(expr=sy.Sym(f"arange({self.text(args[0])}, {self.text(args[1])})", sy.Kind.LANE))
        if receiver is not None and name in ("load", "store") and self.ev(receiver).desc:
            kind = AccessKind.READ if name == "load" else AccessKind.WRITE
            return self._access(node, kind, None, {}, descriptor=True)
        if name in ("load", "store", *_ATOMICS) and (args or "pointer" in kw):
            kind = AccessKind.READ if name == "load" else AccessKind.WRITE if name == "store" else AccessKind.ATOMIC
            return self._access(node, kind, args, kw)
        if name in ("load_tensor_descriptor", "store_tensor_descriptor"):
            kind = AccessKind.READ if name.startswith("load") else AccessKind.WRITE
            return self._access(node, kind, None, {}, descriptor=True)
        if name == "make_block_ptr":
            return self._block_ptr(node, args, kw)
        if name == "advance":
            return self._advance(node)
        if name in _DESCRIPTORS:
            return Val(desc=True)
        if name in _TRANSPARENT and args:
            return self.ev(args[0])
        if name == "to" and receiver is not None:
            return self.ev(receiver)
        if name == "cast" and receiver is not None and not (isinstance(receiver, ast.Name) and receiver.id == "tl"):
            return self.ev(receiver)  # x.cast(tl.float32)
        if name == "cast" and args:
            return self.ev(args[0])
        if name in ("static_assert", "device_assert") and args:
            fact = divisibility(args[0], self.text, name)
            if fact:
                (self.facts if self._under_compile_time_branch(node) else self.contracts).append(fact)
            return Val()
        if name == "cdiv" and len(args) == 2:
            self.tiles.add(self.text(args[1]))
            return Val(expr=sy.Call("cdiv", (self._expr(args[0]), self._expr(args[1]))))
        if name == "float" and isinstance(node.func, ast.Name) and args and isinstance(args[0], ast.Constant):
            try:
                v = float(args[0].value)
            except (TypeError, ValueError):
                return self._sym(node)
            return Val(expr=sy.Num(v), number=v)
        if name in ("zeros", "zeros_like"):
            return Val(number=0.0, expr=sy.Sym(self.text(node), sy.Kind.OTHER))
        if name in ("full", "full_like"):
            fill = args[1] if len(args) > 1 else kw.get("value") or kw.get("fill_value")
            return Val(number=self.ev(fill).number if fill is not None else None,
                       expr=sy.Sym(self.text(node), sy.Kind.OTHER))
        axis_given = name in ("max", "min") and len(args) == 2 and isinstance(node.func, ast.Attribute) \
            and isinstance(args[1], ast.Constant) and type(args[1].value) is int  # tl.min(x, 1): a reduction
        if name in ("maximum", "minimum", "max", "min") and len(args) >= 2 and "axis" not in kw and not axis_given:
            return self._minmax(name, [self._numeric(a) for a in args])
        if name == "where" and len(args) == 3:
            return self._where(args)
        if name in _REDUCTIONS or name in ("dot", "reduce"):
            return self._reduce(node, name, args, kw, receiver)
        if name == "trans" and args and (len(args) == 1 or _swap_order(args[1:])):
            return Val(expr=sy.Sym(self.text(node), sy.Kind.OTHER), flows=_swap(self.ev(args[0]).flows))
        if name in ELEMENTWISE:
            target = args[0] if args else receiver
            if target is not None:
                return Val(expr=sy.Sym(self.text(node), sy.Kind.OTHER), flows=elementwise(name, self.ev(target).flows))
        for a in [*args, *kw.values()]:
            v = self.ev(a)
            if v.expr is not None and self.open_loops and any(s.kind is sy.Kind.LOOP for s in sy.syms(v.expr)):
                self.handed.append(v.expr)  # `load_v4(src + i * 16)`: an address the loop moves
        if receiver is not None:
            self.ev(receiver)
        return self._sym(node, sy.Kind.CONST if name == "num_programs" else sy.Kind.OTHER)

    def _helper(self, node: ast.Call) -> KernelAnalyser | None:
        """An analyser for the jit helper ``node`` calls: one of this file (of the helper's own
        module, inside a helper another module defines), or one an import or a class names, whose
        positions are placed at the call in this file that reaches it."""
        if isinstance(node.func, ast.Name) and node.func.id in self.jit:
            helper = KernelAnalyser(self.ctx, self.jit[node.func.id], self.depth + 1)
            helper.src, helper.jit, helper.calls_placed = self.src, self.jit, self.calls_placed
            return helper
        text = dotted(node.func) if self.foreign else None
        found = self.foreign.get(text) if text else None
        if found is None:
            return None
        helper = KernelAnalyser(self.ctx, found.fn, self.depth + 1)
        helper.calls_placed = self.calls_placed
        if found.path != self.ctx.real_path:  # (a class of this file keeps its names and positions)
            self.ctx.inlined.add((found.path, found.fn.lineno))
            base = (len(self.calls_placed) + 1) * FAR
            self.calls_placed[base // FAR] = self.span(node)
            helper.src, helper.jit, helper.foreign = found.source.placed(base), found.jit, {}
        return helper

    def _expr(self, node: ast.expr) -> sy.Expr:
        v = self.ev(node)
        return v.expr if v.expr is not None else sy.Sym(self.text(node), sy.Kind.OTHER)

    def _minmax(self, name: str, vals: list[Val]) -> Val:
        fn = max if name in ("maximum", "max") else min
        flows = []
        for i, v in enumerate(vals):
            known = [o.number for j, o in enumerate(vals) if j != i]
            # the larger of a value and a floor >= 0 (`tl.maximum(x, 0.0)`, `tl.maximum(tl.abs(y), x)`)
            floor = fn is max and any(o.number is not None and o.number >= 0 or any(g.nonneg for g in o.flows)
                                      for j, o in enumerate(vals) if j != i)
            for f in v.flows:
                pad = None if f.pad is None or None in known else fn([f.pad, *known])  # type: ignore[type-var]
                flows.append(replace(f, pad=pad, nonneg=f.nonneg or floor))
        exprs = [v.expr for v in vals]
        expr = sy.Call("max" if fn is max else "min", tuple(exprs)) if None not in exprs else None  # type: ignore[arg-type]
        return Val(expr=expr, flows=tuple(flows))

    def _where(self, args: list[ast.expr]) -> Val:
        cond, a, b = (self.ev(x) for x in args)
        bound_mask = bool(cond.conds) and any(sy.lanes(c.left) or sy.lanes(c.right) for c in cond.conds or ()) \
            and not cond.extra.get("data")
        flows = [f if self._padded_alike(f, b) else
                 replace(f, pad=b.number, undefined=False, shifted="") if bound_mask else replace(f, pad=None)
                 for f in a.flows]
        flows += [f if self._padded_alike(f, a) else replace(f, pad=None) for f in b.flows]
        expr: sy.Expr = sy.Sym("where(...)", sy.Kind.OTHER)
        if a.expr is not None and b.expr is not None and cond.conds is not None \
                and not any(sy.lanes(x) for x in (a.expr, b.expr)) \
                and not any(sy.lanes(c.left) or sy.lanes(c.right) for c in cond.conds):
            expr = sy.Call("where", (a.expr, b.expr))  # a scalar choice: `where(n <= 0, 0, n + B - 1) // B`
        return Val(expr=expr, flows=tuple(flows))

    def _unpadded(self, f: Flow, facts: list[Divisibility]) -> bool:
        """On a branch whose facts make whole tiles of every dimension the access pads (``if not
        EVEN_N: <re-mask>``, skipped where ``EVEN_N``), the data carries no padding."""
        access = self.accesses[f.access]
        padded = [d for d in access.dims if any(b.source == d.source for b in access.guards)
                  and (f.axis is None or d.axis in (None, f.tile_axis))]  # a product's rows: that axis only
        return bool(facts) and bool(padded) and all(contract_for(d, facts) for d in padded)

    def _lanes_along(self, f: Flow, axis: int) -> set[object]:
        """The lanes whose padding ``f`` lays along ``axis`` of the value it flows in: by lane source,
        and for a block pointer (whose sources are its own) by the extent, tile and loop of its axis."""
        if f.axis is not None and f.axis != axis:
            return set()
        tile_axis = f.tile_axis if f.axis is not None else axis ^ f.swapped
        access = self.accesses[f.access]
        dims = {d.source: d for d in access.dims}

        def lanes(source: str) -> object:
            d = dims.get(source)
            if source in access.shape and d is not None:
                return access.shape[source], d.tile, d.tiling, d.loop.span if d.loop else None
            return source

        return {lanes(b.source) for b in access.guards if b.source and (b.axis is None or b.axis == tile_axis)}

    def _padded_alike(self, f: Flow, other: Val) -> bool:
        """``other`` pads the lanes ``f`` pads (data loaded under the same bounds, along the same
        axis) with the same value, so ``tl.where(c, x, y)`` leaves that padding whichever it picks."""
        sources = {b.source for b in self.accesses[f.access].guards}
        return f.pad is not None and any(
            g.pad == f.pad and g.axis == f.axis and g.tile_axis == f.tile_axis and g.swapped == f.swapped
            and {b.source for b in self.accesses[g.access].guards} == sources for g in other.flows)

    def _reduce(self, node: ast.Call, name: str, args: list[ast.expr], kw: dict[str, ast.expr],
                receiver: ast.expr | None) -> Val:
        span = self.span(node)
        if name == "dot":
            operands = [*args[:2], *(kw[k] for k in ("input", "other", "a", "b") if k in kw)]
            flows: list[Flow] = []
            values = [_transposed(self.ev(operand), kw.get(flag))
                      for operand, flag in zip(operands[:2], ("trans_a", "trans_b"))]
            for kept, value in enumerate(values):
                # lanes the other operand zeroes along the contracted axis add nothing, whatever they hold here
                zeroed = set().union(*(self._lanes_along(g, kept) for g in values[1 - kept].flows if g.pad == 0.0)) \
                    if len(values) == 2 else set()
                self._record_uses(replace(value, flows=tuple(f for f in value.flows if not (
                    f.pad is not None and math.isfinite(f.pad) and self._lanes_along(f, 1 - kept) & zeroed))),
                                  Reduction.DOT, span, (1 - kept,))
                flows += _dot_rows(value.flows, kept, span)
            for a in [*args[2:], *(v for k, v in kw.items() if k not in ("input", "other", "a", "b"))]:
                flows += [replace(f, pad=arith("+", f.pad, None)) for f in self.ev(a).flows]  # the accumulator
            return replace(self._sym(node), flows=tuple(flows))
        if name == "reduce":
            for a in args:
                self.ev(a)
            return self._sym(node)
        method = receiver is not None and not _is_module(receiver)
        target = receiver if method else (args[0] if args else kw.get("input"))
        if target is None:
            return self._sym(node)
        rest = args if method else args[1:]
        axis_node = kw.get("axis") or (rest[0] if rest else None)
        axes = (axis_node.value,) if isinstance(axis_node, ast.Constant) and isinstance(axis_node.value, int) else None
        value = self.ev(target)
        if name in _SCANS:
            # a forward scan: lanes padded after every valid one reach no valid lane's prefix, and
            # hold what the scan makes of the padding (-inf stays -inf) for whatever reads them next
            forward = _forward(rest, kw)
            after = scanned(tuple(f for f in value.flows if forward and f.suffix), name)
            self._record_uses(replace(value, flows=tuple(f for f in value.flows if not (forward and f.suffix))),
                              _REDUCTIONS[name], span, axes)
            return replace(self._sym(node), flows=after)
        self._record_uses(value, _REDUCTIONS[name], span, axes)
        kept = kw.get("keep_dims")
        whole = (axis_node is None or value.flows and all(len(self.accesses[f.access].dims) == 1 for f in value.flows)) \
            and not (isinstance(kept, ast.Constant) and kept.value)
        # the reduction of a whole 1-D tile (`mean = tl.sum(x, axis=0) / n`) is one number
        return replace(self._sym(node), extra={"scalar": True}) if whole else self._sym(node)

    def _record_uses(self, value: Val, reduction: Reduction, span: Span, axes: tuple[int, ...] | None) -> None:
        for f in value.flows:
            pending = self.accesses[f.access]
            pad = Padding(f.pad, undefined=f.undefined, shifted=f.shifted if f.pad is None else "",
                          shift_at=f.shift_at if f.pad is None else None, product_at=f.product_at)
            if reduction in (Reduction.MAX, Reduction.ARGMAX) and f.nonneg and f.pad is not None and f.pad <= 0:
                pad = Padding(-math.inf, undefined=f.undefined)  # a floor below every valid lane
            on = tuple(1 - a for a in axes) if f.swapped and axes is not None and set(axes) <= {0, 1} else \
                None if f.swapped else axes  # the reduced axes of the loaded tile
            if f.axis is not None and axes is not None:  # a broadcast row: reduced across its lanes or not at all
                if f.axis not in axes:
                    continue
                on = (f.tile_axis,)
            use = Use(reduction, pad, span, f.via, on)
            if use not in pending.uses:
                pending.uses.append(use)

    def _block_ptr(self, node: ast.Call, args: list[ast.expr], kw: dict[str, ast.expr]) -> Val:
        names = ["base", "shape", "strides", "offsets", "block_shape", "order"]
        given = dict(zip(names, args))
        given.update(kw)
        if not all(k in given for k in ("base", "shape", "offsets", "block_shape")):
            return self._sym(node)

        def items(n: ast.expr) -> list[ast.expr]:
            return list(n.elts) if isinstance(n, (ast.Tuple, ast.List)) else []

        shape = tuple(self._expr(e) for e in items(given["shape"]))
        offsets = tuple(self._expr(e) for e in items(given["offsets"]))
        block = tuple(self.text(e) for e in items(given["block_shape"]))
        base = self.ev(given["base"])
        base_name = _buffer(base.expr) if base.expr is not None else self.text(given["base"])
        self.tiles.update(b for b, o in zip(block, offsets) if not isinstance(o, sy.Num))
        return Val(bptr=BlockPtr(base_name, shape, offsets, block))

    # --- accesses -----------------------------------------------------------------------------

    def _access(self, node: ast.Call, kind: AccessKind, args: list[ast.expr] | None, kw: dict[str, ast.expr],
                descriptor: bool = False) -> Val:
        span = self.span(node)
        index = len(self.accesses)
        text = self.text(node)
        if descriptor:
            padding = Padding(0.0) if kind is AccessKind.READ else None
            self.accesses.append(_Pending(kind, text.split(".")[0], span, (), (), padding, tuple(self.facts),
                                          False, frozenset(), text, None, conditional=self.branches > 0, within=tuple(self.open_loops), calls=self.calls))
            return Val(flows=(Flow(index, 0.0),) if kind is AccessKind.READ else ())
        assert args is not None
        positional = {"load": ["pointer", "mask", "other", "boundary_check", "padding_option"],
                      "store": ["pointer", "value", "mask", "boundary_check"]}.get(
            callee(node.func), ["pointer", "val", "mask"])
        given: dict[str, ast.expr] = dict(zip(positional, args))
        given.update(kw)
        for k in ("value", "val", "cmp"):
            if k in given:
                self.ev(given[k])
        ptr = self.ev(given["pointer"])
        if ptr.bptr is not None:
            return self._block_access(kind, ptr.bptr, given, span, text)
        if ptr.expr is None:
            return self._sym(node)
        parts = sy.dims_of(ptr.expr, span, self.loop_of, alias_of=self._alias_of)
        names = self._index_names(given["pointer"])
        loaded = any(p.dim.tiling is Tiling.WHOLE and p.dim.tile for p in parts) \
            and any(sy.is_loaded(s) for s in sy.syms(ptr.expr))
        dims = tuple(self._past_own_subtile(replace(p, dim=_named(_chunk_walk(ptr.expr, p) if loaded else p.dim, names)))
                     for p in parts)
        buffer, layouts = _buffer(ptr.expr), self.ctx.launch_layouts.get(self.root, [])
        slot = tile_slot(ptr.expr, buffer) if len(parts) > 1 else None  # a dense tile has two lanes at least
        if slot is None:  # a slot's footprint is no evidence that its widths are tiles
            self._note_offset_tiles(ptr.expr, parts)
        guards: list[Bound] = [p.intrinsic for p in parts if p.intrinsic is not None
                               and not (kind is not AccessKind.READ and _clamp(p.intrinsic))]
        guards += [b for p in parts if p.intrinsic is None and (b := self._allocated_in_tiles(buffer, p, span, ptr.expr))]
        guards += [b for p in parts if p.intrinsic is None and (b := head_in_row(
            ptr.expr, buffer, p, span, layouts, self.ctx.launch_grids.get(self.root, []), self.loop_of))]
        whole_last = tuple(b for p in parts if p.intrinsic is None and (b := whole_last_dimension(
            ptr.expr, buffer, p, span, layouts, self.ctx.launch_sizes.get(self.root, []))))
        guards += whole_last
        guards += [b for p in parts if p.intrinsic is None and (b := self._subtile_column(ptr.expr, p, span))]
        items = tuple((p.dim.tile or "", b) for p in parts if p.intrinsic is None and (b := whole_item(
            ptr.expr, p, span, layouts, self.ctx.launch_grids.get(self.root, []),
            self.ctx.launch_sizes.get(self.root, []))))
        opaque, masked_by, row_tests, found = False, (), (), []
        mask_node = given.get("mask")
        none = isinstance(mask_node, ast.Constant) and mask_node.value is None
        mask = self.ev(mask_node) if mask_node is not None and not none else None
        if mask is not None:
            if mask.opaque_mask or mask.conds is None:
                opaque = True
            else:
                shifts = {p.dim.source: p.shift for p in parts}
                # `o_to < T` bounds `o_to = base - 1 + arange` itself when the access reads at `o_to`
                # (and `o_k2 = 64 + o_k1` under `o_k2 < K`); only a shift the bound carries too is
                # cancelled (`cu_seqlens + i + 1` under `i < n` reads a buffer of n + 1, as far as the
                # model knows)
                found = [replace(b, lane_offset=b.lane_offset - _common_shift(b.lane_offset, shifts.get(b.source or "", 0)))
                         for c in mask.conds for b in self._bounds(c)]
                if not found:
                    found = [b for c in mask.conds for b in _own_tile_bounds(c)]
                if not found and (mask.extra.get("data") or any(_has_lanes(c) for c in mask.conds)) \
                        and not (mask.conds and all(_lower_bound(c) for c in mask.conds)):
                    # a data or causal mask: what bounds the access is unknown; a lane's lower bound
                    # alone (`t > 0` before reading at `t - 1`) leaves its top unbounded
                    opaque = True
                guards.extend(found)
                guards.extend(replace(b, alternative=True) for c in mask.extra.get("other_conds", ()) for b in self._bounds(c))
                masked_by = _masked_by(mask.conds, found, dims)
                guards.extend(_tile_rows(mask.conds, parts, ptr.expr, span))
                row_tests = _row_tests(mask.conds, self.loop_of, self.range_stops)
                if found:
                    self.tail_handled.update(_tail_starts(ptr.expr, span) | self._peeled_tails(ptr.expr, span))
        guards.extend(sy.tile_test_bounds(self.tile_guards, parts))  # `if (pid + 1) * BLOCK <= n:`
        gathered, gathered_bounds = self._gathered_dims(ptr.expr, mask.conds if mask is not None else None)
        dims, guards = (*dims, *gathered), [*guards, *gathered_bounds]
        row_bounds = tuple(p.intrinsic for p in parts if p.whole_rows and p.intrinsic is not None)
        slot_bounds = tuple(Bound(p.dim.source, p.dim.label, "<", f"{buffer} tile slot", True, span, wrap=True,
                                  axis=p.dim.axis) for p in parts if slot and p.dim.source in slot.sources
                            and p.intrinsic is None) if slot else ()
        padding, flows, other_at = None, (), None
        if kind is AccessKind.READ and mask is not None and not self._full_at_launches(guards, dims):
            other = given.get("other")
            if other is None or (isinstance(other, ast.Constant) and other.value is None):
                padding = Padding(0.0, undefined=True)
                end = self.span(node.keywords[-1].value if node.keywords else node.args[-1])
                other_at = Span(end.end_line, end.end_col, end.end_line, end.end_col)
            else:
                padding = Padding(self.ev(other).number)
            suffix = bool(found) and not opaque and not mask.extra.get("data") and not mask.extra.get("other_conds") \
                and all(_ascending_upper(c) for c in mask.conds or ())
            flows = (Flow(index, padding.value, padding.undefined, nonneg=self._nonneg_buffer(buffer), suffix=suffix),)
        self.accesses.append(_Pending(kind, buffer, span, dims, tuple(guards), padding,
                                      tuple(self.facts), opaque, frozenset(), text, other_at,
                                      row_bounds=row_bounds, masked_by=masked_by,
                                      rows=_loop_rows(ptr.expr, parts, self.loop_of), row_tests=row_tests,
                                      slot=(slot.widths, slot_bounds) if slot_bounds else None,
                                      index=ptr.expr, whole_last=whole_last, items=items,
                                      conditional=self.branches > 0, within=tuple(self.open_loops), calls=self.calls))
        return Val(expr=sy.Sym(text, sy.Kind.OTHER), flows=flows)

    def _index_names(self, node: ast.expr, axis: int | None = None, depth: int = 0) -> dict[tuple[str, int | None], str]:
        """The variable each lane dimension of an index is written with, by (lane source, axis):
        ``offs_m[:, None] * N + offs_n[None, :]`` names the two axes of one ``arange(0, B)``
        apart, through the local names the pointer is built from."""
        out: dict[tuple[str, int | None], str] = {}
        if depth > _MAX_INLINE_DEPTH:
            return out
        if isinstance(node, ast.Subscript):
            return self._index_names(node.value, _broadcast_axis(node.slice, axis), depth)
        if isinstance(node, ast.Name):
            val = self.env.get(node.id)
            found = sy.lanes(val.expr) if val is not None and val.expr is not None else set()
            if len(found) == 1 and not _based(val.expr):  # type: ignore[arg-type]
                # one lane on one axis, and no pointer it is added to: the dimension's own index
                source, own = next(iter(found))
                return {(source, own if own is not None else axis): node.id}
            if node.id in self.defs:
                return self._index_names(self.defs[node.id][-1], axis, depth + 1)
            return out
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                for key, name in self._index_names(child, axis, depth).items():
                    out.setdefault(key, name)
        return out

    def _past_own_subtile(self, part: sy.DimPart) -> Dim:
        """``i_t * BT + i_j * BC + arange(0, BC)``: sub-tiles of the program's chunk i_t, counted
        before its own sub-tile (``range(0, i_i)``) or after it up to the chunk's end
        (``range(i_i + 1, NC)``), chunk and sub-tile split from one program id. The grid runs every
        sub-tile of the last, partial chunk, and the chunk offset (no step of the loop's tile, so no
        part of the dimension's offset) moves the loop's tiles past the end with it: they run the
        partial tile, those before a sub-tile past the end are no full tiles, and no access outside
        the loop is a peeled tail of theirs."""
        dim, loop = part.dim, part.dim.loop
        bound = self.subtile_bounds.get(loop.var or "") if loop is not None else None
        if loop is None or bound is None or self.loop_of.get(loop.var or "") is not loop:
            return dim
        programs = {s.name for s in sy.syms(bound) if s.kind is sy.Kind.PROGRAM}
        if any(_chunk_offset(list(rest), part.offset_syms, programs) for rest in part.outer):
            return replace(dim, loop=replace(loop, full_tiles=False, walks_tail=True))
        return dim

    def _gathered_dims(self, index: sy.Expr, conds: tuple[Comparison, ...] | None) -> tuple[list[Dim], list[Bound]]:
        """``a + offs_token[:, None] // top_k * s``: a tile of indices read from memory, broadcast
        along an axis, is a dimension of the access too. Like a whole tile it needs a bound only
        where the kernel bounds it somewhere (``offs_token < num_valid_tokens``: padded ids past the
        end); the mask's comparisons of that loaded value bound it here."""
        dims, bounds = [], []
        for name, axis in sorted(_loaded(index), key=str):
            source = f"gathered {name}"
            label = next((n for n, v in self.env.items() if v.expr == sy.Sym(name, sy.Kind.OTHER)), name)
            dims.append(Dim(source, label, None, Tiling.WHOLE, axis))
            for c in conds or ():
                left, op, right = (c.left, c.op, c.right) if _loaded(c.left) else (c.right, sy.FLIP.get(c.op, c.op), c.left)
                if op in ("<", "<=") and {n for n, _ in _loaded(left)} == {name} and not _loaded(right) \
                        and not sy.lanes(left) and not sy.lanes(right) and sy.variable(sy.expand(right)):
                    bounds.append(Bound(source, c.left_text if left is c.left else c.right_text, op, sy.render(right),
                                        bool(sy.kinds(right) - {sy.Kind.PROGRAM, sy.Kind.LOOP}), c.span, axis=axis,
                                        op_span=c.op_span, op_text=c.op_text))
        return dims, bounds

    def _block_access(self, kind: AccessKind, bp: BlockPtr, given: dict[str, ast.expr], span: Span,
                      text: str) -> Val:
        check = given.get("boundary_check")
        checked_axes = {e.value for e in check.elts if isinstance(e, ast.Constant)} \
            if isinstance(check, (ast.Tuple, ast.List)) else set()
        dims = []
        for axis, offset in enumerate(bp.offsets):
            ks = sy.kinds(offset)
            tiling = Tiling.PROGRAM if sy.Kind.PROGRAM in ks else Tiling.LOOP if sy.Kind.LOOP in ks else Tiling.WHOLE
            tile = bp.block[axis] if axis < len(bp.block) else None
            if tiling is Tiling.WHOLE and _counts_tiles(offset, tile):
                tiling = Tiling.PROGRAM  # i_t * BT with i_t a chunk index loaded per program
            loop = next((self.loop_of[s.name] for s in sy.syms(offset)
                         if s.kind is sy.Kind.LOOP and s.name in self.loop_of), None)
            extent = sy.render(bp.shape[axis]) if axis < len(bp.shape) else ""
            dims.append(Dim(f"block:{bp.base}:{axis}", f"{bp.base} axis {axis}", tile, tiling, axis, loop,
                            extent=extent))
        checked = frozenset(d.source for d in dims if d.axis in checked_axes)
        padding, flows = None, ()
        index = len(self.accesses)
        if kind is AccessKind.READ and checked:
            opt = given.get("padding_option")
            value = opt.value if isinstance(opt, ast.Constant) else ""
            padding = Padding(math.nan) if value == "nan" else Padding(0.0, undefined=value != "zero")
            flows = (Flow(index, padding.value, padding.undefined, nonneg=self._nonneg_buffer(bp.base)),)
        guards = tuple(Bound(d.source, d.label, "<", "shape", True, span, axis=d.axis)
                       for d in dims if d.source in checked)
        # a block as wide as the shape it names, from offset 0 (`shape=(T, D)` in blocks of
        # `(BC, D)` at `(i * BC, 0)`): that axis is whole by construction, checked or not
        guards += tuple(Bound(d.source, d.label, "<", d.extent, True, span, axis=d.axis, wrap=True)
                        for d, offset in zip(dims, bp.offsets)
                        if d.source not in checked and d.extent and (d.extent == d.tile and offset == sy.Num(0)
                                                                     or d.axis is not None and d.axis < len(bp.shape)
                                                                     and _slot_of(offset, bp.shape[d.axis], d.tile)))
        self.accesses.append(_Pending(kind, bp.base, span, tuple(dims), guards, padding, tuple(self.facts),
                                      False, checked, text, None,
                                      shape={d.source: sy.render(bp.shape[d.axis]) for d in dims
                                             if d.axis is not None and d.axis < len(bp.shape)},
                                      conditional=self.branches > 0, within=tuple(self.open_loops), calls=self.calls,
                                      offsets=tuple(bp.offsets)))
        return Val(expr=sy.Sym(text, sy.Kind.OTHER), flows=flows)

    def _peeled_tails(self, index: sy.Expr, span: Span) -> set[tuple[str, str]]:
        """A masked access after a loop of ``n // B`` whole tiles, at offsets that loop advanced
        (``kv_ptrs += BLOCK_KV * stride`` each iteration): the peeled last tile the loop leaves,
        handled after it (the loop's BC301 is no skipped tail). Not one in a later loop, which walks
        tiles of its own."""
        walking = {w.loop for w in self.open_loops}
        return {(loop.trip.extent, loop.trip.tile) for s in sy.syms(index) if s.kind is sy.Kind.LOOP
                and (loop := self.loop_of.get(s.name)) is not None and loop.trip is not None
                and loop.span not in walking and span.line > loop.end_line
                and not any(loop.end_line < lp.span.line <= span.line <= lp.end_line for lp in self.loops)}

    def _note_offset_tiles(self, index: sy.Expr, parts: list[sy.DimPart]) -> None:
        """``i_t * BT + arange(0, BT)`` with a loaded chunk index ``i_t``: BT is still a tile size."""
        whole = {p.dim.tile for p in parts if p.dim.tiling is Tiling.WHOLE and p.dim.tile} - self.tiles
        if whole:
            offsets = {sy.render(f) for t in sy.variable(sy.expand(index)) if not any(sy.lanes(f) for f in t.factors)
                       for f in t.factors}
            self.tiles.update(whole & offsets)

    def _bounds(self, c: Comparison) -> list[Bound]:
        found = sy.comparison_bounds(c) or sy.descending_bounds(c.left, c.op, c.right, c.span)
        index = c.left_text if sy.lanes(c.left) else c.right_text
        return [replace(b, op_span=c.op_span, op_text=c.op_text, index=index or b.index) for b in found]

    def _alias_of(self, name: str) -> sy.Expr | None:
        """The compile-time expression a capitalised local holds (``PAIRED: tl.constexpr = SPLIT *
        2``, or a helper's parameter its caller binds to 8192): the value of a tile written under
        another name."""
        value = self.env.get(name)
        expr = value.expr if value is not None else None
        return expr if name.isupper() and (isinstance(expr, sy.Num) or expr is not None and not isinstance(expr, sy.Sym)
                                           and sy.kinds(expr) == {sy.Kind.CONST}) else None

    def _full_at_launches(self, guards: list[Bound], dims: tuple[Dim, ...]) -> bool:
        """Every launch passes the mask's limits and tiles as numbers that leave no lane masked
        (``head_dim=128, BLOCK_D=128`` for ``arange(0, BLOCK_D) < head_dim``): no lane is padded."""
        launches = self.ctx.launch_layouts.get(self.root, [])
        whole = {d.source: d.tile for d in dims if d.tiling is Tiling.WHOLE and d.tile}
        if not launches or not guards or any(b.source not in whole or b.op not in ("<", "<=") or b.lane_offset
                                             for b in guards):
            return False
        for values, _ in launches:
            for b in guards:
                limit, tile = values.get(b.limit, b.limit), values.get(whole[b.source], whole[b.source])
                if not (limit.isdigit() and tile.isdigit() and int(tile) <= int(limit) + (b.op == "<=")):
                    return False
        return True

    def _fixed_at_launches(self, param: str) -> bool:
        """Every launch in the file passes ``param`` a number written in the code (``G=32``,
        ``G=GROUP`` with ``GROUP = 32`` at module level): a size the author chose, not a shape."""
        launches = self.ctx.launch_layouts.get(self.root, [])
        return bool(launches) and all(
            (value := values.get(param)) is not None and (value.isdigit() or value in self.ctx.module_numbers)
            for values, _ in launches)

    def _nonneg_buffer(self, buffer: str) -> bool:
        """The kernel's own parameter ``buffer`` holds only values >= 0 at every launch
        (:meth:`ModuleContext.nonneg_buffer`); a helper's parameter names no launch argument."""
        return self.root == self.name and self.ctx.nonneg_buffer(self.root, buffer)

    def _allocated_in_tiles(self, buffer: str, part: sy.DimPart, span: Span, index: sy.Expr) -> Bound | None:
        """At every launch the tensor given as ``buffer`` has a dimension of this lane whose size is a
        multiple of its tile: the lane's tiles are full (a scratch laid out in tiles). The dimension
        is the one whose stride the launch passes (``x.stride(3)``), of a shape allocated or asserted
        (``assert x.shape == (B, H, n, C, C)``); or, in a contiguous allocation
        (``torch.empty((n, BLOCK_M, BLOCK_N))``), the one whose later sizes multiply to the stride,
        where the index steps its other terms by rows of that allocation (``off_hb * seqlen`` over
        rows padded to ``cdiv(seqlen, 128) * 128`` walks rows of the true length: no)."""
        launches = self.ctx.launch_layouts.get(self.root, [])
        tile = part.dim.tile
        if not launches or tile is None:
            return None
        for (values, allocated), shapes in zip(launches, self.ctx.launch_shapes.get(self.root, [])):
            stride, size = [values.get(f, f) for f in part.stride], values.get(tile, tile)
            named = _strided_dimension(*shapes.get(buffer, (None, None)), stride)
            if named is not None and _multiple(named, size):
                continue
            shape = allocated.get(buffer)
            at = _spanned_dimension(shape, stride, size) if shape is not None else None
            tensor = shapes.get(buffer, (None, values.get(buffer, buffer)))[1]
            if at is None or not _rows_of(index, buffer, part, values, shape, at, size, stride, tensor):
                return None
        return Bound(part.dim.source, part.dim.label, "<", f"{buffer} dimension", True, span,
                     wrap=True, axis=part.dim.axis)

    def _subtile_column(self, index: sy.Expr, part: sy.DimPart, span: Span) -> Bound | None:
        """A sub-chunk column ``(pid % NC) * BC + arange(0, BC)`` inside rows of BT, where every
        launch passes NC = cdiv(BT, BC) with BT a multiple of BC, or ``16 + arange(0, 16)`` inside rows
        of a BT every launch fixes (``BT == 32`` picked the kernel): in bounds by construction."""
        launches = self.ctx.subtiles.get(self.root, [])
        row = column_in_row(part, index, set(frozenset.intersection(*launches))) if launches else None
        row = row or column_in_known_row(part, index, self.ctx.row_values.get(self.root, []))
        if row is None:
            return None
        return Bound(part.dim.source, part.dim.label, "<", row, True, span, wrap=True, axis=part.dim.axis)

    def _tile_slots(self) -> None:
        """Slots of tile-shaped scratch (:func:`tile_slot`) whose widths the kernel cuts a real extent
        into elsewhere and no launch gives a tensor's size: each lane stays inside its slot."""
        cut = self.tiles | {d.tile for p in self.accesses if p.slot is None for d in p.dims
                            if d.tile and d.tiling is not Tiling.WHOLE}
        sized = {tile for bound in self.ctx.launch_bindings.get(self.root, []) for tile in bound}
        for p in self.accesses:
            if p.slot is not None and p.slot[0] <= cut and not p.slot[0] & sized:
                p.guards = (*p.guards, *p.slot[1])

    def _whole_items(self) -> None:
        """Lanes that run one whole item of a counted number (:func:`whole_item`), where the kernel
        cuts no extent into that tile: no ``cdiv`` or ``range`` step by it, no mask of a lane of it
        against an extent."""
        if not any(p.items for p in self.accesses):
            return
        cut = self.tiles | {d.tile for p in self.accesses for b in p.guards if b.limit_is_extent and not b.wrap
                            for d in p.dims if d.source == b.source and d.tile}
        for p in self.accesses:
            p.guards = (*p.guards, *(b for tile, b in p.items if tile not in cut))

    def _share_rows(self) -> None:
        """Rows a layout fact proves for one access, given to the others it holds for:
        - rows of whole tiles are a property of the buffer: where one access shows the pitch
          (``o_c[:, None] * (H * BC) + o_i[None, :]``), a one-row access to the same buffer along
          the same lane (``Akk + row * H * BC + o_i``) stays inside its row too;
        - buffers read at the same offsets share their shape there: where the launch makes one
          access's tile its buffer's whole last dimension (``s + i * M + arange(0, M)``, ``M =
          s.shape[-1]``), another buffer at that very offset (``g + i * M + arange(0, M)``) has rows
          of M too, as every elementwise kernel that masks both by one ``n`` assumes."""
        tiled = {(p.buffer, b.source): b for p in self.accesses for b in p.guards if b.wrap and b in p.row_bounds}
        whole = {(_offset_text(p.index, p.buffer), b.source): b for p in self.accesses if p.index is not None
                 for b in p.whole_last}
        for p in self.accesses:
            offset = _offset_text(p.index, p.buffer) if whole and p.index is not None else None
            for d in p.dims:
                if any(g.source == d.source for g in p.guards):
                    continue
                b = tiled.get((p.buffer, d.source)) if d.tiling is not Tiling.WHOLE else None
                b = b or whole.get((offset, d.source))
                if b is not None:
                    p.guards = (*p.guards, replace(b, span=p.span, axis=d.axis))

    def _finish(self, p: _Pending) -> Access:
        if p.index is not None and any(b.inclusive for b in p.guards):
            rows = sy.rows_one_past(p.index) | {size[:-2] for size in self._commented_sizes.get(p.buffer, ()) if size.endswith("+1")}
            p.guards = tuple(b.on_n_plus_one() if b.inclusive and b.limit.replace(" ", "") in rows else b for b in p.guards)
        dims = tuple(d if d.label != d.source else replace(d, label=self.labels.get(d.source, d.label)) for d in p.dims)
        dims = tuple(replace(d, tile="1") if d.tile in self._unit_tiles else d for d in dims)
        return Access(p.kind, p.buffer, p.span, Space.GLOBAL, dims, p.guards + self._fixed_sizes(dims, p.span),
                      p.padding, tuple(p.uses), p.facts + self._bound_tiles(p.buffer), 1, p.opaque, p.checked,
                      p.text, p.other_at, masked_by=p.masked_by, within=p.within, calls=p.calls,
                      offset_factors=sy.offset_factors(sy.expand(p.index)) if p.index is not None else frozenset())

    @cached_property
    def _commented_sizes(self) -> dict[str, set[str]]:
        """The sizes a parameter's own comment gives it (``cu_ptr,  # [num_reqs + 1] int32``), spaces
        removed: read where the parameter has its line to itself."""
        args = [*self.fn.args.args, *self.fn.args.kwonlyargs]
        lines = Counter(a.lineno for a in args)
        out: dict[str, set[str]] = {}
        for a in args:
            text = self.src.lines[a.lineno - 1] if lines[a.lineno] == 1 and a.lineno <= len(self.src.lines) else ""
            m = _SHAPE_COMMENT.search(text)
            if m:
                out[a.arg] = {d.replace(" ", "") for d in m.group(1).split(",")}
        return out

    def _fixed_sizes(self, dims: tuple[Dim, ...], span: Span) -> tuple[Bound, ...]:
        """Dimensions of a compile-time extent (a block pointer's shape ``(4096, D)``, ``N_CTX = 4096``
        in the kernel) cut by a tile whose every value divides it: the tile a literal, or set by every
        one of the kernel's autotune configs (a kernel written for one shape, as inductor emits).
        Whole by construction (``wrap``), each on its own: another axis with the same tile is not."""
        out = []
        for d in dims:
            if not d.extent.isdigit() or d.tile is None:
                continue
            values = {int(d.tile)} if d.tile.isdigit() else self._configs.get(d.tile)
            if values and all(v > 0 and int(d.extent) % v == 0 for v in values):
                out.append(Bound(d.source, d.label, "<", d.extent, True, span, axis=d.axis, wrap=True))
        return tuple(out)

    @cached_property
    def _configs(self) -> dict[str, set[int] | None]:
        """The kernel's own autotune configs, read once (:func:`config_values`)."""
        return config_values(self.ctx.jit.get(self.root, self.fn), self.ctx.tree)

    @cached_property
    def _unit_tiles(self) -> set[str]:
        """Meta-parameters every one of the kernel's own autotune configs, or every launch in the
        file, sets to 1 (``XBLOCK`` of a row-per-program reduction): a tile of one lane."""
        launches = self.ctx.launch_units.get(self.root, [])
        given = frozenset.intersection(*launches) if launches else frozenset()
        return given | {name for name, values in self._configs.items() if values == {1}}

    def _bound_tiles(self, buffer: str) -> tuple[Divisibility, ...]:
        """Tiles every launch gives one of the sizes of the tensor it passes as ``buffer``
        (``BLOCK=n_cols`` with ``n_cols`` read from ``x.shape``): over that buffer, one such tile
        spans the dimension (a size that is no power of two fails to compile; it cannot overrun)."""
        bindings, layouts = self.ctx.launch_bindings.get(self.root, []), self.ctx.launch_layouts.get(self.root, [])
        if not bindings or len(bindings) != len(layouts):
            return ()
        tiles = None
        for bound, (given, _) in zip(bindings, layouts):
            mine = {tile for tile, tensor in bound.items() if given.get(buffer) == tensor}
            tiles = mine if tiles is None else tiles & mine
        return tuple(Divisibility(buffer, tile, LAUNCH_BINDING, spans=True) for tile in sorted(tiles or ()))


def _is_module(node: ast.expr) -> bool:
    """``tl`` / ``triton.language``: the receiver of a function call, not of a method."""
    return isinstance(node, ast.Name) and node.id in ("tl", "triton", "language") \
        or isinstance(node, ast.Attribute) and node.attr == "language"


def _advance_operands(call: ast.Call) -> tuple[ast.expr | None, ast.expr | None]:
    """The block pointer and the offsets of ``tl.advance(p, d)`` or ``p.advance(d)``."""
    func = call.func
    offsets = next((k.value for k in call.keywords if k.arg == "offsets"), None)
    if isinstance(func, ast.Attribute) and not _is_module(func.value):
        return func.value, call.args[0] if call.args else offsets
    return (call.args[0] if call.args else None), (call.args[1] if len(call.args) > 1 else offsets)


def _steps_by(address: sy.Expr, names: set[str], tile: str) -> bool:
    """``p + i * T`` (``p + (t + i * S) * T`` in a strided loop): a term of the address is one of
    the loop symbols ``names`` times the tile T (among its factors, or a multiple of its value)."""
    for t in sy.variable(sy.expand(address)):
        moving = [f for f in t.factors if isinstance(f, sy.Sym) and f.name in names]
        if len(moving) != 1:
            continue
        rest = Counter(sy.render(f) for f in t.factors if f is not moving[0])
        if not Counter([tile]) - rest or not Counter(sy.tile_factors(tile)) - rest \
                or tile.isdigit() and int(tile) > 0 and isinstance(t.coeff, int) and t.coeff % int(tile) == 0:
            return True
    return False


def _chunk_walk(index: sy.Expr, part: sy.DimPart) -> Dim:
    """A whole-tile lane stepped by a loaded chunk index (:func:`_counts_tiles`) along its own
    stride, ``(i_t * BT + arange(0, BT)) * s``, walks its dimension in tiles."""
    dim = part.dim
    stride = [f for f in part.stride if not f.lstrip("-").isdigit()]
    if dim.tiling is Tiling.WHOLE and _counts_tiles(index, dim.tile, stride):
        return replace(dim, tiling=Tiling.PROGRAM)
    return dim


def _counts_tiles(offset: sy.Expr, tile: str | None, stride: list[str] | None = None) -> bool:
    """``i_t * BT`` with ``i_t`` read from memory (``tl.load(chunk_indices + …)``, a varlen
    kernel's chunk index): a number of whole tiles of the block's own size, so the block walks that
    axis in tiles like a program id. In a flat index, the term steps the lane's ``stride``."""
    if tile is None:
        return False
    for t in sy.variable(sy.expand(offset)):
        loaded = [f for f in t.factors if sy.is_loaded(f)]
        rest = sy.without([f for f in t.factors if f not in loaded], [tile])
        if loaded and rest is not None and not any(sy.lanes(f) for f in t.factors) \
                and (stride is None or sorted(map(sy.render, rest)) == sorted(stride)):
            return True
    return False


def _broadcast_axis(index: ast.expr, axis: int | None) -> int | None:
    """The axis ``x[:, None]`` (0) or ``x[None, :]`` (1) puts ``x`` on; the enclosing one otherwise."""
    elts = index.elts if isinstance(index, ast.Tuple) else [index]
    full = [isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None for e in elts]
    if full.count(True) == 1 and all(f or isinstance(e, ast.Constant) and e.value is None for f, e in zip(full, elts)):
        return full.index(True)
    return axis


def _named(dim: Dim, names: dict[tuple[str, int | None], str]) -> Dim:
    """The dimension labelled by the variable its index writes it with, where there is one."""
    name = names.get((dim.source, dim.axis))
    return replace(dim, label=name) if name is not None else dim


def _slot_of(offset: sy.Expr, shape: sy.Expr, tile: str | None) -> bool:
    """A block of T at ``(i % C) * T`` in an axis of ``C * T`` (``(i_h * S,)`` in ``(H * S,)``
    with ``i_h = i_bh % H``): slot ``i % C`` of C whole blocks, in bounds by construction."""
    at, size = sy.expand(offset), sy.expand(shape)
    if tile is None or len(at) != 1 or len(size) != 1 or at[0].coeff != 1 or size[0].coeff != 1:
        return False
    rest = sy.without(at[0].factors, [tile])
    if rest is None or len(rest) != 1 or not (isinstance(rest[0], sy.Bin) and rest[0].op == "%"):
        return False
    return sorted(sy.render(f) for f in size[0].factors) == sorted([sy.render(rest[0].right), tile])


Choice = tuple[tuple[Divisibility, ...], Val]  # a value one branch of a compile-time test gives, with its facts


def _alternatives(value: Val, facts: tuple[Divisibility, ...]) -> tuple[Choice, ...]:
    """The masks ``value`` stands for, each with the facts of the branches that chose it."""
    nested = value.extra.get("alternatives")
    return tuple((facts + inner, v) for inner, v in nested) if nested else ((facts, value),)


def _fullest_mask(merged: Val, choices: tuple[Choice, ...]) -> Val:
    """A mask chosen on each side of a compile-time test (``if not EVEN_N: m = rows & cols elif
    P != S: m = rows``), as later code sees it: the fullest of them where every other one leaves
    out only lanes its branch's facts make whole (``EVEN_N``: N % BLOCK_N == 0), so each kernel
    masks what the fullest mask does; else (or where ``merged`` is one) ``merged``, the value the
    walk already chose. The other masks' comparisons stay on the value as what the author compares
    (``s <= S`` there is still an off-by-one), the choices for an enclosing test; a lane tested on
    different axes (a transposed layout chosen by the same flag) stops the reading."""
    def tested(v: Val) -> dict[str, int | None]:
        return {lane: axis for c in v.conds or () for lane, axis in sy.lanes(c.left) | sy.lanes(c.right)}
    lanes = [tested(v) for _, v in choices]
    union: dict[str, int | None] = {}
    for mine in lanes:
        if any(union.setdefault(lane, axis) != axis for lane, axis in mine.items()):
            return replace(merged, extra={**merged.extra, "alternatives": choices})
    fullest = [v for (_, v), mine in zip(choices, lanes) if mine.keys() == union.keys()]
    whole = all(contract_for(Dim(lane, lane, sy.tile_of(lane), Tiling.WHOLE), facts) is not None
                for (facts, _), mine in zip(choices, lanes) for lane in union.keys() - mine.keys())
    # the walk's value stands where it is a fullest mask itself, or where the fullest ones differ
    # (each bound is a kernel's own, and an off-by-one in either must stay visible)
    if whole and fullest and tested(merged).keys() != union.keys() and all(v.conds == fullest[0].conds for v in fullest):
        # the other masks' comparisons stay as what the author compares (BC104 reads them)
        others = tuple(c for _, v in choices for c in v.conds or () if c not in fullest[0].conds)
        return replace(fullest[0], extra={**fullest[0].extra, "alternatives": choices, "other_conds": others})
    return replace(merged, extra={**merged.extra, "alternatives": choices})


def _loaded(e: sy.Expr, axis: int | None = None) -> set[tuple[str, int]]:
    """The values read from memory (``tl.load`` results) in ``e`` that lie along a broadcast axis
    (``offs_token[:, None]``), with that axis: a gathered tile of indices."""
    match e:
        case sy.Sym(name=name) if axis is not None and sy.is_loaded(e):
            return {(name, axis)}
        case sy.Axis(expr=inner, axis=a):
            return _loaded(inner, a if axis is None else axis)
        case sy.Bin(left=left, right=right):
            return _loaded(left, axis) | _loaded(right, axis)
    return set()


def _clamp(bound: Bound) -> bool:
    """``min(offs, n - 1)``: safe to read, but a write through it lands the lanes past the end on
    the last element, over the value its own lane writes there."""
    return bound.wrap and bound.op == "<="


def _swap_order(order: list[ast.expr]) -> bool:
    """``tl.trans(x, 1, 0)`` / ``tl.trans(x, (1, 0))``: the 2-D transpose."""
    items = order[0].elts if len(order) == 1 and isinstance(order[0], (ast.Tuple, ast.List)) else order
    return [getattr(i, "value", None) for i in items] == [1, 0]


def _shift_of(op: str, f: Flow, pad: float | None, other: Val, name_of: Callable[[sy.Expr], str]) -> str:
    """What moved a finite padding to an unknown value: a runtime scalar added or subtracted
    (``x - mean``, not loaded data nor a number), by the name that holds it. Kept while the
    padding stays unknown; a product with data padded with zero on the same lanes
    (``x_hat * (w * dy)``) is zero there again."""
    if pad is not None or op == "*" and other.flows and all(g.pad == 0.0 for g in other.flows):
        return ""
    if op in "+-" and f.pad is not None and math.isfinite(f.pad) and not f.undefined and not other.flows \
            and other.number is None and other.expr is not None and other.extra.get("scalar"):
        return name_of(other.expr)
    return f.shifted


def _scalar(v: Val) -> bool:
    """One number for the whole tile: a whole reduction (marked), a literal, or sizes and ids."""
    return bool(v.extra.get("scalar")) or v.number is not None or (
        v.expr is not None and not v.flows
        and sy.kinds(v.expr) <= {sy.Kind.EXTENT, sy.Kind.CONST, sy.Kind.PROGRAM, sy.Kind.LOOP})


def _transposed(value: Val, flag: ast.expr | None) -> Val:
    """An operand as ``tl.dot`` reads it: ``trans_b=True`` (older Triton) transposes it."""
    if not (isinstance(flag, ast.Constant) and flag.value is True):
        return value
    return replace(value, flows=_swap(value.flows))


def _swap(flows: tuple[Flow, ...]) -> tuple[Flow, ...]:
    """The flows of a 2-D value transposed."""
    return tuple(replace(f, axis=1 - f.axis) if f.axis is not None else replace(f, swapped=not f.swapped) for f in flows)


def _dot_rows(flows: tuple[Flow, ...], kept: int, span: Span) -> list[Flow]:
    """The padding an operand of ``tl.dot`` leaves in the product: the lanes it pads along the axis
    the product keeps (``kept``: 0, the rows of the first operand; 1, the columns of the second) are
    whole padded rows or columns of the product, zero where the padding is zero (``q @ k.T`` over
    the key tile's padded rows gives score columns of 0) and NaN where it is infinite. Padding along
    the contracted axis is the dot's own use, recorded beside."""
    out = []
    for f in flows:
        if f.axis is not None and f.axis != kept:
            continue  # a broadcast row along the contracted axis
        if f.pad is None or not (f.pad == 0.0 or math.isinf(f.pad) or math.isnan(f.pad)):
            continue  # times the other operand's data: no value the model can name
        tile_axis = f.tile_axis if f.axis is not None else kept ^ f.swapped
        out.append(replace(f, pad=0.0 if f.pad == 0.0 else math.nan, axis=kept, tile_axis=tile_axis,
                           swapped=False, nonneg=False, via=(*f.via, "dot"), product_at=f.product_at or span))
    return out


def _times_data(op: str, pad: float | None, result: float | None, other: Val) -> float | None:
    """An infinite padding times other masked data (``b_q[None, :] * b_k``) is +-inf or NaN,
    whatever the data: never an identity a reduction could absorb. A scalar scale (no masked
    data) keeps the sign, as ``arith`` has it."""
    if result is None and op == "*" and pad is not None and math.isinf(pad) \
            and (other.flows or other.extra.get("data")):
        return math.nan
    return result


_PAD_TESTS = {ast.Eq: float.__eq__, ast.NotEq: float.__ne__, ast.Lt: float.__lt__, ast.LtE: float.__le__,
              ast.Gt: float.__gt__, ast.GtE: float.__ge__}


def _tested(test: Callable[[float, float], bool], a: float | None, b: float | None) -> float | None:
    """The 0/1 a comparison gives on padded lanes, where both sides are known there."""
    if a is None or b is None:
        return None
    return 1.0 if test(float(a), float(b)) else 0.0


def _boolean(v: Val) -> bool:
    return isinstance(v.expr, sy.Sym) and v.expr.name in ("True", "False")


def _walks_tail(stop: Val | None, step: Val | None, start: Val | None) -> bool:
    """The loop runs the partial tile, with either branch of a conditional stop
    (``i_end = min(cdiv(T, BS) * BS, …) if USE_WINDOW else cdiv(T, BS) * BS``), or from the last
    tile down (``range(NT - 1, -1, -1)``)."""
    if stop is None:
        return False
    stops = [b.expr for b in stop.extra.get("branches", ())] or [stop.expr]
    if any(_runs_partial_tile(e, step, start) for e in stops):
        return True
    if step is None or step.expr is None or start is None or start.expr is None:
        return False
    return _falling(step) and any(t.coeff > 0 and any(isinstance(f, sy.Call) and f.fn == "cdiv" for f in t.factors)
                           for t in sy.expand(start.expr))


def _falling(step: Val | None) -> bool:
    """A negative step (``-1``, ``-BT``): the loop walks its tiles downwards."""
    if step is None or step.expr is None:
        return False
    terms = sy.expand(step.expr)
    return sy.constant(terms) < 0 or any(t.coeff < 0 for t in sy.variable(terms))


def _tile_walk(stop: sy.Expr, step: Val | None) -> TileWalk | None:
    """The extent the loop walks tile by tile: its stop, or, for a count of tiles, an operand of a
    ``min`` there (``range(first, min(last, cdiv(n, B)))`` stops at the partial tile when n does)."""
    if step is not None:
        return sy.tile_walk(stop, step.expr)
    return next((w for e in _min_operands(stop) if (w := sy.tile_walk(e)) is not None), None)


def _min_operands(e: sy.Expr) -> list[sy.Expr]:
    """``e`` and, through ``min(…)``, each operand: ``min(T // BS * BS, end)`` stops at the floor
    whenever the extent is the smaller."""
    if isinstance(e, sy.Call) and e.fn == "min":
        return [e, *(x for a in e.args for x in _min_operands(a))]
    return [e]


def _runs_partial_tile(stop: sy.Expr | None, step: Val | None, start: Val | None) -> bool:
    """The last iteration may be the partial tile: a ceiling trip count (``range(cdiv(n, B))``, also
    as a bound of a ``min``), a range stepped by the tile from 0 up to an extent (``range(0, n, B)``),
    up to a stop clamped to one (``range(i * BT, min((i + 1) * BT, T), BS)``) or rounded up from one
    (``cdiv(T, BS) * BS``), or up to the end of the program's own tile (``range(i * BT, (i + 1) * BT,
    BS)``: partial in the last program). ``range(B, n, B)`` from a later start may walk the tiles in
    reverse, away from the tail (``prev_multiple - s``)."""
    if stop is None:
        return False
    if step is None:
        if isinstance(stop, sy.Call) and stop.fn == "min":  # range(a, min(first_safe, cdiv(T, BT)))
            return any(isinstance(e, sy.Call) and e.fn == "cdiv" and (_runtime_extent(e.args[0]) or _remaining_extent(e.args[0]))
                       for e in stop.args)
        return isinstance(stop, sy.Call) and stop.fn == "cdiv"
    at_zero = start is not None and isinstance(start.expr, sy.Num) and start.expr.value == 0
    if at_zero and isinstance(stop, sy.Sym) and stop.kind is sy.Kind.EXTENT:
        return True
    ends = list(stop.args) if isinstance(stop, sy.Call) and stop.fn == "min" else [stop]
    if any(_runtime_extent(e) or _rounded_up(e) for e in ends) and (len(ends) > 1 or _rounded_up(stop)):
        return True
    terms = sy.variable(sy.expand(stop))
    moving = [t for t in terms if any(sy.kinds(f) & {sy.Kind.PROGRAM, sy.Kind.LOOP} for f in t.factors)]
    return bool(moving) and all(t.coeff > 0 for t in terms) and len(moving) < len(terms)


def _remaining_extent(e: sy.Expr) -> bool:
    """``T - i_t * BT``: what is left of a runtime extent past a position (a program or loop
    offset, or a chunk index read from memory). ``min(NC, cdiv(T - i_t * BT, BC))`` sub-tiles stop
    at the partial one in the last chunk."""
    positions, extents = [], []
    for t in sy.collect(sy.variable(sy.expand(e))):
        kinds = set().union(*(sy.kinds(f) for f in t.factors))
        loaded = any(sy.is_loaded(s) for f in t.factors for s in sy.syms(f))
        positions.append(t.coeff < 0 and (bool(kinds & {sy.Kind.PROGRAM, sy.Kind.LOOP}) or loaded))
        extents.append(t.coeff > 0 and not loaded and not kinds & {sy.Kind.PROGRAM, sy.Kind.LOOP, sy.Kind.LANE}
                       and bool(kinds & {sy.Kind.EXTENT, sy.Kind.OTHER}))
    return any(positions) and any(extents) and all(p or x for p, x in zip(positions, extents))


def _rounded_up(e: sy.Expr) -> bool:
    """``cdiv(T, BS) * BS``: the extent rounded up to whole tiles, whose last tile is the partial one."""
    terms = sy.expand(e)
    return all(t.coeff > 0 for t in terms) and any(
        isinstance(f, sy.Call) and f.fn == "cdiv" for t in terms for f in t.factors)


def _runtime_extent(e: sy.Expr) -> bool:
    """A length known at run time (``T``, ``eos - bos`` from loaded offsets), not a position counted
    in tiles (``i_t * BT`` with a loaded chunk index ``i_t``)."""
    ks = sy.kinds(e)
    if not ks & {sy.Kind.EXTENT, sy.Kind.OTHER} or ks & {sy.Kind.PROGRAM, sy.Kind.LOOP, sy.Kind.LANE}:
        return False
    return not all(any(sy.kinds(f) == {sy.Kind.CONST} for f in t.factors) for t in sy.variable(sy.expand(e)))


def _chunk_offset(factors: list[sy.Expr], grouped: frozenset[str], programs: set[str]) -> bool:
    """``i_t * BT``: a chunk index split from the program id the loop's sub-tile bound is split
    from (``i_t, i_i = i_c // NC, i_c % NC``), times compile-time sizes, not already part of the
    dimension's offset; not a head or batch offset from another program id."""
    chunk = {s.name for f in factors for s in sy.syms(f) if s.kind is sy.Kind.PROGRAM}
    kinds = set().union(*(sy.kinds(f) for f in factors)) if factors else set()
    return bool(chunk & programs) and kinds <= {sy.Kind.PROGRAM, sy.Kind.CONST} and not chunk & grouped \
        and any(sy.kinds(f) == {sy.Kind.CONST} for f in factors)


def _own_subtile(start: Val | None, stop: sy.Expr | None, step: Val | None) -> sy.Expr | None:
    """The program-derived bound of a loop that counts sub-tiles up to the program's own
    (``range(0, i_i)``) or from it (``range(i_i + 1, NC)``): no step, and one end a program value."""
    if step is not None or stop is None or start is None or start.expr is None:
        return None
    if sy.Kind.PROGRAM in sy.kinds(stop) and isinstance(start.expr, sy.Num) and start.expr.value == 0:
        return stop
    if sy.Kind.PROGRAM in sy.kinds(start.expr) and not sy.kinds(stop) & {sy.Kind.PROGRAM, sy.Kind.LOOP}:
        return start.expr
    return None


def _below_own_tile(stop: sy.Expr | None, step: Val | None, start: Val | None) -> bool:
    """``range(0, i_t * BT, BS)``: tiles stepped up to the start of the program's own tile, which
    lies inside the extent; they are all full (the keys before a query block). So are the tiles
    counted up to the program's own (``range(0, i_i)``: the sub-chunks before this one), and those
    walked down from just below it (``range(i_t * BT - BS, -BS, -BS)``, ``i_t`` a program id or a
    chunk index read from memory): a falling loop's stop says nothing of its tiles, its start does."""
    if _falling(step):
        if start is None or start.expr is None or step is None or step.expr is None:
            return False
        top = sy.Bin("-", start.expr, step.expr)  # where the first tile ends
        return _at_own_tile(top, {sy.Kind.PROGRAM}, loaded=True)
    return stop is not None and _at_own_tile(stop, {sy.Kind.PROGRAM})


def _at_own_tile(end: sy.Expr, kinds: set[sy.Kind], loaded: bool = False) -> bool:
    """``end`` is at most the start of the program's own tile: a sum of positive multiples of
    program ids (or chunk indices read from memory) and sizes, less a constant. Each factor is a
    name: a program id inside a call or a quotient (``min(cdiv(n, B), cdiv((pid + 1) * M, B))``)
    can stand for the end of the program's tile, or past it."""
    terms = sy.collect(sy.expand(end))
    moving = sy.variable(terms)

    def index(f: sy.Expr) -> bool:
        return loaded and sy.is_loaded(f)

    return bool(moving) and sy.constant(terms) <= 0 and all(
        t.coeff > 0 and any(sy.kinds(f) & kinds or index(f) for f in t.factors)
        and all(isinstance(f, sy.Sym) and sy.kinds(f) <= {*kinds, sy.Kind.CONST} or index(f) for f in t.factors)
        for t in moving)


def _compile_time_extent(e: sy.Expr) -> sy.Expr:
    """``V // BV`` with the compile-time V read as the extent it is at each launch."""
    if isinstance(e, sy.Bin) and e.op == "//":
        return sy.Bin("//", _as_extent(e.left), e.right)
    return e


def _as_extent(e: sy.Expr) -> sy.Expr:
    match e:
        case sy.Sym(name=name, kind=sy.Kind.CONST):
            return sy.Sym(name, sy.Kind.EXTENT)
        case sy.Bin(op=op, left=left, right=right):
            return sy.Bin(op, _as_extent(left), _as_extent(right))
    return e


def _stops_before_tail(stop: sy.Expr | None, step: Val | None = None) -> bool:
    """``cdiv(K, B) - 1`` tiles, or ``cdiv(K, B) * B - B`` elements: every tile is full. Not where
    the loop walks down (``range(cdiv(n, B) - 1, cdiv(s, B) - 1, -1)``): its stop is the lowest tile."""
    if stop is None or _falling(step):
        return False
    terms = sy.expand(stop)
    has_cdiv = any(isinstance(f, sy.Call) and f.fn == "cdiv" for t in terms for f in t.factors)
    return has_cdiv and (sy.constant(terms) < 0 or any(t.coeff < 0 for t in sy.variable(terms)))


def _strided_dimension(shape: list[str] | None, tensor: str | None, stride: list[str]) -> str | None:
    """The size of the dimension of ``tensor`` (of ``shape``) whose stride the launch passes as the
    lane's one stride (``x.stride(3)``, ``x.stride(-1)``)."""
    if shape is None or tensor is None or len(stride) != 1:
        return None
    m = re.fullmatch(re.escape(tensor) + r"\.stride\((-?\d+)\)", stride[0].replace(" ", ""))
    if m is None or not -len(shape) <= int(m.group(1)) < len(shape):
        return None
    return shape[int(m.group(1))]


def _multiple(size: str, tile: str) -> bool:
    """``size`` is ``tile``, a product with ``tile`` among its factors (``2 * C``), or both are
    literals and the tile divides it (:func:`_sizes_multiple`)."""
    return _sizes_multiple([size], 1, [tile])


def _product(xs: list[str]) -> str:
    """Sizes multiplied, as :func:`_multiple` compares them: a number where all are literals."""
    xs = [x for x in xs if x != "1"]
    if all(x.isdigit() for x in xs):
        return str(math.prod(int(x) for x in xs))
    return " * ".join(sorted(xs))


def _spanned_dimension(shape: list[str], stride: list[str], tile: str) -> int | None:
    """The dimension of a contiguous ``shape`` that has ``stride`` (the product of the sizes after
    it) and a size that is a multiple of ``tile``; sizes compare as integers where all are literals."""
    want = _product(stride)
    for i, size in enumerate(shape):
        if _product(shape[i + 1:]) == want and _multiple(size, tile):
            return i
    return None


def _rows_of(index: sy.Expr, buffer: str, part: sy.DimPart, values: dict[str, str], shape: list[str], at: int,
             tile: str, stride: list[str], tensor: str) -> bool:
    """Every term of ``index`` outside the lane and its tile offset that steps by a multiple of the
    lane's ``stride`` (not an offset of an inner dimension, ``i_v * BV`` under ``arange(0, M) *
    V``) steps by a multiple of ``row`` (the allocation's sizes from the lane's dimension inward)
    or of a tile (a whole tile inside that dimension, ``C * K`` into rows of ``2 * C``), in host
    values: a term stepping by another size (``off_hb * seqlen``) walks rows of another length
    than the allocation's. The tensor's own stride of an outer dimension (``ws.stride(0)``, passed
    as ``stride_b``; ``tensor``: the host name it is given as) is the product of the sizes after it."""
    row = shape[at:]

    def size_of(text: str) -> list[str]:
        m = re.fullmatch(rf"{re.escape(tensor)}\.stride\((-?\d+)\)", text)
        j = int(m.group(1)) % len(shape) if m else None
        return shape[j + 1:] if j is not None and j < at else [text]

    for t in sy.expand(index):
        names = {s.name for f in t.factors for s in sy.syms(f)}
        if any(sy.lanes(f) for f in t.factors) or names & part.offset_syms or names == {buffer} \
                or not any(sy.kinds(f) & {sy.Kind.PROGRAM, sy.Kind.LOOP} for f in t.factors):
            continue  # the lane, its tile offset, the buffer, or no step of a program or loop index
        sizes = [size for f in t.factors if not sy.kinds(f) & {sy.Kind.PROGRAM, sy.Kind.LOOP}
                 for size in size_of(values.get(sy.render(f), sy.render(f)))]
        coeff = abs(int(t.coeff)) if float(t.coeff).is_integer() else 0
        if not sizes or not _sizes_multiple(sizes, coeff, stride):
            continue
        if not _sizes_multiple(sizes, coeff, row) and not _sizes_multiple(sizes, coeff, [tile, *stride]):
            return False
    return True


def _sizes_multiple(sizes: list[str], coeff: int, unit: list[str]) -> bool:
    """``coeff`` times the product of ``sizes`` is a multiple of the product of ``unit``: every
    factor of the unit is one of the sizes' (as written, :func:`_factors`), the literals aside,
    whose product must divide the sizes' literals'."""
    have = [f for s in sizes for f in _factors(s)]
    number = coeff * math.prod(int(f) for f in have if f.isdigit())
    need = 1
    for f in (f for u in unit for f in _factors(u)):
        if f.isdigit():
            need *= int(f)
        elif f in have:
            have.remove(f)
        else:
            return False
    return number > 0 and need > 0 and number % need == 0


def _factors(text: str) -> list[str]:
    """The factors a rendered size multiplies, split at its top level (``(a * b + c) * C`` has two);
    a parenthesised product is opened (``(H * D)`` is H and D). A text that adds, subtracts,
    divides or takes a remainder at its top level is one factor (``a * b / c`` is no multiple of a)."""
    if _not_a_product(text):
        return [text.strip()]
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
        if ch == "*" and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    factors = []
    for f in (f.strip() for f in out):
        opened = f.startswith("(") and f.endswith(")") and _closes_at_end(f)
        factors += _factors(f[1:-1]) if opened else [f]
    return factors


def _closes_at_end(text: str) -> bool:
    """The opening parenthesis of ``text`` is closed by its last character."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "(" and 1 or ch == ")" and -1 or 0
        if depth == 0:
            return i == len(text) - 1
    return False


def _not_a_product(text: str) -> bool:
    """``text`` adds, subtracts, divides or takes a remainder at its top level."""
    depth = 0
    for ch in text:
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
        if depth == 0 and ch in "+-/%":
            return True
    return False


def _start_floors(e: sy.Expr) -> list[sy.Expr]:
    """Where a loop starting at ``e`` may start, as floors to test: ``e``, through ``max(…)`` each
    operand, and the floor of a ``n // B * B`` term: a loop from ``max(a, n // B)`` or ``n // B * B +
    t`` covers the tail past ``n // B`` whenever it starts there."""
    if isinstance(e, sy.Call) and e.fn == "max":
        return [e, *(x for a in e.args for x in _start_floors(a))]
    # `range(n // v * v + t, n, T)`: a loop from where the whole vectors end, plus a lane's offset
    return [e, *(f for t in sy.variable(sy.expand(e)) if len(t.factors) == 2 for f, g in (t.factors, t.factors[::-1])
                 if isinstance(f, sy.Bin) and f.op == "//" and sy.render(f.right) == sy.render(g))]


def _own_tile_bounds(c: Comparison) -> list[Bound]:
    """``o_i < BT`` with ``o_i = arange(0, BT)``: true on every lane. In a mask of nothing else
    the author means that dimension holds exactly one tile (a row of BT per sequence), so it bounds
    that lane, on its axis, by construction, and no other dimension. Beside a real bound it is
    vacuous (``o_i < BC`` under a sub-chunk column ``i_i * BC + o_i``) and is not read."""
    if not sy.always_true(c.left, c.op, c.right):
        return []
    side, limit = (c.left, c.right) if sy.lanes(c.left) else (c.right, c.left)
    return [Bound(name, sy.render(side), "<", sy.render(limit), True, c.span, wrap=True, axis=axis)
            for name, axis in sorted(sy.lanes(side), key=str)]


def _common_shift(bound_offset: int, access_shift: int) -> int:
    """The part of a bound's constant lane offset that the access's index carries too (same sign)."""
    if bound_offset < 0 and access_shift < 0:
        return max(bound_offset, access_shift)
    if bound_offset > 0 and access_shift > 0:
        return min(bound_offset, access_shift)
    return 0


def _masked_by(conds: tuple[Comparison, ...], found: list[Bound], dims: tuple[Dim, ...]) -> tuple[Bound, ...]:
    """The mask's bounds on no lane dimension of the index (``Access.masked_by``): lane bounds on a
    lane the index does not hold, tests true on every lane (``o_i < BT``, found as wraps), and
    scalar bounds."""
    sources = {d.source for d in dims}
    lanes = [b for b in found if b.wrap or b.source not in sources]
    return (*lanes, *(b for c in conds if (b := _scalar_bound(c)) is not None))


def _tile_rows(conds: tuple[Comparison, ...], parts: list[sy.DimPart], index: sy.Expr, span: Span) -> list[Bound]:
    """``s * D + arange(0, D)`` under ``s < S``: the lanes are a row of exactly their tile's width
    and the mask bounds the row, so no lane leaves the ``S * D`` elements it reaches (a row pitch
    other than the tile, ``row * stride + cols`` or ``row * N + cols``, leaves the columns to their
    own bound)."""
    rows = [c.left if c.op == "<" else c.right for c in conds if c.op in ("<", ">") and _scalar_bound(c) is not None]
    if not rows:
        return []
    terms = sy.collect(sy.expand(index))
    out = []
    for p in parts:
        tile = p.dim.tile
        if p.intrinsic is not None or p.stride or tile is None or tile.isdigit():
            continue
        # the index's row part, every term that steps by the tile, is a bounded row times it
        steps = {sy.terms_text([t]) for t in terms
                 if not any(sy.lanes(f) for f in t.factors) and any(sy.render(f) == tile for f in t.factors)}
        if steps and any(steps == {sy.terms_text([t]) for t in sy.collect(sy.expand(
                sy.Bin("*", row, sy.Sym(tile, sy.Kind.CONST))))} for row in rows):
            out.append(Bound(p.dim.source, p.dim.label, "<", f"rows of {tile}", True, span, wrap=True, axis=p.dim.axis))
    return out


def _scalar_bound(c: Comparison) -> Bound | None:
    """``j < max_j`` (or ``max_j > j``) on no lane: a bound on a scalar row or column of the access,
    beside or instead of its lane bounds. ``0 < n`` and ``j < 4`` compare no position with a size."""
    if _has_lanes(c) or c.op not in ("<", "<=", ">", ">="):
        return None
    flip = c.op in (">", ">=")
    index, limit = (c.right, c.left) if flip else (c.left, c.right)
    if not sy.variable(sy.expand(index)) or not sy.variable(sy.expand(limit)):
        return None
    index_text, limit_text = (c.right_text, c.left_text) if flip else (c.left_text, c.right_text)
    return Bound(None, index_text or sy.render(index), "<=" if c.op in ("<=", ">=") else "<",
                 limit_text or sy.render(limit), False, c.span)


def _distance(step: Val) -> Val:
    """A carried step chosen by a compile-time direction (``i_t += 1 if not REVERSE else -1``) as
    the distance it moves: either way the walk visits every tile once, the last one included."""
    arms = [sy.expand(a.expr) for a in step.extra.get("branches", ()) if a.expr is not None]
    sizes = {abs(sy.constant(t)) for t in arms if not sy.variable(t)}
    return Val(expr=sy.Num(sizes.pop())) if len(arms) == 2 and len(sizes) == 1 else step


def _loop_rows(index: sy.Expr, parts: list[sy.DimPart], loops: dict[str, Loop]) -> tuple[tuple[str, Loop], ...]:
    """Loop variables the index steps by outside its lane terms and their tile offsets: a row per
    iteration (``(i_t * BT + j) * K + o_k`` in ``for j in range(BC)``)."""
    offsets = {s for p in parts for s in p.offset_syms}
    names = sorted({s.name for t in sy.variable(sy.expand(index)) if not any(sy.lanes(f) for f in t.factors)
                    for f in t.factors for s in sy.syms(f)
                    if s.kind is sy.Kind.LOOP and s.name in loops and s.name not in offsets})
    return tuple((name, loops[name]) for name in names)


def _row_tests(conds: tuple[Comparison, ...], loops: dict[str, Loop],
               stops: dict[str, str]) -> tuple[tuple[str, Bound], ...]:
    """The mask's scalar bounds on a loop variable itself (``j < max_j``), by that variable. A test
    of an expression of it (``i_t * BT + j < T``, ``pid + j * n < m``) says what the author bounds
    less plainly: the row may be a column of another buffer, or a tile in bounds by construction.
    A test its own loop makes true (``t < seqlen`` in ``for t in range(seqlen)``) bounds nothing:
    it says no row of that loop can pass the extent, so it makes no row dimension of any access."""
    out = []
    for c in conds:
        bound = _scalar_bound(c)
        index, limit = (c.right, c.left) if c.op in (">", ">=") else (c.left, c.right)
        if bound is not None and isinstance(index, sy.Sym) and index.kind is sy.Kind.LOOP and index.name in loops \
                and not (bound.op == "<" and sy.render(limit) == stops.get(index.name)):
            out.append((index.name, bound))
    return tuple(out)


def _tail_starts(index: sy.Expr, span: Span) -> set[tuple[str, str]]:
    """``(n // B) * B + arange(0, B)`` under a mask: the tile a loop of ``n // B`` whole tiles
    leaves, handled here, outside any loop over it (the loop's BC301 is no skipped tail)."""
    out: set[tuple[str, str]] = set()
    if sy.Kind.LOOP in sy.kinds(index):
        return out  # a loop's own walk from a floored start (`range((T // BT) * BT - BT, -BT, -BT)`)
    for t in sy.expand(index):
        if any(sy.lanes(f) for f in t.factors):
            continue
        rendered = [sy.render(f) for f in t.factors]
        for f in t.factors:
            div = sy.floor_division(f, span)
            if div is not None and rendered.count(div.tile) >= 1:
                out.add((div.extent, div.tile))
    return out


def _all_true(v: Val) -> bool:
    """A mask true on every lane: ``True``, ``1``, ``tl.full(shape, 1, tl.int1)``."""
    return not v.conds and (v.number == 1.0 or isinstance(v.expr, sy.Sym) and v.expr.name == "True")


def _lower_bound(c: Comparison) -> bool:
    """``lane > k`` or ``lane >= k`` (``k`` no lane): bounds the lane from below only."""
    index, op, limit = sy.upper_form(c.left, c.op, c.right)
    return op in (">", ">=") and bool(sy.lanes(index)) and not sy.lanes(limit)


def _exact_floor(div: FloorDiv, facts: list[Divisibility]) -> bool:
    """A fact on the path divides the floor's extent by its own tile (``if K % B == 0:`` around
    ``range(K // B)``); a remainder by another size (``K % 2``) says nothing of it."""
    return any(f.extent == div.extent and f.tile == div.tile and not (f.pitch or f.between_sizes or f.spans)
               for f in facts)


def _ascending_upper(c: Comparison) -> bool:
    """``lane < k`` with every lane term rising (``pid * B + arange(0, B) < n``), or no lane at
    all: the lanes it leaves out come after those it keeps, along every axis."""
    index, op, limit = sy.upper_form(c.left, c.op, c.right)
    if not sy.lanes(index):
        return not sy.lanes(limit)
    return op in ("<", "<=") and not sy.lanes(limit) \
        and all(t.coeff > 0 for t in sy.expand(index) if any(sy.lanes(f) for f in t.factors))


def _forward(rest: list[ast.expr], kw: dict[str, ast.expr]) -> bool:
    """A scan's ``reverse`` argument (``cumsum(x, axis, reverse)``) is absent or literally False."""
    flag = kw.get("reverse") or (rest[1] if len(rest) > 1 else None)
    return flag is None or isinstance(flag, ast.Constant) and flag.value is False


def _has_lanes(c: Comparison) -> bool:
    return bool(sy.lanes(c.left) or sy.lanes(c.right))


def _based(expr: sy.Expr) -> bool:
    """The address has a unit term that is a plain parameter or value (a pointer, ``p = x + offs``)."""
    return any(len(t.factors) == 1 and t.coeff == 1 and isinstance(t.factors[0], sy.Sym)
               and t.factors[0].kind in (sy.Kind.EXTENT, sy.Kind.OTHER) for t in sy.expand(expr))


def _kept(name: str, value: Val, sizes: dict[int, tuple[sy.Expr, int]]) -> Val:
    """``value`` as a name holds it: each flow once, and an index too large as a tree to be one
    (``o = o + o * 0`` over and over doubles it at every step, and every reading of it would
    walk that tree) replaced by the name itself. ``sizes``: the kernel's tree sizes so far."""
    flows = tuple(dict.fromkeys(value.flows)) if len(value.flows) > 1 else value.flows
    if value.expr is not None and sy.oversized(value.expr, sizes):
        return replace(value, expr=sy.Sym(name, sy.Kind.OTHER), flows=flows)
    return replace(value, flows=flows) if len(flows) != len(value.flows) else value


def _offset_text(expr: sy.Expr, buffer: str) -> str:
    """A flat address less its buffer term: what two accesses at the same offsets share."""
    return sy.terms_text([t for t in sy.expand(expr)
                          if not (len(t.factors) == 1 and t.coeff == 1 and sy.render(t.factors[0]) == buffer)])


def _buffer(expr: sy.Expr) -> str:
    """The pointer a flat address starts from: the unit term that is a plain parameter."""
    for t in sy.expand(expr):
        if len(t.factors) == 1 and t.coeff == 1 and isinstance(t.factors[0], sy.Sym) \
                and t.factors[0].kind in (sy.Kind.EXTENT, sy.Kind.OTHER):
            return t.factors[0].name
    return sy.render(expr)
