"""One ``__global__`` function → :class:`~boundcheck.model.Kernel`.

Walks statements in order, keeping local definitions (``Scope``), the guards that dominate the
current point (enclosing ``if``s, ternaries, loop conditions, earlier early exits), and which
reads flow into which locals and shared arrays, so that reductions can be attributed to the reads
(and guarded shared stores) whose padding they receive.

Vector accesses: an access through a pointer reinterpreted as a W-wide type (``float4`` over
``float``) has ``width`` W and its index in elements of the scalar buffer (``W * i``). A guard that
compares the vector index with a limit in vector units (``i < n / 4``, ``i < n >> 2``) keeps the
whole vector in bounds, so its bound is recorded with ``lane_offset`` W - 1; any other guard is
taken as written (``4 * i < n`` checks the first lane only, which is what BC106 reports).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace

import clang.cindex as ci

from boundcheck.coverage import covers
from boundcheck.frontends.cuda_accessors import accessor_rank, element
from boundcheck.frontends.cuda_barriers import BARRIERS, Barriers
from boundcheck.frontends.cuda_divmod import recombined
from boundcheck.frontends.cuda_expr import (
    Converter,
    Scope,
    callee,
    children,
    const_value,
    initializer,
    is_integer,
    params,
    pointer_typed,
    reads_memory,
    returned_expr,
    split_quotient,
    strip,
    written_variable,
)
from boundcheck.frontends.cuda_groups import Group, counted, group_of, reach, term_value
from boundcheck.frontends.cuda_helpers import Helpers
from boundcheck.frontends.cuda_joint import joint_positions, joint_tiled
from boundcheck.frontends.cuda_list_ends import inclusive_ends
from boundcheck.frontends.cuda_parse import (
    COMPARISONS,
    Source,
    arguments,
    binary_op,
    child_list,
    deref_operand,
    evaluate,
    first,
    is_device,
    last,
    operator_call,
    placed_at_call,
    preorder,
    unary_op,
)
from boundcheck.frontends.cuda_slots import Slot, thread_slots
from boundcheck.model import (
    UNKNOWN_PADDING,
    Access,
    AccessKind,
    Bound,
    Dim,
    Divisibility,
    Exit,
    FloorDiv,
    Kernel,
    Language,
    Loop,
    Padding,
    Reduction,
    Space,
    Span,
    Tiling,
    Use,
    Walk,
)
from boundcheck.prose import C_COMMENT, comment_text, stated_multiples
from boundcheck.symbolic import (
    FLIP,
    Bin,
    Call,
    Comparison,
    DimPart,
    Expr,
    Kind,
    Num,
    Sym,
    Term,
    collect,
    comparison_bounds,
    constant,
    dims_of,
    expand,
    floor_division,
    kinds,
    lanes,
    lanes_cancelled,
    offset_factors,
    oversized,
    render,
    scalar_tests,
    substitute,
    syms,
    terms_text,
    tile_factors,
    tile_test_bounds,
    tile_walk,
    upper_form,
    variable,
    whole_multiple,
)

K = ci.CursorKind
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_MAX = {"fmaxf", "fmax", "max", "umax", "__hmax", "atomicMax"}
_MIN = {"fminf", "fmin", "min", "umin", "__hmin", "atomicMin"}
_EXP = {"expf", "__expf", "exp", "exp2f", "hexp"}
# functions whose every value is >= 0: `amax = fabsf(x[i])` under a guard, 0 past it, feeds a max
# in which the 0 is below (or equal to) every valid lane
_NONNEG = {"fabsf", "fabs", "abs", "__habs", "sqrtf", "sqrt", "__fsqrt_rn", *_EXP}
_ATOMICS = {"atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch", "atomicCAS", "atomicAnd",
            "atomicOr", "atomicXor", "atomicInc", "atomicDec"}
_ASSUME = re.compile(r"//\s*boundcheck:\s*assume\s+(.*)")
_DIVISIBLE = re.compile(r"([A-Za-z_][\w.]*)\s*%\s*([A-Za-z_0-9][\w.]*)\s*==\s*0")
_GROUP_OP = re.compile(r"^(?:\w+::)*(greater|less|plus)\b")
_GROUP_OPS = {"greater": Reduction.MAX, "less": Reduction.MIN, "plus": Reduction.SUM}


@dataclass
class Ref:
    """Where a pointer expression points: buffer, element offset, element sizes in bytes."""

    buffer: str
    space: Space
    offset: Expr
    scalar: int
    size: int
    # cast to a pointer of a size libclang cannot give (a template's open vector type): its first
    # element is where it points, but a step from there is in units nobody knows
    open_width: bool = False

    @property
    def width(self) -> int:
        return max(self.size // self.scalar, 1) if self.scalar > 0 and self.size > 0 else 1


@dataclass(frozen=True)
class Guard:
    bound: Bound
    atom: Comparison
    boundary: bool  # the limit is a runtime extent (not a loop variable or a literal)
    exit: bool = False  # from an early exit: threads that fail it are gone (BC303's concern)
    stride: bool = False  # a block / grid-stride loop's condition: its stores cover [start, limit)
    grid_stride: bool = False  # ... of a loop stepping by gridDim: any grid covers [start, limit)
    split: bool = False  # a block-local index against a compile-time size: a work split, or a row
    row: bool = False  # ... against a literal (`tid < 64`): only ever a row's length (see _literal_rows)

    @property
    def sides(self) -> tuple[Expr, Expr]:
        """(the guarded index, its limit): the side of the comparison that holds the lanes first."""
        a = self.atom
        return (a.left, a.right) if lanes(a.left) else (a.right, a.left)

    @property
    def divergent(self) -> bool:
        """Threads of one block can fall on both sides: the limit is a runtime extent, or a value
        the block read from memory (``start >= rows`` with ``rows = offs[b + 1] - offs[b]``)."""
        limit = self.sides[1]
        return self.boundary or not self.split and Kind.LOOP not in kinds(limit) and reads_memory(limit)


@dataclass
class Rec:
    kind: AccessKind
    buffer: str
    span: Span
    space: Space
    index: Expr
    width: int
    guards: tuple[Guard, ...]
    text: str
    padding: Padding | None = None
    uses: list[tuple[Reduction, Span, tuple[str, ...]]] = field(default_factory=list)
    within: tuple[Walk, ...] = ()  # the loops it is made in (see ``Access.within``)
    equal: tuple[tuple[Expr, Expr], ...] = ()  # the equality tests it is made under (``State.equal``)
    tile_tests: tuple[Comparison, ...] = ()  # the scalar tile tests it is made under (``State.tile_tests``)
    nonneg: bool = False  # its value is kept only through a function that is never negative (`fabsf(x[i])`)
    calls: tuple[Span, ...] = ()  # the helper calls it is made through (see ``Access.calls``)


@dataclass
class State:
    scope: Scope
    guards: tuple[Guard, ...] = ()
    ptrs: dict[str, Ref] = field(default_factory=dict)
    taint: dict[str, frozenset[int]] = field(default_factory=dict)
    edges: bool = False  # under a lower-edge test of a global index (`if (gx >= 0)`, a left halo)
    # (index, value) of the equality tests that hold here (`if (i == n)`): where a write is made
    equal: tuple[tuple[Expr, Expr], ...] = ()
    # scalar tests of tile offsets that hold here (`if (base + 128 <= n)`, a whole tile's fast path)
    tile_tests: tuple[Comparison, ...] = ()

    def copy(self) -> State:
        return State(self.scope.copy(), self.guards, dict(self.ptrs), dict(self.taint), self.edges, self.equal,
                     self.tile_tests)


def _size(t: ci.Type) -> int:
    return max(t.get_size(), 0)  # libclang answers errors (incomplete, dependent) with negatives


def _as_parameter(ref: Ref, param: ci.Cursor) -> Ref:
    """A caller's pointer bound to a helper's pointer parameter: a buffer of a template's open type
    is read as the helper's own element type (``copy_vector<__half, 4>(dst, src)`` moves halves)."""
    known = ref.scalar or _size(param.type.get_canonical().get_pointee())
    return replace(ref, scalar=known, size=ref.size or known)


class KernelBuilder:
    def __init__(self, fn: ci.Cursor, src: Source, macros: set[str], helpers: Helpers,
                 file_contracts: list[Divisibility]) -> None:
        self.fn, self.src = fn, src
        self.conv = Converter(src, macros, helpers)
        self.conv.on_subscript = self._on_access
        self.conv.on_conditional = self._on_conditional
        self.conv.on_helper_call = self._on_helper_call
        self.conv.on_helper_scope = self._on_helper_scope
        self.conv.method_of = self._view_method
        self.conv.on_opaque_call = self._on_opaque_call
        self.helpers = helpers
        self.kernel = Kernel(fn.spelling, Language.CUDA, src.span(fn), contracts=list(file_contracts))
        self.recs: list[Rec] = []
        self.state = State(Scope())
        self.cur = self.state
        self.shared: set[str] = set()
        # view objects (`MatrixView x_(x, rows, cols)`): local → (pointer fields, integer fields),
        # as the constructor's member initializers set them from its arguments
        self.views: dict[str, tuple[dict[str, Ref], dict[str, Expr]]] = {}
        self.filled: dict[str, float | None] = {}  # shared array → value of an unconditional fill
        self.fill_loops: dict[str, tuple[tuple[str, Loop], ...]] = {}  # ... and the loops its index walks
        self.loops: dict[str, Loop] = {}
        self.carried_in: list[tuple[str, int]] = []  # (name, position in kernel.loops) a loop advances
        self.counts_up: dict[str, bool] = {}  # loop counter → every loop of that name counts up from 0
        # (loop counter, loop header) -> (its multiple k in the loop's index, the stop of k *
        # counter, "<" or "<="), for counters from a constant start by a constant step
        # (cuda_fixed_rows reads them): a name reused by several loops has each one's range
        self.loop_ranges_at: dict[tuple[str, Span], tuple[int, Expr, str]] = {}
        self.logs: list[dict[str, tuple[str, object]]] = [{}]
        self.write_target: ci.Cursor | None = None
        self.compound = False
        self.exits: list[tuple[int, int, Exit]] = []  # (offset, region end, exit)
        # an exit's lanes, where they enter its test only as quotients: the least divisor by axis
        self.exit_quotients: dict[Span, dict[str, int]] = {}
        self.inline_depth = 0
        self.inlined: set[int] = set()  # records made in the body of a helper called for its value
        self.grid_stride = False  # every tiled global access is inside a grid-stride loop
        self.grid_stride_axes: set[str] = set()  # the grid axes some loop strides by (`idx += gridDim.y * B`)
        self.open_loops: list[Walk] = []  # the loops being walked, outermost first
        self.walks = itertools.count()  # numbers each walk of a loop body, the helpers' too
        self.grid_starts: set[str] = set()  # the thread's global ids grid-stride loops start at
        self.slots: list[Slot] = []  # unguarded accesses one slot per launched thread would hold
        self.has_barrier = False  # the body holds a __syncthreads()
        self.sizes: dict[int, tuple[Expr, int]] = {}  # tree sizes of bound values (symbolic.oversized)
        self.handed: list[tuple[int, Expr]] = []  # (line, offset) of pointers passed to opaque calls
        self.split_rows: set[str] = set()  # warp rows a local splits by a runtime size (`row % T`)
        self.compared_rows: set[str] = set()  # warp rows a condition compares with their block offset
        self.joint: set[tuple[str, str, str]] = set()  # `i * Br + threadIdx.x` compared as one position
        # the accesses again with the global warp rows that nothing bounds kept: what they are under
        # a launch whose grid rounds the rows up to whole blocks (see cuda.py)
        self.ceiling_accesses: list[Access] | None = None

    # --- entry --------------------------------------------------------------------------------
    @property
    def loop_ranges(self) -> dict[str, tuple[int, Expr, str]]:
        """The counted loops by counter alone (the last loop of a reused name)."""
        return {name: rng for (name, _), rng in self.loop_ranges_at.items()}

    def build(self) -> Kernel:
        scope = self.state.scope
        for p in params(self.fn):
            t = p.type.get_canonical()
            if t.kind == ci.TypeKind.POINTER:
                size = _size(t.get_pointee())
                self.state.ptrs[p.spelling] = Ref(p.spelling, Space.GLOBAL, Num(0), size, size)
                scope.kinds[p.spelling] = Kind.OTHER
            elif is_integer(p):
                scope.kinds[p.spelling] = Kind.EXTENT
            else:
                scope.kinds[p.spelling] = Kind.OTHER
                self.conv.accessors = self.conv.accessors or accessor_rank(p.type) is not None
        body = next((k for k in child_list(self.fn) if k.kind == K.COMPOUND_STMT), None)
        if body is not None:
            self.state = self.stmt(body, self.state)
            self._finish(body)
        return self.kernel

    def _finish(self, body: ci.Cursor) -> None:
        nodes = [c for c in preorder(body) if c.kind in (K.BINARY_OPERATOR, K.CALL_EXPR, K.STATIC_ASSERT)]
        syncs = Barriers(self.helpers)
        barriers = [(first(c).offset, self.src.span(c), syncs.made_in(c)) for c in nodes
                    if c.kind == K.CALL_EXPR and syncs(c)]
        # threads exchanging values: a barrier, or a cooperative group's `sync` (`cg::sync(cta)`)
        self.has_barrier = bool(barriers) or any(c.kind == K.CALL_EXPR and c.spelling == "sync" for c in nodes)
        for offset, end, ex in self.exits:
            after = [(s, name) for o, s, name in barriers if offset < o < end]
            self.kernel.exits.append(replace(ex, barriers_after=tuple(s for s, _ in after),
                                             barrier_call=after[0][1] if after else ""))
        self._element_loops()
        tiled = [r for r in self.recs if r.space is Space.GLOBAL and lanes(r.index)]
        self.grid_stride = bool(tiled) and all(any(g.grid_stride and not g.row for g in r.guards) for r in tiled)
        accesses = inclusive_ends(self.recs, [self._access(rec) for rec in self.recs], self.loop_ranges)
        self.slots = thread_slots(self.recs)
        self.kernel.accesses += _checked_warp_rows(accesses, self.split_rows)
        unbounded = _uncompared_rows(accesses, self.compared_rows)
        self.ceiling_accesses = _checked_warp_rows(accesses, self.split_rows, unbounded) if unbounded else None
        self._tails(body, nodes, self.state.scope)
        for c in nodes:
            if c.kind == K.CALL_EXPR and c.spelling == "__bc_assert":
                args = list(c.get_arguments())
                if args:
                    self.kernel.contracts += divisibility(self.conv, args[0], Scope(kinds=self.state.scope.kinds),
                                                          "device assert")
            elif c.kind == K.STATIC_ASSERT:
                kids = children(c)
                if kids:
                    self.kernel.contracts += divisibility(self.conv, kids[0], Scope(kinds=self.state.scope.kinds),
                                                          "static_assert")
        self.kernel.contracts += assume_comments(self.src, self.fn, prose=True,
                                                 sizes={n for n, v in self.conv.values.items() if v is not None})

    def _tails(self, body: ci.Cursor, nodes: list[ci.Cursor], at: Scope) -> None:
        """Where the kernel, or a helper it inlines (under the values its arguments bind), finishes
        a tail: past ``n / 4 * 4``, past ``n & ~(T - 1)``, or over a remainder ``n % T``."""
        writes = Writes(body)
        for c in nodes:
            op = binary_op(c) if c.kind == K.BINARY_OPERATOR else ""
            if op == "*":
                self._tail_start(c, writes, at)
            elif op == "&":
                self._tail_mask(c, at)
            elif op == "%" and len(kids := children(c)) == 2:
                named = Scope(dict(at.env), at.kinds)  # `d % (stride * vec_size)`, as the floor reads it
                for sc in (Scope(kinds=at.kinds), named):
                    self.kernel.tail_handled.add((render(self.conv.quiet_expr(kids[0], sc)),
                                                  render(self.conv.quiet_expr(kids[1], sc))))

    def _tail_start(self, c: ci.Cursor, writes: Writes, at: Scope) -> None:
        """``n / 4 * 4`` is where the whole packs end: the kernel finishes the tail past it. The
        quotient may be a constant local (``const int n_vec = n / 4; … n_vec * 4``)."""
        kids = [_quotient_of(k, writes) for k in children(c)]
        if len(kids) != 2 or not any(strip(k).kind == K.BINARY_OPERATOR and binary_op(strip(k)) == "/" for k in kids):
            return
        scope = Scope(dict(at.env), at.kinds)  # constants as the walk bound them
        left, right = (self.conv.quiet_expr(k, scope) for k in kids)
        for div, tile in ((left, right), (right, left)):
            if isinstance(div, Bin) and div.op == "/" and render(div.right) == render(tile):
                self.kernel.tail_handled.add((render(div.left), render(tile)))

    def _tail_mask(self, c: ci.Cursor, at: Scope) -> None:
        """``n & ~(T - 1)`` rounds n down to a multiple of the power of two T: where the whole
        packs end, as ``n / T * T`` does; the kernel finishes the tail past it."""
        scope, kids = Scope(kinds=at.kinds), children(c)
        for value, mask in ((kids[0], kids[1]), (kids[1], kids[0])) if len(kids) == 2 else ():
            mask = strip(mask)
            inner = children(mask) if mask.kind == K.UNARY_OPERATOR and unary_op(mask) == "~" else []
            tile = self.conv.quiet_expr(inner[0], scope) if inner else None
            if isinstance(tile, Bin) and tile.op == "-" and tile.right == Num(1):
                self.kernel.tail_handled.add((render(self.conv.quiet_expr(value, scope)), render(tile.left)))

    def _element_loops(self) -> None:
        """A floor-divided trip count skips a tail only in a loop over tiles, whose counter an
        index scales by the tile (``t * TILE + tx``); ``for (i = 0; i < C / NH; i++) x[i]`` walks
        the elements of a head, and C / NH is its size, not a count of tiles."""
        for i, loop in enumerate(self.kernel.loops):
            if loop.trip is None or loop.var is None:
                continue
            tile = set(tile_factors(loop.trip.tile)) | {loop.trip.tile}
            inside = [r.index for r in self.recs if loop.span.line <= r.span.line <= loop.end_line]
            inside += [i for line, i in self.handed if loop.span.line <= line <= loop.end_line]
            if any(_scales(i, loop.var, tile) for i in inside):
                continue
            plain = replace(loop, trip=None)
            self.kernel.loops[i] = plain
            if self.loops.get(loop.var) is loop:
                self.loops[loop.var] = plain

    def block_sized(self, sizes: dict[str, int | None]) -> list[Access]:
        """The accesses read again with integer parameters every launch sets to the block's x size
        (``Br`` with ``dim3 block(Bc)``, Bc = Br = 32; see ``cuda._block_params``) as compile-time
        sizes of those values: the tile of ``threadIdx.x``, so ``m[i * Br + tx]`` walks tiles."""
        self.conv.values.update(sizes)
        names = {p: Sym(p, Kind.CONST) for p in sizes}
        return [self._access(replace(rec, index=substitute(rec.index, names))) for rec in self.recs]

    def _access(self, rec: Rec) -> Access:
        span = rec.span
        index, width = rec.index, rec.width
        walked = {w.loop for w in rec.within}
        group = group_of(index, {n: r for (n, header), r in self.loop_ranges_at.items() if header in walked},
                         self.conv.values) if width == 1 and rec.space is Space.GLOBAL else None
        if group is not None and group.width is not None:
            # W consecutive elements walked by a counted loop: one W-wide access at the group's start
            index, width = group.start, group.width
        parts = dims_of(index, span, self._loops_at(span))
        dims = tuple(_retile(p.dim, index, p.offset_syms) for p in parts)
        tiled = [replace(p, dim=d) for p, d in zip(parts, dims)] if rec.tile_tests else []
        dims = joint_tiled(dims, index, self.joint, self._loops_at(span))
        # a tile of one element (`THREADS_Y * blockIdx.y + threadIdx.y`, THREADS_Y = 1) is never partial
        dims = tuple(d for d in dims if not _unit_tile(d.tile, self.conv.values))
        if all(g.row for g in rec.guards) and terms_text(expand(index)) in self.grid_starts:
            # a kernel that strides over its data by the grid keeps one slot per launched thread
            # (`partial[tid] = sum`, `rng[tid]`): that buffer is as long as the grid
            dims = ()
        whole = not (kinds(index) & {Kind.PROGRAM, Kind.LOOP})
        # a lane-strided loop's condition walks its lane: it covers it, but is no guard written
        # on the access (an access bounded by that alone is unguarded along its other lanes)
        counters = {n for n, up in self.counts_up.items() if up}
        guards = [replace(_at_access(g, self._group_bound(g, group, width, index), index), walk=g.stride)
                  for g in rec.guards if (not g.split or whole) and not g.row
                  and (not _past_guard(_beyond(g, index), counters, g.sides[1])
                       or _whole_strides(g, index, self.loop_ranges))
                  and not _first_of_group(g, group, index)
                  and not _other_blocks(g, index, parts) and not _remainder_only(g, rec.guards, index)
                  and not _walked_below(g, rec.guards)]
        # `out[blockIdx.x * BINS + t]` under `t < BINS`: each block writes its own row of BINS
        guards += [replace(self._vector_bound(g, width, index), local=False) for g in rec.guards
                   if g.split and not whole and _row_of(index, g.bound)
                   or g.row and _row_of(index, g.bound) and _rest_of_row(index, g)]
        guards += [p.intrinsic for p in parts if p.intrinsic is not None]
        # `if (base + 128 <= n)` with `base = blockIdx.x * 128`: the whole tile (of the tile read off the index)
        guards += tile_test_bounds(rec.tile_tests, tiled)
        # `threadIdx.x < n` bounds the warp index threadIdx.x / 32 and the lane threadIdx.x % 32 as
        # well (a block-local stand-in)
        guards += [replace(b, source=d.source) for d in dims if _warp_base(d.source) or _lane_base(d.source)
                   for b in guards if b.local and b.source in (_warp_base(d.source), _lane_base(d.source))
                   and not _column_limit(b, d, guards)]
        guards += _split_thread_stand_ins(dims, guards)
        guards += _split_stand_ins(dims, guards)
        uses = []
        if rec.padding is not None:
            for red, use_span, via in rec.uses:
                pad = rec.padding
                if "exp" in via and pad.value is not None:
                    pad = Padding(0.0 if pad.value == -math.inf else math.exp(min(pad.value, 700.0)))
                elif red is Reduction.MAX and rec.nonneg and pad.value is not None and pad.value <= 0:
                    pad = Padding(-math.inf)  # below or at every valid lane: as the identity
                uses.append(Use(red, pad, use_span, via))
        return Access(rec.kind, rec.buffer, span, rec.space, dims, tuple(guards), rec.padding, tuple(uses),
                      width=width, walked=width != rec.width, text=rec.text, within=rec.within, calls=rec.calls,
                      offset_factors=offset_factors(expand(index)))

    def _loops_at(self, span: Span) -> dict[str, Loop]:
        """The loop each counter name stands for at an access: the innermost loop around it that
        declares or advances the name (``while (i < n) { x[i + B]; i += G; }`` after which a
        ``for (int i ...)`` reuses the name), else the last loop declaring it (an inlined helper's
        access lies outside the lines of the loop that calls it)."""
        out = dict(self.loops)
        owners = sorted([(i, lp.var) for i, lp in enumerate(self.kernel.loops) if lp.var is not None]
                        + [(i, name) for name, i in self.carried_in])
        for i, name in owners:
            lp = self.kernel.loops[i]
            if lp.span.line <= span.line <= lp.end_line:
                out[name] = lp
        return out

    def _group_bound(self, g: Guard, group: Group | None, width: int, index: Expr) -> Bound:
        """A guard on the element a group's loop walks (``4 * g + j < n``), or on the count of
        groups (``g < G`` over ``x[g * 4 + j]``), bounds every element of the group; any other, as
        it bounds a vector access at the group's start."""
        if group is not None and group.width is not None and (
                group.offsets <= {terms_text([t]) for t in variable(expand(g.sides[0]))} or group.counts(g.sides[0])):
            return replace(g.bound, lane_offset=g.bound.lane_offset + width - 1)
        if group is not None and group.width is not None:
            # `column + PER_THREAD - 1 < dim` with `const int PER_THREAD = 16`: the named size is
            # part of the offset the guard adds to the group's start
            every = expand(g.sides[0])
            guarded = variable(every)
            start = {terms_text([t]) for t in variable(expand(index))}
            added = [term_value(t, self.conv.values) for t in guarded if terms_text([t]) not in start]
            # and on the limit's side, taken off it (`column <= dim - PER_THREAD`)
            taken = [v for t in variable(expand(g.sides[1])) if (v := term_value(t, self.conv.values)) is not None]
            if (added or taken) and None not in added \
                    and any(terms_text([t]) in start and lanes(Call("", t.factors)) for t in guarded):
                return replace(g.bound, lane_offset=int(constant(every)) + sum(added) - sum(taken))
        return self._vector_bound(g, width, index)

    def _vector_bound(self, g: Guard, width: int, index: Expr) -> Bound:
        """A vector's lanes run along its contiguous index: a limit in vector units, or a guard
        on a row (an index the access scales by a runtime stride), holds for all of them."""
        if width <= 1:
            return g.bound
        indexed, limit = g.sides
        if _divides_by(limit, width, self.conv.values) or _aligned_below(indexed, limit, index, width, self.conv.values) \
                or (_in_vector_units(indexed, index, width) or _strided_only(indexed, index)) and not _divmod_of(indexed, index):
            return replace(g.bound, lane_offset=g.bound.lane_offset + width - 1)
        return g.bound

    # --- statements ---------------------------------------------------------------------------
    def stmt(self, c: ci.Cursor, st: State) -> State:
        self.cur = st
        kind = c.kind
        if kind == K.COMPOUND_STMT:
            for k in child_list(c):
                st = self.stmt(k, st)
            return st
        if kind == K.DECL_STMT:
            for d in child_list(c):
                if d.kind == K.VAR_DECL:
                    self.decl(d, st)
            return st
        if kind == K.IF_STMT:
            return self.if_stmt(c, st)
        if kind in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT):
            return self.loop(c, st)
        if kind in (K.RETURN_STMT, K.NULL_STMT, K.BREAK_STMT, K.CONTINUE_STMT):
            for k in child_list(c):
                self.conv.expr(k, st.scope)
            return st
        if kind == K.STATIC_ASSERT:
            return st
        if kind == K.CALL_EXPR:
            self.call_stmt(c, st)
            return st
        if kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            op = binary_op(c)
            kids = children(c)
            if op in _ASSIGN and len(kids) == 2:
                self.assign(c, kids[0], op, kids[1], st)
                return st
        if kind == K.UNARY_OPERATOR and unary_op(c) in ("++", "--", "post++", "post--"):
            kids = children(c)
            if kids:
                self.increment(kids[0], "+=" if "+" in unary_op(c) else "-=", st)
            return st
        if kind.is_statement():  # attributed (#pragma unroll), labelled, switch, …
            for k in child_list(c):
                st = self.stmt(k, st) if k.kind.is_statement() else self._expr_stmt(k, st)
            return st
        return self._expr_stmt(c, st)

    def _expr_stmt(self, c: ci.Cursor, st: State) -> State:
        s = strip(c)
        if s.kind == K.CALL_EXPR:
            self.call_stmt(s, st)
        elif s.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR) and s != c:
            return self.stmt(s, st)
        else:
            self.conv.expr(c, st.scope)
        return st

    def decl(self, d: ci.Cursor, st: State) -> None:
        self.cur = st
        name, t = d.spelling, d.type.get_canonical()
        if any(k.kind == K.CUDASHARED_ATTR for k in child_list(d)):
            self.shared.add(name)
            size = _size(t.get_array_element_type()) if t.kind in (
                ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY) else _size(t)
            while t.kind == ci.TypeKind.CONSTANTARRAY:
                t = t.get_array_element_type()
            size = _size(t) or size
            st.ptrs[name] = Ref(name, Space.SHARED, Num(0), size, size)
            return
        init = initializer(d)
        if t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            if init is not None:  # `float w[2] = {x[i], x[i + 1]};` reads memory to fill it
                self.conv.expr(init, st.scope)
            return  # a per-thread register array: not memory the rules reason about
        if init is None:
            st.scope.env[name] = Sym(name, Kind.OTHER)
            return
        if t.kind == ci.TypeKind.RECORD:
            self._view(name, init, st)
        if t.kind == ci.TypeKind.POINTER:
            self._point(name, init, st)
            return
        if t.kind == ci.TypeKind.BOOL or is_integer(d) and _is_test(init):
            st.scope.conds[name] = (st.scope.held(init),)  # also `const int is_valid_c = c < params.c;`
        if d.type.is_const_qualified() and is_integer(d) and not lanes(self.conv.expr(init, Scope(kinds=st.scope.kinds))) \
                and strip(init).kind == K.INTEGER_LITERAL:
            st.scope.kinds = {**st.scope.kinds, name: Kind.CONST}
            st.scope.env.pop(name, None)
            macro = self.conv.macro_name(strip(init))  # its value noted by the `expr` above
            if macro is not None and macro in self.conv.values and self.conv.values[macro] is None:
                # `constexpr int C = _C_;` of a macro the build defines: C is that constant (the
                # launch's `dim3(_C_)` block), its value unknown
                st.scope.env[name] = Sym(macro, Kind.CONST)
            return
        self._bind(name, "=", init, st, self.src.span(d))
        if strip(init).kind == K.CONDITIONAL_OPERATOR and is_integer(d):
            st.scope.counts[name] = init  # `n_here = (i >= rows) ? 0 : cols`: read in the guards on it

    # --- assignments and reductions -----------------------------------------------------------
    def assign(self, c: ci.Cursor, lhs: ci.Cursor, op: str, rhs: ci.Cursor, st: State) -> None:
        self.cur = st
        target = strip(lhs)
        if target.kind == K.MEMBER_REF_EXPR:
            kids = children(target)
            target = strip(kids[0]) if kids and strip(kids[0]).kind in (K.ARRAY_SUBSCRIPT_EXPR,) else target
        if target.kind == K.ARRAY_SUBSCRIPT_EXPR or deref_operand(target) is not None \
                or target.kind == K.CALL_EXPR and self.conv.accessors and element(target) is not None:
            first = len(self.recs)
            self.conv.expr(rhs, st.scope)
            ids = self._sources(rhs, st, first)
            before = len(self.recs)
            self.write_target, self.compound = target, op != "="
            try:
                self._on_access(target, st.scope)
            finally:
                self.write_target, self.compound = None, False
            written = [r for r in range(before, len(self.recs)) if self.recs[r].kind is AccessKind.WRITE]
            for r in written:
                rec = self.recs[r]
                if rec.space is Space.SHARED:
                    st.taint[rec.buffer] = st.taint.get(rec.buffer, frozenset()) | ids | {r}
                    value = const_value(rhs, self.src, self.conv.macros)
                    self.logs[-1][rec.buffer] = ("const", value) if value is not None else ("reads", frozenset())
                    if not [g for g in st.guards if g.boundary] and not st.edges and op == "=":
                        self._filled(rec, value)
            return
        if target.kind == K.DECL_REF_EXPR:
            name = target.spelling
            pointer = name in st.ptrs or op == "=" and pointer_typed(target)
            if pointer and op == "=":
                self._point(name, rhs, st)
                return
            if pointer and op in ("+=", "-="):
                ref = st.ptrs[name]
                step = self.conv.expr(rhs, st.scope)  # (reads in the step are recorded here, once)
                st.ptrs[name] = replace(ref, offset=Bin(op[0], ref.offset, Bin("*", Num(ref.width), step)))
                return
            self._flag(name, op, rhs, st)
            self._bind(name, op, rhs, st, self.src.span(c))
            return
        struct = _local_struct(target, st)
        if struct is not None:
            self._bind_field(struct, rhs, st)
            return
        self.conv.expr(lhs, st.scope)
        self.conv.expr(rhs, st.scope)

    @staticmethod
    def _flag(name: str, op: str, rhs: ci.Cursor, st: State) -> None:
        """A bool local set again: ``ok &= c < n`` adds a test to those it holds, ``ok = c < n``
        holds that test alone, any other assignment leaves it no known test."""
        held = st.scope.conds.pop(name, None)
        if held is not None and op == "&=":
            st.scope.conds[name] = (*held, st.scope.held(rhs))
        elif op == "=" and _is_test(rhs):
            st.scope.conds[name] = (st.scope.held(rhs),)

    def _bind_field(self, name: str, rhs: ci.Cursor, st: State) -> None:
        """``r.x = v`` on a local struct (a float4 of loaded lanes, a running (max, sum) pair): the
        struct carries whatever flows into any of its fields, as a register array would."""
        first = len(self.recs)
        self.conv.expr(rhs, st.scope)
        ids = self._sources(rhs, st, first)
        st.taint[name] = st.taint.get(name, frozenset()) | ids
        cv = const_value(rhs, self.src, self.conv.macros)
        self.logs[-1][name] = ("const", cv) if cv is not None else ("reads", ids)

    def increment(self, target: ci.Cursor, op: str, st: State) -> None:
        t = strip(target)
        if t.kind == K.DECL_REF_EXPR and t.spelling in st.ptrs:  # `--p` steps a pointer as `p -= 1` does
            ref = st.ptrs[t.spelling]
            st.ptrs[t.spelling] = replace(ref, offset=Bin(op[0], ref.offset, Num(ref.width)))
        elif t.kind == K.DECL_REF_EXPR and t.spelling in st.scope.env and t.spelling not in self.loops:
            st.scope.env[t.spelling] = Bin(op[0], st.scope.env[t.spelling], Num(1))
        elif t.kind != K.DECL_REF_EXPR:
            self.conv.expr(target, st.scope)

    def _bind(self, name: str, op: str, rhs: ci.Cursor, st: State, span: Span) -> None:
        self.cur = st
        st.scope.counts.pop(name, None)
        first = len(self.recs)
        value = self.conv.expr(rhs, st.scope)
        if oversized(value, self.sizes):
            value = Sym(name, Kind.OTHER)
        self.split_rows |= _split_by_extent(value)
        ids = self._sources(rhs, st, first)
        red, via = self._reduction(name, op, rhs)
        if op == "=" and _never_negative(rhs):
            for r in range(first, len(self.recs)):
                self.recs[r].nonneg = True
        if red is not None:
            # a reduction helper (`sp = prepare_softmax(...)`) reduces its arguments: the reads in
            # its own body met the reductions they feed there
            inner = {i for i in self.inlined if i >= first} \
                if strip(rhs).kind == K.CALL_EXPR and callee(strip(rhs)) in self.helpers else set()
            for r in ids - inner:
                self.recs[r].uses.append((red, span, via))
        if op == "=":
            # `m = block_reduce_max(v)`: one value for the whole group, in which the padded lanes
            # were already judged against the reduction they fed; they do not feed m's consumers
            folded = red is not None and strip(rhs).kind == K.CALL_EXPR and (
                callee(strip(rhs)) in self.helpers or _group_reduction(strip(rhs), self.src) is not None)
            st.taint[name] = frozenset() if folded else ids
            st.scope.env[name] = value
            cv = const_value(rhs, self.src, self.conv.macros)
            if cv is not None:
                st.scope.consts[name] = cv
            else:
                st.scope.consts.pop(name, None)
            self.logs[-1][name] = ("const", cv) if cv is not None else ("reads", ids)
        else:
            st.taint[name] = st.taint.get(name, frozenset()) | ids
            st.scope.consts.pop(name, None)
            old = st.scope.env.get(name)
            if old is not None and name not in self.loops and op[:-1] in ("+", "-", "*"):
                grown = Bin(op[:-1], old, value)
                st.scope.env[name] = Sym(name, Kind.OTHER) if oversized(grown, self.sizes) else grown
            elif old is not None and not isinstance(old, Sym):
                st.scope.env[name] = Sym(name, Kind.OTHER)
            self.logs[-1][name] = ("reads", ids)

    def _sources(self, rhs: ci.Cursor, st: State, first: int) -> frozenset[int]:
        ids = set(range(first, len(self.recs)))
        for r in list(ids):
            rec = self.recs[r]
            if rec.kind is AccessKind.READ and rec.space is Space.SHARED:
                ids |= st.taint.get(rec.buffer, frozenset())
        stack = [rhs]
        while stack:
            c = stack.pop()
            if c.kind == K.DECL_REF_EXPR and c.spelling in st.taint:
                ids |= st.taint[c.spelling]
            stack += self._unpadded_children(c, st)
        return frozenset(i for i in ids if self.recs[i].kind is not AccessKind.WRITE or
                         self.recs[i].space is Space.SHARED)

    def _unpadded_children(self, c: ci.Cursor, st: State) -> list[ci.Cursor]:
        """The children whose padded lanes reach ``c``'s value: in ``i < n ? v : 0`` the lanes
        past n take 0, so what padded ``v`` there does not flow on (``v``'s own read is recorded
        with the 0 as its padding); ``__shfl_sync(mask, v, 0)`` gives every lane lane 0's ``v``; a
        comparison gives a test's outcome, not the padded value."""
        kids = children(c)
        if c.kind == K.BINARY_OPERATOR and binary_op(c) in COMPARISONS:
            return []  # a test's 0 or 1, not the padded value (`count += id < expert` past the end)
        if c.kind == K.CALL_EXPR and c.spelling == "__shfl_sync":
            args = arguments(c)
            if len(args) >= 3 and evaluate(args[2]) == 0:
                return []  # lane 0's value to every lane: the first lane is in range whenever any is
        if c.kind != K.CONDITIONAL_OPERATOR or len(kids) != 3:
            return kids
        cond, a, b = kids
        if not any(k.kind == K.DECL_REF_EXPR and k.spelling in st.taint for k in preorder(c)):
            return kids  # nothing padded to hold back: skip reading the condition
        atoms = self.conv.atoms(cond, st.scope), self.conv.atoms(cond, st.scope, negated=True)
        return [cond] + [branch for branch, guard in zip((a, b), atoms)
                         if not any(_pads(g) for g in self.guards_of(guard))]

    def _reduction(self, name: str, op: str, rhs: ci.Cursor) -> tuple[Reduction | None, tuple[str, ...]]:
        r = strip(rhs)
        calls = {c.spelling for c in preorder(rhs) if c.kind == K.CALL_EXPR}
        via = ("exp",) if calls & _EXP else ()
        if op in ("+=", "-="):
            return (Reduction.DOT if _is_product(r) else Reduction.SUM), via
        if op == "*=":
            return Reduction.PROD, via
        if op != "=":
            return None, ()
        refs_self = any(c.kind == K.DECL_REF_EXPR and c.spelling == name for c in preorder(rhs))
        if r.kind == K.CALL_EXPR and refs_self and not self._clamp(r, name):
            if r.spelling in _MAX:
                return Reduction.MAX, via
            if r.spelling in _MIN:
                return Reduction.MIN, via
            if r.spelling in ("fmaf", "fma", "__fmaf_rn"):
                return Reduction.DOT, via
        if r.kind == K.CALL_EXPR and callee(r) in self.helpers:
            return _helper_reduction(self.helpers[callee(r)], self.helpers, refs_self), via
        group = _group_reduction(r, self.src) if r.kind == K.CALL_EXPR else None
        if group is not None:
            return group, via
        if r.kind == K.BINARY_OPERATOR and binary_op(r) == "+" and refs_self:
            kids = [strip(k) for k in children(r)]
            other = [k for k in kids if not (k.kind == K.DECL_REF_EXPR and k.spelling == name)]
            return (Reduction.DOT if other and _is_product(other[0]) else Reduction.SUM), via
        return None, ()

    def _clamp(self, call: ci.Cursor, name: str) -> bool:
        """``s = fminf(s, FLT_MAX)``, ``v = fmaxf(v, eps)``: the name against values no lane read
        (no subscript, no call, no name holding a read): a clamp of one value, not a reduction."""
        others = [a for a in arguments(call) if not (strip(a).kind == K.DECL_REF_EXPR and strip(a).spelling == name)]
        taint = self.cur.taint if self.cur is not None else {}
        return bool(others) and not any(
            c.kind in (K.ARRAY_SUBSCRIPT_EXPR, K.CALL_EXPR) or deref_operand(c) is not None
            or c.kind == K.DECL_REF_EXPR and taint.get(c.spelling) for a in others for c in preorder(a))

    # --- calls --------------------------------------------------------------------------------
    def call_stmt(self, c: ci.Cursor, st: State) -> None:
        self.cur = st
        name = c.spelling
        args = _arguments(c)
        if name.startswith("operator") and name[8:] in _ASSIGN:  # struct copy: *(float4*)p = v
            operands = args if len(args) == 2 else [k for k in children(c) if k.spelling != name]
            if len(operands) == 2:
                self.assign(c, operands[0], name[8:], operands[1], st)
                return
        if name in _ATOMICS and args:
            first = len(self.recs)
            for a in args[1:]:
                self.conv.expr(a, st.scope)
            ids = self._sources(args[1], st, first) if len(args) > 1 else frozenset()
            target = strip(args[0])
            if target.kind == K.UNARY_OPERATOR and unary_op(target) == "&":
                inner = children(target)
                target = strip(inner[0]) if inner else target
                kind_before = len(self.recs)
                self.write_target = target
                try:
                    self._on_access(target, st.scope, atomic=True)
                finally:
                    self.write_target = None
                del kind_before
            else:
                ref = self.resolve(args[0], st)
                if ref is not None:
                    self._record(AccessKind.ATOMIC, ref, Num(0), c, st)
            red = Reduction.MAX if name in _MAX else Reduction.MIN if name in _MIN else \
                Reduction.SUM if name in ("atomicAdd", "atomicSub") else None
            if red is not None:
                for r in ids:
                    self.recs[r].uses.append((red, self.src.span(c), ()))
            return
        if not self._inline(c, args, st, quiet=False):
            self.conv.expr(c, st.scope)

    def _on_helper_call(self, c: ci.Cursor, scope: Scope) -> None:
        """A helper called for its value (``float s = norm_of_range(p + off, n);``) whose body is more
        than one return: its accesses are the caller's, under the caller's guards."""
        self._inline(c, _arguments(c), self.state_for(scope), quiet=True)

    def _on_helper_scope(self, helper: ci.Cursor, args: list[ci.Cursor], outer: Scope, inner: Scope,
                         call: ci.Cursor) -> None:
        """A one-line helper (``load(const float* p) { return *p; }``) reads through its pointer
        parameters where the caller's pointers point; a view's method through its fields."""
        inner.ptrs.update(self._pointer_parameters(helper, args, self.state_for(outer)))
        self._bind_fields(call, inner.ptrs, inner.env)

    def _pointer_parameters(self, helper: ci.Cursor, args: list[ci.Cursor], st: State) -> dict[str, Ref]:
        """A helper's pointer parameters, where the caller's arguments point."""
        out = {}
        for p, a in zip(params(helper), args):
            if p.type.get_canonical().kind == ci.TypeKind.POINTER:
                ref = self.resolve(a, st)
                if ref is not None:
                    out[p.spelling] = _as_parameter(ref, p)
        return out

    def _view(self, name: str, init: ci.Cursor, st: State) -> None:
        """``MatrixView x_(x, rows, cols)``: a local object whose constructor stores its arguments
        in fields (``: data(data), width(width)``); its methods index through them
        (``data[row * width + column]``), as a helper indexes through its parameters."""
        call = strip(init)
        ctor = call.referenced if call.kind == K.CALL_EXPR else None
        ctor = ctor.get_definition() if ctor is not None and ctor.kind == K.CONSTRUCTOR else None
        args = arguments(call) if ctor is not None else []
        names = [p.spelling for p in params(ctor)] if ctor is not None else []
        if not names or len(args) != len(names):
            return
        given = dict(zip(names, args))
        ptrs: dict[str, Ref] = {}
        values: dict[str, Expr] = {}
        kids = child_list(ctor)
        for member, value in itertools.pairwise(kids):
            source = strip(value)
            if member.kind != K.MEMBER_REF or source.kind != K.DECL_REF_EXPR or source.spelling not in given:
                continue
            arg = given[source.spelling]
            if member.type.get_canonical().kind == ci.TypeKind.POINTER:
                ref = self.resolve(arg, st)
                if ref is not None:
                    ptrs[member.spelling] = _as_parameter(ref, member)
            elif is_integer(member):
                values[member.spelling] = self.conv.quiet_expr(arg, st.scope)
        if ptrs:
            self.views[name] = (ptrs, values)

    def _view_method(self, call: ci.Cursor) -> ci.Cursor | None:
        """The method a call on a view object runs (``x_.item(row, column)``), with its body."""
        obj = self._view_object(call)
        ref = call.referenced if obj is not None else None
        method = ref.get_definition() if ref is not None and ref.kind == K.CXX_METHOD else None
        return method if method is not None and is_device(method) else None

    def _view_object(self, call: ci.Cursor) -> str | None:
        """The view object a call is made on (``x_`` of ``x_.item(r, c)``); None for any other call."""
        if not self.views:
            return None  # (most kernels: asked of every call the converter meets)
        kids = child_list(call) if call.kind == K.CALL_EXPR else []
        member = strip(kids[0]) if kids else None
        base = child_list(member) if member is not None and member.kind == K.MEMBER_REF_EXPR else []
        obj = strip(base[0]) if base else None
        return obj.spelling if obj is not None and obj.kind == K.DECL_REF_EXPR and obj.spelling in self.views else None

    def _bind_fields(self, call: ci.Cursor, ptrs: dict, env: dict[str, Expr]) -> None:
        """A view method's fields, where ``call`` is on a view object (its parameters come first)."""
        obj = self._view_object(call)
        if obj is None:
            return
        fields, values = self.views[obj]
        for name, ref in fields.items():
            ptrs.setdefault(name, ref)
        for name, value in values.items():
            env.setdefault(name, value)

    def _on_opaque_call(self, args: list[ci.Cursor], scope: Scope) -> None:
        """A pointer handed to a call the walker cannot see into (``load128(x + i * 8)``, a
        template's vector load): the call reads or writes there, so a loop indexes memory by
        what that pointer's offset scales."""
        st = self.state_for(scope)
        hooks = self.conv.on_subscript, self.conv.on_conditional, self.conv.on_helper_call
        self.conv.on_subscript = self.conv.on_conditional = self.conv.on_helper_call = None
        try:
            refs = [(a, self.resolve(a, st)) for a in args]
        finally:
            self.conv.on_subscript, self.conv.on_conditional, self.conv.on_helper_call = hooks
        self.handed += [(self.src.span(a).line, ref.offset) for a, ref in refs if ref is not None]

    def _inline(self, c: ci.Cursor, args: list[ci.Cursor], st: State, quiet: bool) -> bool:
        """Walk a helper's body with its parameters bound to the call's arguments (``quiet``: the
        arguments' own reads are already recorded)."""
        helper = self.helpers.of(c) or self._view_method(c)
        body = next((k for k in child_list(helper) if k.kind == K.COMPOUND_STMT), None) \
            if helper is not None and self.inline_depth < 3 else None
        if body is None:
            return False
        inner = State(Scope(kinds=st.scope.kinds), st.guards, self._pointer_parameters(helper, args, st), {})
        value = self.conv.quiet_expr if quiet else self.conv.expr
        for p, a in zip(params(helper), args):
            if p.type.get_canonical().kind != ci.TypeKind.POINTER:
                inner.scope.env[p.spelling] = value(a, st.scope)
                inner.taint[p.spelling] = self._sources(a, st, len(self.recs))
                flag = strip(a)
                if flag.kind == K.DECL_REF_EXPR and flag.spelling in st.scope.conds:
                    # a flag passed on (`helper(…, active)` with `active = tid < size`): the
                    # helper's `if (active)` tests what the caller's flag holds
                    inner.scope.conds[p.spelling] = st.scope.conds[flag.spelling]
        self._bind_fields(c, inner.ptrs, inner.scope.env)
        self.inline_depth += 1
        self.conv.calls.append(self.src.span(c))
        saved = self.cur
        start = len(self.recs)
        try:
            with placed_at_call(self.src, helper, c):
                after = self.stmt(body, inner) or inner
                self._tails(body, _binary_operators(body), after.scope)
        finally:
            self.inline_depth -= 1
            self.conv.calls.pop()
            self.cur = saved
        if quiet:
            self.inlined.update(range(start, len(self.recs)))
        return True

    # --- control flow -------------------------------------------------------------------------
    def guards_of(self, atoms: list[Comparison]) -> tuple[Guard, ...]:
        out = []
        for a in atoms:
            self.compared_rows |= _global_warp_rows(a)
            self.joint |= joint_positions(a)
            a = _warp_row_limit(replace(a, left=lanes_cancelled(a.left), right=lanes_cancelled(a.right)))
            for b in comparison_bounds(a):
                limit = upper_form(a.left, a.op, a.right)[2]
                boundary = Kind.EXTENT in kinds(limit) or (
                    Kind.CONST in kinds(limit) and Kind.LOOP not in kinds(limit) and b.limit_is_extent
                    and not b.local and any(s.kind is Kind.EXTENT for s in syms(limit)))
                if b.local and kinds(limit) <= {Kind.CONST}:
                    # `tid < BLOCK_WIDTH / 2` (a compile-time size): which threads of the block
                    # do the work, not a bound on any extent, unless the access's rows are that
                    # long (see _access)
                    out.append(Guard(b, a, False, split=True))
                    continue
                if b.local and Kind.OTHER in kinds(limit) and Kind.EXTENT not in kinds(limit):
                    # `tid < len` with a per-block length read from memory (a merge segment's
                    # end - start): it bounds the block's own segment, which starts at the
                    # per-block offset of the index, so it is no block-local stand-in
                    b = replace(b, local=False)
                b = _inside_row(b, limit)
                # a limit that moves with the block or lane and names no extent (`i < blockIdx.x + 1`,
                # a causal row's length; not `i < min(start + B, n)`, which can end at the data's end)
                moves = bool(kinds(limit) & {Kind.PROGRAM, Kind.LANE}) and Kind.EXTENT not in kinds(limit)
                out.append(Guard(replace(b, op_span=a.op_span, op_text=a.op_text, limit_moves=moves), a,
                                 Kind.EXTENT in kinds(limit) or boundary))
            out += [Guard(b, a, False, row=True) for b in _literal_rows(a)]
        return tuple(out)

    def visit_cond(self, c: ci.Cursor, scope: Scope) -> None:
        """Record a condition's reads; the right side of ``a && b`` runs only where ``a`` holds
        (and of ``a || b`` only where it fails), so its reads carry that guard."""
        s = strip(c)
        op = binary_op(s) if s.kind == K.BINARY_OPERATOR else ""
        kids = children(s) if op in ("&&", "||") else []
        if len(kids) != 2:
            self.conv.expr(c, scope)
            return
        self.visit_cond(kids[0], scope)
        saved = self._extra_guards
        self._extra_guards = saved + self.guards_of(self.conv.atoms(kids[0], scope, negated=op == "||"))
        try:
            self.visit_cond(kids[1], scope)
        finally:
            self._extra_guards = saved

    def if_stmt(self, c: ci.Cursor, st: State) -> State:
        self.cur = st
        kids = [k for k in child_list(c) if k.kind != K.DECL_STMT]
        if len(kids) < 2:
            return st
        cond, then = kids[0], kids[1]
        other = kids[2] if len(kids) > 2 else None
        value = evaluate(cond)
        if isinstance(value, int):
            # `if constexpr (ELTS == 16)` with `constexpr int ELTS = 16`: the other side is never
            # compiled into this kernel, and a constant `if (0)` side never runs
            live = then if value else other
            return self.stmt(live, st) if live is not None else st
        self.visit_cond(cond, st.scope)
        pos_atoms, neg_atoms = self.conv.atoms(cond, st.scope), self.conv.atoms(cond, st.scope, negated=True)
        pos, neg = self.guards_of(pos_atoms), self.guards_of(neg_atoms)
        exit_stmt = _exit_statement(then)
        if exit_stmt is not None and other is None:
            # an exit inside an inlined helper leaves the helper (or its loop), not the kernel: its
            # guard holds for the rest of the helper only, and no barrier of the kernel follows it
            if any(g.divergent and not self._one_per_block(g) for g in neg) and not self.inline_depth:
                end = self.region_end.get(exit_stmt.kind, last(self.fn).offset) if hasattr(
                    self, "region_end") else last(self.fn).offset
                word = {K.RETURN_STMT: "return", K.CONTINUE_STMT: "continue", K.BREAK_STMT: "break"}[exit_stmt.kind]
                self.exits.append((first(exit_stmt).offset, end, Exit(
                    self.src.span(exit_stmt), word, self.src.text_of(cond), (),
                    tuple(p for g in neg if g.boundary for p in [self._uniform_if(g)] if p))))
                quotients = _lane_quotients([g.sides[0] for g in neg if g.boundary], self.conv.values)
                if quotients:
                    self.exit_quotients[self.src.span(exit_stmt)] = quotients
            st.guards = st.guards + tuple(replace(g, exit=True) for g in neg) + self._alternatives(cond, st.scope)
            st.tile_tests = st.tile_tests + scalar_tests(neg_atoms)
            return st
        self.logs.append({})
        then_st = st.copy()
        then_st.guards = st.guards + pos
        then_st.equal = st.equal + tuple((a.left, a.right) if lanes(a.left) else (a.right, a.left)
                                         for a in pos_atoms if a.op == "==" and bool(lanes(a.left)) != bool(lanes(a.right)))
        then_st.edges = st.edges or _lower_edge(pos_atoms)
        then_st.tile_tests = st.tile_tests + scalar_tests(pos_atoms)
        then_st = self.stmt(then, then_st)
        self.cur = st
        then_log = self.logs.pop()
        self.logs.append({})
        else_st = st.copy()
        else_st.guards = st.guards + neg
        else_st.edges = st.edges or _lower_edge(neg_atoms)
        else_st.tile_tests = st.tile_tests + scalar_tests(neg_atoms)
        if other is not None:
            else_st = self.stmt(other, else_st)
        self.cur = st
        else_log = self.logs.pop()
        if any(_pads(g) for g in pos + neg):  # a data test (`if (x[i] > m)`) pads nothing
            self._pad(then_log, else_log, st)
            self._pad(else_log, then_log, st)
        merged = st.copy()
        # `if constexpr`: each instantiation of the template runs one side only
        compile_time = _compile_time_if(self.src, c)
        for log in (then_log, else_log):
            for name in log:
                self.logs[-1][name] = ("reads", frozenset())
                for branch in (then_st, else_st):
                    if name in branch.taint:
                        merged.taint[name] = merged.taint.get(name, frozenset()) | branch.taint[name]
                if name in merged.scope.env and then_st.scope.env.get(name) != else_st.scope.env.get(name):
                    if other is not None:
                        merged.scope.env[name] = Sym(name, Kind.OTHER)
                    elif compile_time and name in then_st.scope.env:
                        # `if constexpr (use_half2) column *= 2;`: the side that changed the index
                        # is the one the earlier guards do not cover
                        merged.scope.env[name] = then_st.scope.env[name]
                    else:
                        merged.scope.env[name] = _clamped(cond, name, then_st, else_st, self.conv)
                merged.scope.consts.pop(name, None)
        for name, ref in then_st.ptrs.items():
            merged.ptrs.setdefault(name, ref)
        if other is not None and compile_time:
            merged.guards += _common_exits(then_st.guards[len(st.guards):], else_st.guards[len(st.guards):])
        return merged

    def _alternatives(self, cond: ci.Cursor, scope: Scope) -> tuple[Guard, ...]:
        """The sides of what an exit on a conjunction lets through (``if (m >= M && n >= N)
        return;``: m < M or n < N), each marked as bounding nothing."""
        s = strip(cond)
        if s.kind != K.BINARY_OPERATOR or binary_op(s) != "&&":
            return ()
        atoms = [a for k in children(s) for a in self.conv.atoms(k, scope, negated=True)]
        return tuple(replace(g, bound=replace(g.bound, alternative=True), exit=True) for g in self.guards_of(atoms))

    def _one_per_block(self, g: Guard) -> bool:
        """The guard's index moves by tiles of one element (``blockIdx.z * S_THREADS_Z + threadIdx.z``,
        S_THREADS_Z = 1): a block's threads all pass it or all fail it."""
        index = g.sides[0]
        parts = dims_of(index, g.bound.span)
        return bool(parts) and all(_unit_tile(_retile(p.dim, index, p.offset_syms).tile, self.conv.values) for p in parts)

    def _uniform_if(self, g: Guard) -> tuple[str, str] | None:
        """``lane * f + i * S >= n`` with ``lane * f`` spanning exactly S (``(tid % 32) * 8 +
        i * 256``): each step ``i`` covers one whole tile, so where ``n % S == 0`` every thread
        crosses n at the same ``i``. Returns (n, S)."""
        index = g.sides[0]
        terms = variable(expand(index))
        lane_terms = [t for t in terms if lanes(Call("", t.factors))]
        steps = [t for t in terms if t not in lane_terms]
        if len(lane_terms) != 1 or len(steps) != 1 or constant(expand(index)):
            return None
        (lane_t,), (step_t,) = lane_terms, steps
        loop_vars = [f for f in step_t.factors if isinstance(f, Sym) and f.kind is Kind.LOOP and f.name in self.loops]
        if len(loop_vars) != 1:
            return None
        lane = next(f for f in lane_t.factors if lanes(f))
        tile = _lane_tile(lane)
        if tile is None:
            return None
        span = _product(lane_t.coeff, [tile, *(render(f) for f in lane_t.factors if f is not lane)])
        stride = _product(step_t.coeff, [render(f) for f in step_t.factors if f is not loop_vars[0]])
        return (g.bound.limit, " * ".join(stride)) if sorted(span) == sorted(stride) else None

    def _pad(self, log: dict, other_log: dict, before: State) -> None:
        """Reads assigned on one branch take the value the other branch (or the earlier
        definition) leaves when the guard fails; so do guarded shared stores."""
        for name, (what, value) in log.items():
            if name in other_log:
                o_what, o_value = other_log[name]
                pad = Padding(o_value) if o_what == "const" and o_value is not None else UNKNOWN_PADDING
            elif name in self.shared:
                continue
            elif name in before.scope.consts:
                pad = Padding(before.scope.consts[name])
            else:
                pad = UNKNOWN_PADDING
            if name in self.shared:
                targets = [r for r in range(len(self.recs)) if self.recs[r].buffer == name
                           and self.recs[r].kind is AccessKind.WRITE and self.recs[r].padding is not None
                           and self.recs[r].padding.stale]
            else:
                targets = [r for r in (value if what == "reads" else ()) if self.recs[r].kind is AccessKind.READ]
            for r in targets:
                if self.recs[r].padding is None or self.recs[r].padding.stale:
                    self.recs[r].padding = pad

    def loop(self, c: ci.Cursor, st: State) -> State:
        kids = children(c)
        if not kids:
            return st
        body = kids[-1]
        outer = st
        st = st.copy()
        init = cond = inc = None
        if c.kind == K.FOR_STMT:
            init, cond, inc = self._for_parts(c, kids)
        elif c.kind == K.WHILE_STMT:
            cond = kids[0] if len(kids) > 1 else None
        elif c.kind == K.DO_STMT:
            body, cond = kids[0], kids[1] if len(kids) > 1 else None
        header = self._header_span(c, body)
        var, start = None, None
        if init is not None:
            if init.kind == K.DECL_STMT:
                d = next((k for k in child_list(init) if k.kind == K.VAR_DECL), None)
                if d is not None:
                    var = d.spelling
                    e = next((k for k in child_list(d) if k.kind.is_expression()), None)
                    start = self.conv.expr(e, st.scope) if e is not None else Num(0)
            else:
                s = strip(init)
                if s.kind == K.BINARY_OPERATOR and binary_op(s) == "=":
                    ik = children(s)
                    if len(ik) == 2 and strip(ik[0]).kind == K.DECL_REF_EXPR:
                        var, start = strip(ik[0]).spelling, self.conv.expr(ik[1], st.scope)
        updates = [k for k in (body, inc) if k is not None]
        carried = set().union(*(_assigned_names(k) for k in updates))
        # a counter from 0 by 1 (`for (k = 0; k < 16; k++)`) counts the steps of a pointer the body
        # advances once per iteration (`*p++`): the pointer is `p + k * step`, walked in the loop's range
        by_one = _step_operand(var, updates) if var is not None and start == Num(0) else None
        counter = Sym(var, Kind.LOOP) if by_one is not None and by_one[0] == 1 and by_one[1] is None else None
        for name in carried:
            step = self._step(name, updates, st)
            if name in st.ptrs:
                ref = st.ptrs[name]
                st.ptrs[name] = replace(ref, offset=Bin("+", ref.offset, _times(counter or Sym(name, Kind.LOOP), step)))
            elif name in st.scope.env and name != var and is_index(st.scope.env[name]):
                old = st.scope.env[name]
                st.scope.env[name] = Bin("+", old, _times(Sym(name, Kind.LOOP), step)) if lanes(old) \
                    else Sym(name, Kind.LOOP)
        step_of_var: Expr = Num(0)
        var_step = _step_operand(var, updates) if var is not None and start is not None else None
        if var is not None and start is not None:
            # a lane-started loop (grid / block stride) moves by its step: ``start + it * step``
            step = self._step_value(var, var_step, st)
            step_of_var = step if step is not None else Num(0)
            it = _times(Sym(var, Kind.LOOP), step)
            st.scope.env[var] = Bin("+", start, it) if lanes(start) and not _per_warp(start) \
                else it if start == Num(0) else Sym(var, Kind.LOOP)
            st.scope.consts.pop(var, None)
        atoms = self.conv.atoms(cond, st.scope) if cond is not None else []
        top = _walk_down_top(start, step_of_var) if var is not None and start is not None else None
        # in range by construction, as a wrap is: no guard written, so nothing to be off by one or
        # to check a vector's first lane only
        below = () if top is None else tuple(
            replace(g, bound=replace(g.bound, wrap=True)) for g in self.guards_of(
                [Comparison(st.scope.env[var], "<", top, header, None, "<", self.src.text_of(c))]))
        trip, walks, exact, fixed = None, None, False, False
        # a pipelined loop starts at the second tile (`bk = 1`, the first loaded before it): its
        # floor-divided limit still drops the tail
        if var is not None and start is not None and (start == Num(0) or _per_warp(start) or
                                                      isinstance(start, Num) and start.value > 0):
            for a in atoms:
                if a.op in ("<", "<=") and a.left == Sym(var, Kind.LOOP) and a.op == "<":
                    trip = floor_division(a.right, header, ("/",)) or _prefix_count(a.right, header)
                    walks = None if trip else tile_walk(a.right, None, ("/",))
                elif a.op == "<" and start == Num(0) and step_of_var != Num(1) \
                        and a.left == _times(Sym(var, Kind.LOOP), step_of_var):
                    walks = tile_walk(a.right, step_of_var)  # for (k = 0; k < K; k += TILE)
                    # `off < n * 32 * W` stepped by `32 * W`: the last tile is whole
                    exact = exact or walks is not None and whole_multiple(a.right, step_of_var)
                    fixed = fixed or walks is not None and _fixed_region(cond, var, var_step)
        elif var is not None and start is not None and lanes(start) and not _per_warp(start):
            # a block / grid-stride loop over packs of W (`i < n / 4` with `i * 4 + k` inside) stops
            # at the last whole pack, as a floored trip count does
            trip = next((t for a in atoms if a.op == "<" and a.left == st.scope.env.get(var)
                         for t in [floor_division(a.right, header, ("/",))] if t is not None), None)
            # `for (i = threadIdx.x; i < 256; i += blockDim.x)`: the block walks a region of a size
            # fixed at compile time (a 256-entry table), its condition checked at every step
            # (`i < 2 * 256` too: arithmetic on numbers alone)
            fixed = any(a.op == "<" and a.left == st.scope.env.get(var) and (
                isinstance(a.right, Sym) and a.right.kind is Kind.CONST or not variable(expand(a.right))) for a in atoms)
        if var is not None and start is not None and trip is None and walks is None and _per_warp(start):
            # `for (row = warp; row < n; row += warps)` up to a count of rows, not of tiles: the
            # counter is the warp's row, stepped by the block's warps, as a lane-strided loop's is
            st.scope.env[var] = Bin("+", start, _times(Sym(var, Kind.LOOP), step_of_var))
            atoms = self.conv.atoms(cond, st.scope) if cond is not None else []
        if var is not None and isinstance(start, Num) and start.value >= 0 \
                and isinstance(step_of_var, Num) and step_of_var.value > 0:
            k = int(step_of_var.value) if start == Num(0) else 1
            for a in atoms:
                if a.op in ("<", "<=") and a.left == st.scope.env.get(var) == _times(Sym(var, Kind.LOOP), Num(k)):
                    self.loop_ranges_at[(var, header)] = (k, a.right, a.op)
        loop = Loop(header, var, trip, full_tiles=trip is not None or exact, end_line=last(body).line, walks=walks,
                    fixed=fixed,
                    walks_tail=any(_past_extent(a) for a in atoms))
        self.kernel.loops.append(loop)
        if var is not None:
            self.loops[var] = loop
        # index names the loop advances (`i += gridSize`); a pointer it advances keeps its offset
        self.carried_in += [(name, len(self.kernel.loops) - 1) for name in sorted(carried)
                            if name != var and name not in st.ptrs]
        if var is not None:
            up = start == Num(0) and isinstance(step_of_var, Num) and step_of_var.value > 0
            self.counts_up[var] = self.counts_up.get(var, True) and up
        self.open_loops.append(Walk(header, next(self.walks)))  # its condition, body and increment run in it
        if cond is not None:
            self.visit_cond(cond, st.scope)
        strided = var is not None and start is not None and bool(lanes(start)) and not _per_warp(start)
        grid_stride = strided and any(s.name.startswith("gridDim.") for s in syms(step_of_var))
        if grid_stride:
            self.grid_starts.add(terms_text(expand(start)))
            self.grid_stride_axes |= {s.name[-1] for s in syms(step_of_var) if s.name.startswith("gridDim.")}
        st.guards = st.guards + tuple(_fixed_span(replace(g, stride=strided, grid_stride=grid_stride))
                                      for g in self.guards_of(atoms) + below)
        self.cur = st
        saved = getattr(self, "region_end", {})
        # `continue` and `break` leave this loop's body, not the kernel: a barrier after the loop is
        # reached by every thread (one inside the body is skipped)
        self.region_end = {**saved, K.CONTINUE_STMT: last(body).offset, K.BREAK_STMT: last(body).offset}
        try:
            st = self.stmt(body, st)
            if inc is not None:
                self.conv.expr(inc, st.scope)
        finally:
            self.region_end = saved
            self.open_loops.pop()
        result = outer.copy()
        result.taint = {**outer.taint, **st.taint}
        for name in carried:
            self.logs[-1][name] = ("reads", frozenset())
            if name in result.scope.env and name != var:
                result.scope.env[name] = Sym(name, Kind.OTHER)
            result.scope.consts.pop(name, None)
        return result

    def _step(self, name: str, cursors: list[ci.Cursor], st: State) -> Expr | None:
        """What ``name`` is advanced by per iteration (``+= e``, ``= name + e``, ``++``)."""
        return self._step_value(name, _step_operand(name, cursors), st)

    def _step_value(self, name: str, found: tuple[int, ci.Cursor | None] | None, st: State) -> Expr | None:
        """The step :func:`_step_operand` found, as an expression of the values before the loop."""
        if found is None:
            return None
        sign, operand = found
        if operand is None:
            return Num(1)
        scope = Scope(dict(st.scope.env), st.scope.kinds)
        scope.env.pop(name, None)
        step = self.conv.quiet_expr(operand, scope)
        return Bin("*", Num(-1), step) if sign < 0 else step

    def _for_parts(self, c: ci.Cursor, kids: list[ci.Cursor]):
        body = kids[-1]
        semis = [t.offset for t in self.src.tokens_between(first(c).offset, first(body).offset)
                 if t.text == ";"]
        init = cond = inc = None
        if len(semis) < 2:  # a header written by a macro (`CUDA_KERNEL_LOOP(i, n)`): told apart by kind
            for k in kids[:-1]:
                s = strip(k)
                op = binary_op(s) if s.kind == K.BINARY_OPERATOR else ""
                if k.kind == K.DECL_STMT or op == "=" and init is None and cond is None:
                    init = k
                elif op in ("<", "<=", ">", ">=", "!=", "==", "&&", "||") and cond is None:
                    cond = k
                else:
                    inc = k
            return init, cond, inc
        for k in kids[:-1]:
            o = first(k).offset
            if o < semis[0]:
                init = k
            elif o < semis[1]:
                cond = k
            else:
                inc = k
        return init, cond, inc

    def _header_span(self, c: ci.Cursor, body: ci.Cursor) -> Span:
        toks = self.src.tokens_between(first(c).offset, first(body).offset)
        closing = [t for t in toks if t.text == ")"]
        start = self.src.span(c)
        if not closing or c.kind == K.DO_STMT:
            return Span(start.line, start.col, start.line, start.col)
        end = self.src.token_span(closing[-1])
        return Span(start.line, start.col, end.end_line, end.end_col)

    # --- accesses -----------------------------------------------------------------------------
    def resolve(self, c: ci.Cursor, st: State) -> Ref | None:
        raw = c
        c = strip(c)
        kind = c.kind
        if kind == K.DECL_REF_EXPR or kind == K.MEMBER_REF_EXPR and not child_list(c):
            return st.ptrs.get(c.spelling)  # (a member with no object: a field of an inlined view's method)
        if kind == K.CALL_EXPR and c.type.get_canonical().kind == ci.TypeKind.POINTER:
            return self._returned_pointer(c, st)
        if kind in (K.CXX_REINTERPRET_CAST_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.UNEXPOSED_EXPR,
                    K.CXX_CONST_CAST_EXPR, K.PAREN_EXPR):
            kids = [k for k in child_list(c) if k.kind != K.TYPE_REF]
            inner = self.resolve(kids[-1], st) if kids else None
            t = c.type.get_canonical()
            if inner is None and t.kind == ci.TypeKind.POINTER and kids and self._held_by_parameter(strip(kids[-1]), False):
                inner = self._parameter_pointer(strip(kids[-1]))  # `(T*)tl.addresses[0][loc]`, of a dependent type
            if inner is None or t.kind != ci.TypeKind.POINTER:
                return inner
            size = _size(t.get_pointee())
            # a typed buffer cast to an open type (`(Copy_t<T, D>*)q + lane`, `(P*)&out[0] + i`):
            # steps from there are in units nobody knows; raw bytes (`extern __shared__ char
            # raw[]` read as `scalar_t*`) have no units of their own and take the cast's
            same = kids[-1].type.get_canonical().spelling == t.spelling
            return replace(inner, size=size or inner.size,
                           open_width=not size and (inner.open_width or not same and inner.size != 1))
        op = operator_call(c) if kind == K.CALL_EXPR else ""
        if op in ("+", "-"):  # `p + off` on a pointer of a template's dependent type
            kids = children(c)
            ref = self.resolve(kids[0], st)
            if ref is None or ref.open_width:
                return None
            off = self.conv.expr(kids[2], st.scope)
            return replace(ref, offset=_add(ref.offset, _scale(ref.width, off), op))
        if kind == K.BINARY_OPERATOR and binary_op(c) in ("+", "-"):
            kids = children(c)
            if len(kids) == 2:
                for p, q in ((kids[0], kids[1]), (kids[1], kids[0])):
                    if strip(p).type.get_canonical().kind in (ci.TypeKind.POINTER, ci.TypeKind.CONSTANTARRAY):
                        ref = self.resolve(p, st)
                        if ref is None or ref.open_width:
                            return None
                        step = Bin("*", Num(ref.width), self.conv.expr(q, st.scope)) if ref.width > 1 \
                            else self.conv.expr(q, st.scope)
                        return replace(ref, offset=_add(ref.offset, step, binary_op(c)))
            return None
        if kind == K.UNARY_OPERATOR and unary_op(c) in ("post++", "post--"):
            kids = children(c)  # `*p++` reads where p points before the step
            return self.resolve(kids[0], st) if kids else None
        if kind == K.UNARY_OPERATOR and unary_op(c) == "&":
            kids = children(c)
            inner = strip(kids[0]) if kids else None
            if inner is not None and inner.kind == K.ARRAY_SUBSCRIPT_EXPR:
                sub = children(inner)
                ref = self.resolve(sub[0], st) if len(sub) == 2 else None
                if ref is None:
                    return None
                idx = self.conv.expr(sub[1], st.scope)
                return replace(ref, offset=_add(ref.offset, _scale(ref.width, idx), "+"))
            return None
        if kind in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR) and self._held_by_parameter(c):
            return self._parameter_pointer(c)
        if kind == K.ARRAY_SUBSCRIPT_EXPR:  # a row of a 2-D array: As[ty] in As[ty][tx]
            sub = children(c)
            ref = self.resolve(sub[0], st) if len(sub) == 2 else None
            if ref is None:
                return None
            t = c.type.get_canonical()
            n = t.get_array_size() if t.kind == ci.TypeKind.CONSTANTARRAY else -1
            if n <= 0:
                return None
            return replace(ref, offset=_add(ref.offset, Bin("*", self.conv.expr(sub[1], st.scope), Num(n)), "+"))
        del raw
        return None

    def _returned_pointer(self, call: ci.Cursor, st: State) -> Ref | None:
        """Where a one-line helper or view method returning a pointer points
        (``item_ptr(row, column) { return &data[row * width + column]; }``)."""
        helper = self.helpers.of(call) or self._view_method(call)
        ret = returned_expr(helper) if helper is not None and self.inline_depth < 3 else None
        if ret is None:
            return None
        args = _arguments(call)
        scope = self.conv.helper_scope(helper, [self.conv.quiet_expr(a, st.scope) for a in args], st.scope)
        inner = State(scope, st.guards, self._pointer_parameters(helper, args, st), st.taint)
        self._bind_fields(call, inner.ptrs, inner.scope.env)
        self.inline_depth += 1
        try:
            with placed_at_call(self.src, helper, call):
                return self.resolve(ret, inner)
        finally:
            self.inline_depth -= 1

    def _point(self, name: str, value: ci.Cursor, st: State) -> None:
        """``T* name = value`` or ``name = value``: where the local now points (a pointer taken from
        a struct, ``(T*)tl.addresses[1][loc]``, goes by the local's name). Taking an address
        (``&x[i]``) is no access, its uses through ``name`` are: only the index is read."""
        ref = self.resolve(value, st)
        if ref is None:
            st.ptrs.pop(name, None)
        else:
            st.ptrs[name] = ref if ref.buffer.isidentifier() else replace(ref, buffer=name)
        taken = _address_of(value) if ref is not None else None
        if ref is not None and strip(value).kind == K.CALL_EXPR:
            for a in _arguments(strip(value)):  # a helper's returned address: only its arguments are read
                self.conv.expr(a, st.scope)
            return
        self.conv.expr(children(taken)[1] if taken is not None else value, st.scope)

    def _held_by_parameter(self, c: ci.Cursor, typed: bool = True) -> bool:
        """``params.q``, ``tl.addresses[0][loc]``: a pointer the kernel's arguments hold in a struct
        (by value or reference, or its own members in a functor's method), a pointer to memory the
        host allocated, as a pointer parameter is. ``typed``: the expression's own type says it is
        a pointer (a cast says so where a template leaves it dependent)."""
        if c.kind not in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR) or typed and not pointer_typed(c):
            return False
        root = c
        while root.kind in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR, K.UNEXPOSED_EXPR, K.PAREN_EXPR):
            kids = children(root)
            if not kids:
                return root.kind == K.MEMBER_REF_EXPR and self.fn.kind == K.CXX_METHOD  # an implicit this->
            root = kids[0]
        if root.kind == K.CXX_THIS_EXPR:
            return True
        ref = root.referenced if root.kind == K.DECL_REF_EXPR else None
        return ref is not None and ref.kind == K.PARM_DECL and not pointer_typed(ref)

    def _parameter_pointer(self, c: ci.Cursor) -> Ref:
        name = self.src.text_of(c)
        size = _size(c.type.get_canonical().get_pointee()) if pointer_typed(c) else 0  # a cast sizes it
        return Ref(name, Space.GLOBAL, Num(0), size, size)

    def _on_access(self, c: ci.Cursor, scope: Scope, atomic: bool = False) -> None:
        st = self.state_for(scope)
        found = element(c) if self.conv.accessors else None
        if found is not None:
            ref, index = self._accessor_element(*found, scope)
        elif c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            sub = children(c)
            if len(sub) != 2:
                return
            idx = self.conv.expr(sub[1], scope)
            ref = self.resolve(sub[0], st)
            if ref is None:
                base = strip(sub[0])
                if base.kind != K.DECL_REF_EXPR:
                    self.conv.expr(sub[0], scope)
                return
            index = _add(ref.offset, _scale(ref.width, idx), "+")
        else:  # *p
            operand = deref_operand(c)
            if operand is None:
                return
            ref = self.resolve(operand, st)
            if ref is None:
                self.conv.expr(operand, scope)
                return
            index = ref.offset
        is_target = self.write_target is not None and c == self.write_target
        if is_target and atomic:
            self._record(AccessKind.ATOMIC, ref, index, c, st)
        elif is_target:
            if self.compound:
                self._record(AccessKind.READ, ref, index, c, st)
            self._record(AccessKind.WRITE, ref, index, c, st)
        else:
            self._record(AccessKind.READ, ref, index, c, st)

    def _accessor_element(self, name: str, indices: list[ci.Cursor], scope: Scope) -> tuple[Ref, Expr]:
        """``acc[i][j][k]``: the tensor at the row-major position ``(i * acc.size(1) + j) * acc.size(2) + k``."""
        index: Expr | None = None
        for d, c in enumerate(indices):
            i = self.conv.expr(c, scope)
            index = i if index is None else Bin("+", Bin("*", index, Sym(f"{name}.size({d})", Kind.EXTENT)), i)
        assert index is not None
        return Ref(name, Space.GLOBAL, Num(0), 0, 0), index

    def state_for(self, scope: Scope) -> State:
        if self.cur.scope is scope:
            return self.cur
        ptrs = {**self.cur.ptrs, **scope.ptrs} if scope.ptrs else self.cur.ptrs
        return State(scope, self.cur.guards, ptrs, self.cur.taint)

    def _on_conditional(self, c: ci.Cursor, scope: Scope) -> None:
        """``cond ? a : b``: reads in ``a`` are guarded by ``cond`` and padded with ``b`` (if
        constant), and the other way round; ``a && b`` (``a || b``) anywhere in an expression:
        reads in ``b`` are guarded by ``a`` (by its failing)."""
        if c.kind == K.BINARY_OPERATOR:
            self.visit_cond(c, scope)
            return
        kids = children(c)
        if len(kids) != 3:
            self.conv.visit_children(c, scope)
            return
        cond, a, b = kids
        self.visit_cond(cond, scope)
        pos = self.guards_of(self.conv.atoms(cond, scope))
        neg = self.guards_of(self.conv.atoms(cond, scope, negated=True))
        saved = self._extra_guards, self._ternary_pad
        try:
            for branch, guards, other in ((a, pos, b), (b, neg, a)):
                value = const_value(other, self.src, self.conv.macros)
                self._extra_guards = saved[0] + guards
                pads = any(_pads(g) for g in guards)
                self._ternary_pad = (Padding(value) if value is not None else UNKNOWN_PADDING) \
                    if pads else saved[1]
                before = len(self.recs)
                self.conv.expr(branch, scope)
                if pads and value is not None and not any(r.kind is AccessKind.READ for r in self.recs[before:]):
                    self._repad(branch, scope)
        finally:
            self._extra_guards, self._ternary_pad = saved

    def _repad(self, branch: ci.Cursor, scope: Scope) -> None:
        """``v = (i + 1 < n) ? v : -FLT_MAX``: a value read earlier (a lane of a vector load, a
        running max) re-padded where the guard fails. The ternary is where its padding is set, so
        it is recorded there as a read of the same buffer (no index: nothing to bound), whose
        padding the reductions downstream receive."""
        st = self.state_for(scope)
        reads = sorted(i for k in preorder(branch) if k.kind == K.DECL_REF_EXPR
                       for i in st.taint.get(k.spelling, ()) if self.recs[i].kind is AccessKind.READ)
        if reads:
            src = self.recs[reads[0]]
            self._record(AccessKind.READ, Ref(src.buffer, src.space, Num(0), 1, 1), Num(0), branch, st)

    def _filled(self, rec: Rec, value: float | None) -> None:
        """Note an unconditional store as the buffer's fill, unless it sets only the slots of its
        loop's iterations while an earlier fill covers the rest."""
        loops = tuple((v.name, self.loops[v.name]) for v in syms(rec.index)
                      if v.kind is Kind.LOOP and v.name in self.loops)
        if value is None and loops and rec.buffer in self.filled:
            return
        self.filled[rec.buffer] = value
        self.fill_loops[rec.buffer] = loops if value is None else ()

    def _fill(self, buffer: str) -> float | None | str:
        """What an earlier unconditional store left in a shared buffer ("none": nothing). A store
        of data in a loop (a tile's body, ``s[tx + i * B] = src[i * B]``) sets the slots of that
        loop's iterations only: a later loop over other iterations (its halo) writes slots it never
        set. A constant fill is taken to cover the buffer."""
        fill = self.filled.get(buffer, "none")
        if fill is None and any(self.loops.get(v) is not loop for v, loop in self.fill_loops.get(buffer, ())):
            return "none"
        return fill

    def _record(self, kind: AccessKind, ref: Ref, index: Expr, c: ci.Cursor, st: State) -> None:
        guards = st.guards + self._extra_guards
        pad = None
        # a stride loop fills every slot below its limit: slots past it are not data (no BC201)
        if kind is AccessKind.WRITE and ref.space is Space.SHARED and (st.edges or any(
                g.boundary and not g.exit and not g.stride for g in guards)):
            fill = self._fill(ref.buffer)
            pad = Padding(None, stale=True) if fill == "none" else (
                Padding(fill) if fill is not None else UNKNOWN_PADDING)
        if kind is AccessKind.READ and self._ternary_pad is not None:
            pad = self._ternary_pad
        self.recs.append(Rec(kind, ref.buffer, self.src.span(c), ref.space, recombined(index),
                             max(1, ref.width), guards, self.src.text_of(c), pad, within=tuple(self.open_loops),
                             equal=st.equal, tile_tests=st.tile_tests, calls=tuple(self.conv.calls)))

    _extra_guards: tuple[Guard, ...] = ()
    _ternary_pad: Padding | None = None


def _local_struct(target: ci.Cursor, st: State) -> str | None:
    """The local variable whose field ``target`` is (``r`` of ``r.x``), if it is a plain local."""
    if target.kind != K.MEMBER_REF_EXPR:
        return None
    kids = children(target)
    base = strip(kids[0]) if kids else None
    if base is None or base.kind != K.DECL_REF_EXPR or base.spelling in st.ptrs:
        return None
    ref = base.referenced
    ok = ref is not None and ref.kind == K.VAR_DECL and base.type.get_canonical().kind == ci.TypeKind.RECORD
    return base.spelling if ok else None


def _lower_edge(atoms: list[Comparison]) -> bool:
    """Some comparison keeps a global index (lanes offset by the block) at or above a compile-time
    or loop limit: ``gx >= 0``, ``baseX >= -i * B`` (the left halo of a tile that starts before the
    data); ``i >= n`` is the far side of a runtime extent, not an edge."""
    for a in atoms:
        index, op, limit = upper_form(a.left, a.op, a.right)
        if op in (">", ">=") and lanes(index) and Kind.PROGRAM in kinds(index) \
                and kinds(limit) <= {Kind.CONST, Kind.LOOP}:
            return True
    return False


def _pads(g: Guard) -> bool:
    """Lanes failing the guard take the other value: a bound on a runtime extent, or the active-lane
    test of a block-wide reduction (``lane < num_warps``) whose other lanes must add the identity."""
    return g.boundary or g.split


def _beyond(g: Guard, index: Expr) -> list[Term] | None:
    """The terms the access index adds to the guarded index; None where the access index does not
    hold every term of the guarded one."""
    mine = {terms_text([t]) for t in variable(expand(g.sides[0]))}
    theirs = variable(expand(index))
    if not mine or not mine <= {terms_text([t]) for t in theirs}:
        return None
    return [t for t in theirs if terms_text([t]) not in mine]


def _past_guard(extra: list[Term] | None, counters: set[str], limit: Expr) -> bool:
    """The access lies past the guarded index by ``extra``, which the guard says nothing about: a
    compile-time size (``x[i + blockSize]`` under ``i < n``, a thread's second element), or a
    counted number of strides (``y[i + u * blockDim.x]`` under the unrolled loop's ``i < C``, u one
    of the ``counters`` counting up from 0, with at most a row offset beside it): the guard bounds
    the first element only. Steps by whole multiples of the ``limit`` itself move to another row of
    that length (``t[j * D + i]`` under ``i < D``), where the guard still bounds the column."""
    limit_text = render(limit)
    extra = [t for t in extra or [] if limit_text not in {render(f) for f in t.factors}]
    if not extra:
        return False
    if all(t.coeff > 0 and kinds(Call("", t.factors)) == {Kind.CONST} for t in extra):
        return True
    counted = [t for t in extra if Kind.LOOP in kinds(Call("", t.factors))]
    return bool(counted) and all(
        t.coeff > 0 and kinds(Call("", t.factors)) == {Kind.CONST, Kind.LOOP}
        and all(f.name in counters for f in syms(Call("", t.factors)) if f.kind is Kind.LOOP)
        for t in counted) and all(_row_offset(t) for t in extra if t not in counted)


def _unit_tile(tile: str | None, values: dict[str, int | None]) -> bool:
    """``tile`` is a product of sizes known to be 1."""
    factors = tile_factors(tile) if tile else []
    return bool(factors) and all(f == "1" or values.get(f) == 1 for f in factors)


def _whole_strides(g: Guard, index: Expr, ranges: dict[str, tuple[int, Expr, str]]) -> bool:
    """``x[i + j * blockDim.x]`` (j < ILP) under ``i < n - n % (ILP * blockDim.x)``, i stepping by
    that stride from ``threadIdx.x``: the limit is a whole number of strides, so a thread below it
    has its whole stride below it, and the unrolled elements with it (the tail is left to a loop
    after). The guard bounds every element."""
    limit, guarded = g.sides[1], g.sides[0]
    if not (isinstance(limit, Bin) and limit.op == "-" and isinstance(limit.right, Bin) and limit.right.op == "%"
            and limit.right.left == limit.left):
        return False
    stride = terms_text(expand(limit.right.right))
    terms = variable(expand(guarded))
    lane = [t for t in terms if t.coeff == 1 and t.factors == (Sym("threadIdx.x", Kind.LANE),)]
    steps = [t for t in terms if t not in lane]
    if len(lane) != 1 or not steps or constant(expand(guarded)) or any(
            terms_text([Term(t.coeff, tuple(f for f in t.factors if kinds(f) != {Kind.LOOP}))]) != stride
            or sum(kinds(f) == {Kind.LOOP} for f in t.factors) != 1 for t in steps):
        return False
    extra = [t for t in _beyond(g, index) or [] if not _row_offset(t)]
    return bool(extra) and all(counted(t, ranges) for t in extra) and terms_text(
        collect([Term(1, (Sym("blockDim.x", Kind.CONST),)), *reach(extra, ranges)])) == stride


def _first_of_group(g: Guard, group: Group | None, index: Expr) -> bool:
    """A guard on the start of a group whose width is no number (``a < end`` over ``enc[K * i +
    c]``, 8 * K bytes from ``a``): it bounds the first element only, and nothing the rules can
    weigh against a width, so the access is taken as unguarded by it. One that lets the start reach
    the extent itself (``a - 1 < n``) stays, as the off-by-one it is first."""
    if group is None or group.width is not None or g.bound.admits_extent:
        return False
    extra = _beyond(g, index)
    return bool(extra) and {terms_text([t]) for t in extra} == group.offsets


def _walked_below(g: Guard, guards: tuple[Guard, ...]) -> bool:
    """An inclusive test ``g`` before a block- or grid-stride loop that walks up from the index it
    tests, strictly below the same limit (``if (i > n) return; for (j = i; j < n; j += stride)
    x[j]``): once the index reaches the limit the loop runs no iteration, so ``g`` bounds nothing
    the loop does not."""
    if not g.bound.admits_extent:
        return False
    limit = render(g.sides[1])
    return any(w is not g and w.stride and w.bound.op == "<" and not w.bound.limit_slack
               and render(w.sides[1]) == limit and (extra := _beyond(g, w.sides[0]))
               and all(t.coeff > 0 and kinds(Call("", t.factors)) == {Kind.LOOP, Kind.CONST} for t in extra)
               for w in guards)


def _past_extent(a: Comparison) -> bool:
    """A loop condition that holds only past the extent, ``while ((i + 1) * 4 > V)``: the loop
    runs the partial tile (an unaligned tail handled before the main loop), so it is the tail,
    not full tiles with the tail peeled elsewhere."""
    left, op, right = (a.left, a.op, a.right) if lanes(a.left) else (a.right, FLIP[a.op], a.left)
    return op in (">", ">=") and bool(lanes(left)) and not lanes(right) and Kind.EXTENT in kinds(right)


def _remainder_only(g: Guard, guards: tuple[Guard, ...], index: Expr) -> bool:
    """The guard bounds a remainder of a thread's index (``i = pos % S`` or ``pos & (S - 1)``: its
    place in a segment of S) while the access moves with the rest of that index as well
    (``(pos - i) * 2 + i``, ``pos / S * ld + i``), and no other guard bounds that rest (``pos <
    n``, or ``pos / S < rows`` beside ``pos % S < S``): the guard keeps the place inside its
    segment, not the segment inside the buffer."""
    guarded = g.sides[0]
    rems = _remainders(guarded)
    names = {n for r in rems for n, _ in lanes(r)}
    if not rems or _lanes_outside(guarded, rems, names) or not _lanes_outside(index, rems, names):
        return False
    return not any(_lanes_outside(h.sides[0], rems, names) for h in guards if h is not g and not h.bound.local)


def _remainders(e: Expr) -> list[Expr]:
    """The remainders of lane expressions in ``e``: ``E % D``, ``E & (D - 1)``, ``E & 31``."""
    if not isinstance(e, Bin):
        return [r for a in e.args for r in _remainders(a)] if isinstance(e, Call) else []
    mask = e.right.value if isinstance(e.right, Num) else None
    if lanes(e.left) and not lanes(e.right) and (e.op == "%" or e.op == "&" and (
            isinstance(e.right, Bin) and e.right.op == "-" and e.right.right == Num(1)
            or isinstance(mask, int) and mask > 0 and mask & (mask + 1) == 0)):
        return [e]
    return _remainders(e.left) + _remainders(e.right)


def _lanes_outside(e: Expr, rems: list[Expr], names: set[str]) -> bool:
    """``e`` reaches one of the lanes ``names`` other than through one of ``rems`` (a split of
    the thread's index into its own lanes, ``tid / 32``, is another lane)."""
    if e in rems:
        return False
    match e:
        case Sym(name=name, kind=Kind.LANE):
            return name in names
        case Bin(left=left, right=right):
            return _lanes_outside(left, rems, names) or _lanes_outside(right, rems, names)
        case Call(args=args):
            return any(_lanes_outside(a, rems, names) for a in args)
    return False


def _row_offset(t: Term) -> bool:
    """A term that moves the access to another row (``blockIdx.x * C``): a runtime pitch, no lane."""
    ks = kinds(Call("", t.factors))
    return Kind.EXTENT in ks and Kind.LANE not in ks


def _block_ids(index: Expr, source: str, parts: list[DimPart]) -> frozenset[str]:
    """The block ids that offset ``source``'s lanes in ``index`` (``blockIdx.y`` in ``blockIdx.y *
    TILE + tx``): those of its tile offset, and any inside the lane's own terms (``(by * T + ty) *
    col / 4``), where the terms alone cannot say which lane an offset belongs to."""
    ids = {n for p in parts if p.dim.source == source for n in p.offset_syms}
    ids |= {s.name for t in variable(expand(index)) if any(source == n for f in t.factors for n, _ in lanes(f))
            for f in t.factors for s in syms(f) if s.kind is Kind.PROGRAM}
    return frozenset(n for n in ids if n.startswith("blockIdx."))


def _other_blocks(g: Guard, index: Expr, parts: list[DimPart]) -> bool:
    """The guard offsets the lane by other block ids than the access does: in a transpose,
    ``col = blockIdx.x * T + tx`` and ``n_col = blockIdx.y * T + tx`` share the lane but not
    the element, so ``col < N`` says nothing of ``out[... + n_col]``."""
    guarded = g.sides[0]
    mine = _block_ids(guarded, g.bound.source, dims_of(guarded, g.bound.span))
    theirs = _block_ids(index, g.bound.source, parts)
    return bool(mine) and bool(theirs) and not mine & theirs


def _at_access(g: Guard, bound: Bound, index: Expr) -> Bound:
    """A guard on an offset lane, ``(i + 2) < n`` over ``c[i + 2]`` or ``i < n - 1`` over ``x[i + 1]``,
    bounds the access's own first element by what is left of the offset past the access's (none
    here, so ``(i + 2) <= n`` admits n, and over a pair at i + 2 it checks the pair's first lane
    only). Only up to the offset the guard names: ``row < n`` over ``row_ptr[row + 1]`` bounds an
    array one longer."""
    guarded = g.sides[0]
    at = expand(index)
    shift = constant(at)
    if not 0 < shift <= bound.lane_offset - bound.limit_slack or not float(shift).is_integer() \
            or terms_text(variable(expand(guarded))) != terms_text(variable(at)):
        return bound
    return replace(bound, lane_offset=bound.lane_offset - int(shift))


def _lane_base(source: str) -> str | None:
    """The thread index a warp lane (``threadIdx.x % 32``) is taken from."""
    return source[:-len(" % 32")] if source.endswith(" % 32") else None


def _compared_sources(accesses: list[Access]) -> set[str]:
    """Lane sources some guard of the kernel compares with an extent (no wrap)."""
    return {b.source for a in accesses for b in a.guards if not b.wrap and b.limit_is_extent}


def _warp_base(source: str) -> str | None:
    """The thread index a warp index (``threadIdx.x / 32``) is taken from."""
    return source[:-len(" / 32")] if source.endswith(" / 32") else None


def _column_limit(b: Bound, d: Dim, guards: list[Bound]) -> bool:
    """``threadIdx.x < C`` whose limit already bounds another lane of the access as a tiled index
    (``threadIdx.x % 32 + i * 32 < C``: the column a warp walks) is that column's extent, so it
    stands in for no warp row: rows are counted by another extent, not up to C."""
    return _warp_base(d.source) is not None and any(
        g.limit == b.limit and not g.local and g.index_tiled and g.source not in (b.source, d.source)
        for g in guards)


def _split_thread_stand_ins(dims: tuple[Dim, ...], guards: list[Bound]) -> list[Bound]:
    """``threadIdx.x < M`` over ``A[(blockIdx.x * B + threadIdx.x / B) * K]``: the block-local
    thread index compared with an extent stands in for the row and column it is split into by any
    tile (``threadIdx.x / B``, ``threadIdx.x % B``), as it does for a warp's (``_warp_base``)."""
    out = []
    for d in dims:
        m = re.fullmatch(r"(threadIdx\.[xyz]) [/%] (\w+)", d.source)
        if m is None or _warp_base(d.source) or _lane_base(d.source):
            continue
        out += [replace(b, source=d.source) for b in guards if b.local and b.source == m.group(1)]
    return out


def _split_bases(source: str) -> set[str]:
    """The thread indices a split of a block's linear index (``(threadIdx.y * blockDim.x +
    threadIdx.x) / 32``) is made of; none for any other source."""
    if not source.startswith("("):
        return set()
    inner = source[1:source.rfind(")")]
    return {w for w in re.findall(r"threadIdx\.[xyz]", inner)}


def _split_stand_ins(dims: tuple[Dim, ...], guards: list[Bound]) -> list[Bound]:
    """``threadIdx.y < M`` where the access's row is ``by * BM + tid / 32`` (tid linear in the
    block): the block-local stand-in for that row, as ``threadIdx.x`` is for ``threadIdx.x / 32``,
    so that BC105 names it. Tiled rows only: it bounds no whole-dimension index."""
    return [replace(b, source=d.source) for d in dims if d.tiling is not Tiling.WHOLE
            for b in guards if b.local and b.source in _split_bases(d.source)]


def _checked_warp_rows(accesses: list[Access], split: set[str], unbounded: frozenset[str] = frozenset()) -> list[Access]:
    """The warp index (``threadIdx.x / 32``) is a warp-per-row kernel's row: the offset of its lanes'
    tile, and a dimension of its own only where its guard has something to report (missing,
    block-local, or admitting the extent). Rows are checked only where the kernel compares them
    with an extent somewhere, as a whole-dimension tile is: a launch that sizes the grid to the
    rows exactly, or a per-warp count of chunks, needs no row guard. A row the kernel ``split``s
    by a runtime size (``b = row / T; t = row % T``) is one of B * T rows, a count no grid of
    whole blocks of warps matches in general: it is checked as well. ``unbounded`` names the rows
    kept all the same (a launch rounds them up)."""
    bounded = _compared_sources(accesses) | split
    out = []
    for a in accesses:
        dims = tuple(d for d in a.dims if not _warp_base(d.source) or d.source in bounded
                     and not any(covers(b, d) and not b.admits_extent_for(a.width) for b in a.guards)
                     or d.source in unbounded or d.source in bounded and _loose_bound(a, d))
        out.append(a if len(dims) == len(a.dims) else replace(a, dims=dims))
    return out


def _inside_row(b: Bound, limit: Expr) -> Bound:
    """``lane <= own_pos`` with ``own_pos = row % T`` (or ``row % T / 4``): a position inside the
    program's own row, below T by construction, as a wrap is. It keeps the lane within that row,
    but guards no extent: a row left unguarded makes the access unguarded, not partly guarded."""
    inner = limit
    while isinstance(inner, Bin) and inner.op in ("/", ">>") and not lanes(inner.right):
        inner = inner.left
    if b.limit_is_extent or lanes(limit) or not (isinstance(inner, Bin) and inner.op == "%"):
        return b
    return replace(b, wrap=True)


def _split_by_extent(e: Expr) -> set[str]:
    """The warp rows (``threadIdx.x / 32`` and what is built from it) that ``e`` divides or reduces
    by a runtime size: ``idx / T``, ``idx % T`` of a warp-per-row index."""
    match e:
        case Bin(op=op, left=left, right=right):
            out = _split_by_extent(left) | _split_by_extent(right)
            if op in ("/", "%") and Kind.EXTENT in kinds(right) and not lanes(right):
                out |= {n for n, _ in lanes(left) if _warp_base(n)}
            return out
        case Call(args=args):
            return set().union(*(_split_by_extent(a) for a in args))
    return set()


def _loose_bound(a: Access, d: Dim) -> bool:
    """A guard on the row admits the extent (``t3 + t <= T`` in a loop from the warp's row) where
    every exact guard on it bounds a part of that index only: ``if (t3 >= T) return;`` bounds
    where the loop starts, not how far it runs."""
    exact = [b.index for b in a.guards if covers(b, d) and not b.admits_extent_for(a.width)]
    return any(covers(b, d) and b.admits_extent_for(a.width)
               and all(b.index.startswith(e + " + ") for e in exact) for b in a.guards)


def _uncompared_rows(accesses: list[Access], compared: set[str]) -> frozenset[str]:
    """Global warp rows (``blockIdx.x * warps + threadIdx.x / 32``) that no condition of the kernel
    compares: under a grid rounded up to whole blocks (``ceil_div(N * 32, bs)``) the last block's
    warps pass the rows, and nothing stops them."""
    bounded = _compared_sources(accesses)
    return frozenset(d.source for a in accesses for d in a.dims
                     if _warp_base(d.source) and d.tiling is Tiling.PROGRAM) - bounded - compared


def _global_warp_rows(a: Comparison) -> set[str]:
    """The warp indices a comparison tests together with a block index on one side (``(row + 1) *
    n > total`` with row ``blockIdx.x * warps + warp``): the kernel bounds its global rows its own
    way. ``warp == 0`` (which warp of the block reduces) compares no row."""
    return {s.name for side in (a.left, a.right) if Kind.PROGRAM in kinds(side)
            for s in syms(side) if _is_warp(s)}


def _is_warp(s: Sym) -> bool:
    return s.kind is Kind.LANE and _warp_base(s.name) is not None


def _warp_row_limit(a: Comparison) -> Comparison:
    """``lane < f(row)`` in a warp-per-row kernel (``i < own_pos / 4`` with own_pos from the warp's
    row) bounds the lane by a limit that is fixed for the warp: the warp index (on either side) is
    the row's offset, as a block index is, not a second lane (which would make it a causal mask)."""
    sides = [{s.name for s in syms(e) if s.kind is Kind.LANE} for e in (a.left, a.right)]
    for mine, theirs in (sides, sides[::-1]):
        if mine and theirs and all(map(_warp_base, mine)) and not all(map(_warp_base, theirs)):
            # the row is the same on both sides: ``4 * (row % T / 4) + lane <= row % T`` bounds
            # the lane within its row, and says nothing of the row itself
            return replace(a, left=_warp_as_offset(a.left), right=_warp_as_offset(a.right))
    return a


def _warp_as_offset(e: Expr) -> Expr:
    if isinstance(e, Sym):
        return Sym(e.name, Kind.PROGRAM) if _is_warp(e) else e
    if isinstance(e, Bin):
        return Bin(e.op, _warp_as_offset(e.left), _warp_as_offset(e.right))
    if isinstance(e, Call):
        return Call(e.fn, tuple(_warp_as_offset(x) for x in e.args))
    return e


def _row_of(index: Expr, bound: Bound) -> bool:
    """The index offsets a block by exactly the bound's limit (``blockIdx.x * BINS + t`` with
    ``t < BINS``): the bound keeps each block inside its own row."""
    for t in variable(expand(index)):
        rest = [render(f) for f in t.factors if Kind.PROGRAM not in kinds(f)]
        if len(rest) < len(t.factors) and t.coeff > 0 and " * ".join(_product(t.coeff, rest)) == bound.limit:
            return True
    return False


def _literal_rows(a: Comparison) -> list[Bound]:
    """``tid < 64`` (a literal, which bounds_of leaves out as a bound inside a tile) on a block's
    own index: the length of a row each block writes (``out[blockIdx.x * 64 + tid]``), as
    ``tid < BINS`` is with a named size. Used for that only."""
    index, op, limit = upper_form(a.left, a.op, a.right)
    if op != "<" or not isinstance(limit, Num) or lanes(limit) or not lanes(index) or Kind.PROGRAM in kinds(index):
        return []
    return [Bound(lane, render(index), "<", render(limit), False, a.span, local=True, axis=axis)
            for lane, axis in sorted(lanes(index), key=str)]


def _rest_of_row(index: Expr, g: Guard) -> bool:
    """Past the block's row offset, the index is the guarded one itself, and whole rows of the
    guard's length (a warp's row ``tid / 32 * 128`` beside its lanes ``tid % 32 * 4 < 128``)."""
    rest = [t for t in variable(expand(index)) if not any(Kind.PROGRAM in kinds(f) for f in t.factors)]
    guarded = variable(expand(g.sides[0]))
    own = {terms_text([t]) for t in guarded}
    others = [t for t in rest if terms_text([t]) not in own]
    mine = lanes(g.sides[0])
    return constant(expand(index)) == 0 and terms_text([t for t in rest if t not in others]) == terms_text(guarded) \
        and all(_whole_rows(t, g.bound.limit, mine) for t in others)


def _whole_rows(t: Term, length: str, mine: set[tuple[str, int | None]]) -> bool:
    """``t`` steps by whole rows of ``length``: a factor of it, a multiple of a literal length, or
    a runtime pitch (``token * stride_token``, a warp's ``warp * stride``: the next row of a strided
    layout) of other lanes than ``mine``."""
    ks = kinds(Call("", t.factors))
    if any(render(f) == length for f in t.factors) or Kind.EXTENT in ks and not lanes(Call("", t.factors)) & mine:
        return True
    return length.isdigit() and int(length) > 0 and float(t.coeff).is_integer() and int(t.coeff) % int(length) == 0


def _lane_tile(lane: Expr) -> str | None:
    """How many values a lane symbol takes: ``threadIdx.x % 32`` → 32, ``threadIdx.x`` → blockDim.x."""
    if not isinstance(lane, Sym):
        return None
    if lane.name.startswith("threadIdx.") and " " not in lane.name:
        return "blockDim." + lane.name.rsplit(".", 1)[1]
    if lane.name.endswith(" % 32"):
        return "32"
    return None


def _product(coeff: float, factors: list[str]) -> list[str]:
    """Factors of ``coeff * f1 * f2 …`` with the numbers multiplied into one."""
    num = coeff
    rest = []
    for f in factors:
        if f.isdigit():
            num *= int(f)
        else:
            rest.append(f)
    return ([str(int(num))] if num != 1 else []) + sorted(rest)


def _prefix_count(e: Expr, span: Span) -> FloorDiv | None:
    """``(row + 1) / TILE`` tiles for the causal prefix 0..row of a program's or loop's own row:
    row + 1 elements, floored, so the tiles stop short of the row itself. A tile of 2 or less
    would make the ``+ 1`` a ceiling of ``row / 2``, so only larger or symbolic tiles count."""
    if not (isinstance(e, Bin) and e.op == "/") or lanes(e) or kinds(e.right) - {Kind.CONST}:
        return None
    terms = expand(e.left)
    index = [t for t in terms if t.factors]
    if constant(terms) != 1 or not index or kinds(e.left) - {Kind.PROGRAM, Kind.LOOP} \
            or (isinstance(e.right, Num) and e.right.value <= 2):
        return None
    return FloorDiv(extent=render(e.left), tile=render(e.right), span=span, text=render(e))


def _fixed_span(g: Guard) -> Guard:
    """A block-stride loop's own condition against a compile-time size (``for (k = threadIdx.z;
    k < x128::size; k += blockDim.z)``) walks the elements of a fixed-size vector or row, split
    among the threads: in range by construction, as a wrap is, so it bounds no extent and makes
    no access partially guarded (an access inside it with no extent guard is unguarded)."""
    limit = g.sides[1]
    if not g.stride or g.grid_stride or g.bound.wrap or not kinds(limit) or not kinds(limit) <= {Kind.CONST}:
        return g
    return replace(g, bound=replace(g.bound, wrap=True))


def _lane_quotients(indices: list[Expr], values: dict[str, int | None]) -> dict[str, int] | None:
    """Where every lane of ``indices`` enters only divided by a constant (``threadIdx.x / 32 /
    8``, a warp's group of a block; the warp index is the converter's lane ``threadIdx.x / 32``):
    the least divisor by thread index. None where a lane enters whole."""
    found: dict[str, int] = {}

    def number(size: str) -> int | None:
        v = int(size) if size.isdigit() else values.get(size)
        return v if v is not None and v > 0 else None

    def walk(e: Expr, divisor: int) -> bool:
        if not lanes(e):
            return True
        if isinstance(e, Sym):
            name, by = split_quotient(e.name) or (e.name, "1")
            d = number(by)
            if d is None:
                return False
            found[name] = min(found.get(name, divisor * d), divisor * d)
            return divisor * d > 1
        if isinstance(e, Bin) and e.op == "/" and isinstance(e.right, (Num, Sym)) \
                and (d := number(render(e.right))) is not None:
            return walk(e.left, divisor * d)
        if isinstance(e, Bin) and divisor == 1 and e.op in ("+", "-"):
            return walk(e.left, 1) and walk(e.right, 1)
        return False

    return found if indices and all(walk(i, 1) for i in indices) and found else None


def _fixed_region(cond: ci.Cursor | None, var: str, step: tuple[int, ci.Cursor | None] | None) -> bool:
    """``for (i0 = 0; i0 < I; i0 += S)`` with ``I`` and ``S`` constants, ``S`` dividing ``I``
    (``constexpr int I = 128``, ``i0 += 32``): a region of a size fixed at compile time, walked in
    whole steps. A bound left symbolic (a template parameter) can be a head size the host picks
    from the input, 80 walked by 32, and is no such region."""
    c = strip(cond) if cond is not None else None
    if c is None or c.kind != K.BINARY_OPERATOR or binary_op(c) != "<":
        return False
    kids = children(c)
    if len(kids) != 2 or strip(kids[0]).kind != K.DECL_REF_EXPR or strip(kids[0]).spelling != var \
            or step is None or step[0] < 0 or step[1] is None:
        return False
    stop, by = evaluate(kids[1]), evaluate(step[1])
    return isinstance(stop, int) and isinstance(by, int) and by > 0 and stop % by == 0


def _step_operand(name: str, cursors: list[ci.Cursor]) -> tuple[int, ci.Cursor | None] | None:
    """How ``name`` is advanced per iteration: its sign and the operand added (None for ``++``)."""
    for c in cursors:
        for k in _assignments(c):
            if k.kind == K.UNARY_OPERATOR and unary_op(k) in ("++", "post++"):
                kids = children(k)
                if kids and strip(kids[0]).kind == K.DECL_REF_EXPR and strip(kids[0]).spelling == name:
                    return 1, None
            if k.kind not in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
                continue
            kids = children(k)
            op = binary_op(k)
            if len(kids) != 2 or strip(kids[0]).kind != K.DECL_REF_EXPR or strip(kids[0]).spelling != name:
                continue
            if op in ("+=", "-="):
                return (1 if op == "+=" else -1), kids[1]
            rhs = strip(kids[1])
            if op == "=" and rhs.kind == K.BINARY_OPERATOR and binary_op(rhs) == "+":
                parts = children(rhs)
                if len(parts) == 2 and strip(parts[0]).kind == K.DECL_REF_EXPR and strip(parts[0]).spelling == name:
                    return 1, parts[1]
    return None


def _walk_down_top(start: Expr, step: Expr) -> Expr | None:
    """``for (i = top + threadIdx.x - blockDim.x; i >= 0; i -= blockDim.x)`` walks a block's lanes
    down from just below ``top``: the index stays under it by construction, as under a guard."""
    terms = expand(start)
    lane = [t for t in terms if t.coeff == 1 and t.factors == (Sym("threadIdx.x", Kind.LANE),)]
    width = [t for t in terms if t.coeff == -1 and t.factors == (Sym("blockDim.x", Kind.CONST),)]
    down = [t for t in expand(step) if t.factors]
    if not (lane and width and down and all(t.coeff < 0 for t in down)):
        return None
    rest = [t for t in terms if t is not lane[0] and t is not width[0]]
    if lanes(Call("", tuple(f for t in rest for f in t.factors))) or not variable(rest):
        return None
    top: Expr = Num(constant(rest))
    for t in variable(rest):
        part: Expr = Num(t.coeff)
        for f in t.factors:
            part = Bin("*", part, f) if part != Num(1) else f
        top = Bin("+", top, part) if top != Num(0) else part
    return top


def _per_warp(start: Expr) -> bool:
    """A counter started at the warp index (``for (i = warpId; i < n / T; i += warps)``) deals
    the same tiles out over the warps: its limit counts tiles as one from 0 would."""
    return bool(lanes(start)) and all(_is_warp(s) for s in syms(start))


def _times(it: Expr, step: Expr | None) -> Expr:
    return it if step is None or step == Num(1) else Bin("*", it, step)


def _add(a: Expr, b: Expr, op: str) -> Expr:
    if a == Num(0) and op == "+":
        return b
    return Bin(op, a, b)


def _scale(w: int, e: Expr) -> Expr:
    return e if w == 1 else Bin("*", Num(w), e)


def is_index(e: Expr) -> bool:
    return bool(kinds(e) & {Kind.LANE, Kind.PROGRAM, Kind.LOOP, Kind.EXTENT, Kind.CONST}) or isinstance(e, Num)


def _is_product(c: ci.Cursor) -> bool:
    c = strip(c)
    return c.kind == K.BINARY_OPERATOR and binary_op(c) == "*" or (
        c.kind == K.CALL_EXPR and c.spelling in ("__fmul_rn", "__hmul"))


def _strided_only(bounded: Expr, index: Expr) -> bool:
    """Every lane term of the bounded expression appears in the index only times a runtime
    stride (``row * K``), or not at all (a guard on another index of the same threads): the
    bound is not on the elements a vector spans."""
    lane_terms = _lane_terms(bounded)
    index_terms = variable(expand(index))
    return bool(lane_terms) and not any(
        (rest := _factors_past(lt, t)) is not None and not any(kinds(f) & {Kind.EXTENT, Kind.OTHER} and not lanes(f) for f in rest)
        for lt in lane_terms for t in index_terms)


def _lane_terms(e: Expr) -> list[Term]:
    return [t for t in variable(expand(e)) if lanes(Call("", t.factors))]


def _factors_past(part: Term, term: Term) -> list[Expr] | None:
    """The factors of ``term`` past those of ``part`` (``term`` = ``part`` times them), or None
    where ``term`` does not hold every factor of ``part``."""
    missing = Counter(render(f) for f in part.factors)
    rest = []
    for f in term.factors:
        if missing[render(f)] > 0:
            missing[render(f)] -= 1
        else:
            rest.append(f)
    return None if +missing else rest


def _divmod_of(bounded: Expr, index: Expr) -> bool:
    """The bounded expression is the row or column of the access's own first element
    (``i * 4 / col``, ``i * 4 % col``, a float4 at ``i * 4``): its lanes run on along that
    column, so the guard checks the first lane only, as one on the index itself does."""
    own = terms_text(expand(index))
    return any(isinstance(f, Bin) and f.op in ("/", "%") and terms_text(expand(f.left)) == own
               for t in variable(expand(bounded)) for f in t.factors)


def _scales(index: Expr, var: str, tile: set[str]) -> bool:
    """Some term of the index is the loop counter times the tile (or a factor of it)."""
    for t in variable(expand(index)):
        names = [render(f) for f in t.factors]
        coeff = str(int(abs(t.coeff))) if float(t.coeff).is_integer() else ""
        if var in names and ((set(names) - {var}) & tile or coeff in tile):
            return True
    return False


def _compile_time_if(src: Source, c: ci.Cursor) -> bool:
    """``if constexpr (…)``: an ``if`` each instantiation of the template resolves at compile time."""
    at = first(c).offset + 2  # past `if`: a look at the bytes, asked of every `if` walked
    return src.data[at:at + 48].lstrip().startswith(b"constexpr")


def _common_exits(then: tuple[Guard, ...], other: tuple[Guard, ...]) -> tuple[Guard, ...]:
    """The exits both sides of an ``if constexpr`` take (``{ if (x >= n || y >= m) return; } else
    { if (x >= n) return; }``: x < n): every instantiation passed one side's, so they hold after it."""
    def key(g: Guard) -> tuple:
        return g.bound.source, g.bound.index, g.bound.op, g.bound.limit, g.bound.limit_slack
    theirs = {key(g) for g in other if g.exit}
    return tuple(g for g in then if g.exit and key(g) in theirs)


def _clamped(cond: ci.Cursor, name: str, then_st: State, else_st: State, conv: Converter) -> Expr:
    """A local after ``if (x > C) x = C;``: ``min(x, C)`` (``max`` for ``if (x < C) x = C;``);
    any other one-armed change leaves it unknown."""
    s = strip(cond)
    kids = children(s) if s.kind == K.BINARY_OPERATOR else []
    op = binary_op(s) if len(kids) == 2 else ""
    if op in (">", ">=", "<", "<=") and strip(kids[0]).kind == K.DECL_REF_EXPR and strip(kids[0]).spelling == name:
        bound = conv.quiet_expr(kids[1], else_st.scope)
        before = else_st.scope.env.get(name)
        if before is not None and then_st.scope.env.get(name) == bound and not lanes(bound):
            return Call("min" if op in (">", ">=") else "max", (before, bound))
    return Sym(name, Kind.OTHER)


def _in_vector_units(bounded: Expr, index: Expr, w: int) -> bool:
    """The guard counts vectors, not elements: the access's element index is a multiple of ``w``
    in every term (``&x[i * 2]``, ``(row * C + i) * 2``, a ``float2`` pointer at ``p[i]``) and each
    lane term of the bounded expression appears in it times ``w`` (``i < n``, not ``2 * i < n`` or
    ``4 * i + 3 < n + 3``): the ``w`` lanes stay inside vector ``i``, whose count the guard bounds."""
    def multiple(c: float, m: float) -> bool:
        return m != 0 and float(c / m).is_integer()
    terms = expand(index)
    lane_terms = _lane_terms(bounded)
    if not lane_terms or not all(multiple(t.coeff, w) for t in terms):
        return False
    return all(any(_factors_past(lt, t) is not None and multiple(t.coeff, w * lt.coeff) for t in variable(terms))
               for lt in lane_terms)


def _aligned_below(bounded: Expr, limit: Expr, index: Expr, w: int, values: dict[str, int | None]) -> bool:
    """Vectors at multiples of ``w`` under a compile-time limit that is one too (``lane * 4 < 128``
    over ``row * 128 + lane * 4``, or a row at a runtime pitch): the first lane below the limit puts
    the whole vector below it."""
    n = limit.value if isinstance(limit, Num) else values.get(limit.name) if isinstance(limit, Sym) else None
    if not isinstance(n, (int, float)) or isinstance(n, bool) or n <= 0 or not float(n / w).is_integer():
        return False
    return all(float(t.coeff / w).is_integer() for t in expand(bounded)) \
        and all(float(t.coeff / w).is_integer() or _whole_rows(t, render(limit), lanes(bounded)) for t in expand(index))


def _divides_by(limit: Expr, w: int, values: dict[str, int | None]) -> bool:
    """The limit counts groups of a multiple of ``w`` elements (``n / 4``, ``n >> 2``, ``n / UNROLL``
    with ``const int UNROLL = 4``): a w-wide vector inside group i stays below the extent."""
    for t in expand(limit):
        for f in t.factors:
            if not isinstance(f, Bin) or f.op not in ("/", ">>"):
                continue
            d = f.right.value if isinstance(f.right, Num) else values.get(f.right.name) if isinstance(f.right, Sym) else None
            if isinstance(d, int) and not isinstance(d, bool) and d >= 0:
                group = d if f.op == "/" else 1 << min(d, 62)
                if group >= w and group % w == 0:
                    return True
    return False


def _retile(dim: Dim, index: Expr, offset_syms: frozenset[str]) -> Dim:
    """Name the tile by the block / loop step that offsets the lane (``blockIdx.x * TILE``)."""
    if " % " in dim.source:
        dim = replace(dim, tile=dim.source.rsplit(" % ", 1)[1])
    terms = [t for t in variable(expand(index))
             if lanes(Call("", t.factors)) or {s.name for f in t.factors for s in syms(f)
                                               if s.kind in (Kind.PROGRAM, Kind.LOOP)} <= offset_syms]
    lane_terms = [t for t in terms if any(s.name == dim.source and s.kind is Kind.LANE
                                          for f in t.factors for s in syms(f))]
    if len(lane_terms) != 1:
        return dim
    lt = lane_terms[0]
    stride = sorted(render(f) for f in lt.factors if not lanes(f))
    tiles = set()
    for t in terms:
        if lanes(Call("", t.factors)):
            continue
        moving = [f for f in t.factors if kinds(f) & {Kind.PROGRAM, Kind.LOOP}]
        rest = sorted(render(f) for f in t.factors if f not in moving)
        if not moving or any(Kind.LANE in kinds(f) for f in moving):
            continue
        for s in stride:
            if s in rest:
                rest.remove(s)
            else:
                break
        else:
            coeff = t.coeff / lt.coeff if lt.coeff else 0
            if coeff == 1 and rest:
                tiles.add(" * ".join(rest))
            elif float(coeff).is_integer() and coeff > 0:
                tiles.add(" * ".join([str(int(coeff)), *rest]) if rest else str(int(coeff)))
    if len(tiles) == 1:
        return replace(dim, tile=tiles.pop())
    return dim


def _exit_statement(c: ci.Cursor) -> ci.Cursor | None:
    if c.kind == K.COMPOUND_STMT:
        kids = children(c)
        if len(kids) != 1:
            return None
        c = kids[0]
    return c if c.kind in (K.RETURN_STMT, K.CONTINUE_STMT, K.BREAK_STMT) else None


def _is_test(c: ci.Cursor) -> bool:
    """A comparison or a logical combination of them: a condition, whatever type holds it."""
    c = strip(c)
    return c.kind == K.BINARY_OPERATOR and binary_op(c) in COMPARISONS


def _binary_operators(body: ci.Cursor) -> list[ci.Cursor]:
    """The binary operators in a helper's body, listed once per body: a helper is inlined at each
    of its calls, and its tail starts are read at each under that call's arguments."""
    found = getattr(body, "_bc_binaries", None)
    if found is None:
        found = body._bc_binaries = [k for k in preorder(body) if k.kind == K.BINARY_OPERATOR]
    return found


class Writes:
    """Where a kernel body writes each local (offsets), and the offset ranges of its loops: read
    once, for the first-value test of :func:`_quotient_of`."""

    def __init__(self, body: ci.Cursor) -> None:
        self.body = body
        self._read: tuple[dict[ci.Cursor, list[int]], list[tuple[int, int]]] | None = None

    def first_value_at(self, var: ci.Cursor, c: ci.Cursor) -> bool:
        """No write to ``var`` comes before ``c``, or after it inside a loop that holds ``c``."""
        if self._read is None:
            writes: dict[ci.Cursor, list[int]] = {}
            loops = []
            for w in preorder(self.body):
                if w.kind in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT):
                    loops.append((first(w).offset, last(w).offset))
                if (name := written_variable(w)) is not None:
                    writes.setdefault(name, []).append(first(w).offset)
            self._read = writes, loops
        writes, loops = self._read
        at = first(c).offset
        around = [(a, b) for a, b in loops if a <= at <= b]
        return all(where > at and not any(a <= where <= b for a, b in around) for where in writes.get(var, []))


def _quotient_of(c: ci.Cursor, writes: Writes) -> ci.Cursor:
    """The division an integer local ``c`` names is initialised with (``const int n_vec = n / 4;``),
    else ``c``. A local that is not ``const`` names its first value where the body writes it
    nowhere before ``c`` and in no loop around ``c`` (``int iters = n / T; int tail = iters * T + tx;``
    before ``iters++``)."""
    s = strip(c)
    ref = s.referenced if s.kind == K.DECL_REF_EXPR else None
    if ref is None or ref.kind != K.VAR_DECL or not is_integer(ref):
        return c
    init = initializer(ref)
    init = strip(init) if init is not None else None
    if init is None or init.kind != K.BINARY_OPERATOR or binary_op(init) != "/":
        return c
    return init if ref.type.is_const_qualified() or writes.first_value_at(ref, c) else c


def _address_of(c: ci.Cursor) -> ci.Cursor | None:
    """The subscript ``x[i]`` of ``&x[i]`` (through casts and parentheses)."""
    c = strip(c)
    while c.kind in (K.CSTYLE_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_CONST_CAST_EXPR):
        kids = [k for k in children(c) if k.kind != K.TYPE_REF]
        if not kids:
            return None
        c = strip(kids[-1])
    if c.kind != K.UNARY_OPERATOR or unary_op(c) != "&":
        return None
    kids = children(c)
    inner = strip(kids[0]) if kids else None
    return inner if inner is not None and inner.kind == K.ARRAY_SUBSCRIPT_EXPR and len(children(inner)) == 2 else None


def _assignments(c: ci.Cursor) -> list[ci.Cursor]:
    """The assignments and increments in ``c``'s subtree, in source order."""
    return [c, *_assignments_below(c)] if _is_assignment(c) else _assignments_below(c)


def _is_assignment(c: ci.Cursor) -> bool:
    kind = c.kind
    return kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and binary_op(c) in _ASSIGN \
        or kind == K.UNARY_OPERATOR and unary_op(c) in ("++", "--", "post++", "post--")


def _assignments_below(c: ci.Cursor) -> list[ci.Cursor]:
    """The assignments strictly inside ``c``. Cached per cursor and built bottom-up, so nested
    loops (each asking for its body's) cost one walk in all; a cursor never lists itself, as
    that reference cycle would keep the whole translation unit alive until a full collection."""
    below = getattr(c, "_bc_below", None)
    if below is not None:
        return below
    order, stack = [], [c]
    while stack:  # pre-order, not entering subtrees already done: reversed, children come first
        node = stack.pop()
        if getattr(node, "_bc_below", None) is None:
            order.append(node)
            stack += child_list(node)
    for node in reversed(order):
        node._bc_below = [a for k in child_list(node)
                          for a in ([k, *k._bc_below] if _is_assignment(k) else k._bc_below)]
    return c._bc_below


def _assigned_names(c: ci.Cursor) -> set[str]:
    out = set()
    for k in _assignments(c):
        kids = children(k)
        target = strip(kids[0]) if kids else None
        if target is not None and target.kind == K.DECL_REF_EXPR:
            out.add(target.spelling)
    return out


def _arguments(call: ci.Cursor) -> list[ci.Cursor]:
    """A call's arguments, also of a call a dependent template argument leaves unresolved (whose
    children are the callee's reference and then the arguments)."""
    args = arguments(call)
    if args or call.spelling:
        return args
    return children(call)[1:]


def _never_negative(rhs: ci.Cursor) -> bool:
    """``fabsf(x[i])``, ``static_cast<float>(sqrtf(v))``: a value no lane can make negative."""
    r = strip(rhs)
    while r.kind in (K.CXX_STATIC_CAST_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR) and children(r):
        r = strip(children(r)[-1])
    return r.kind == K.CALL_EXPR and callee(r) in _NONNEG


def _helper_reduction(fn: ci.Cursor, helpers: dict[str, ci.Cursor], accumulates: bool) -> Reduction | None:
    """What a reduction helper computes, through the helpers it calls (a block max built from a
    warp max: ``block_reduce_max`` → ``warp_reduce_max`` → ``fmaxf``). A helper that combines no
    lanes and no iterations (``fminf(scale, FLT_MAX)``, a clamp) reduces nothing unless its result
    is folded into its own argument (``m = max2(m, x[i])``: ``accumulates``)."""
    seen, todo, calls, adds, combines = {fn.spelling}, [fn], set(), False, accumulates
    while todo:
        f = todo.pop()
        for c in preorder(f):
            if c.kind == K.CALL_EXPR:
                calls.add(c.spelling)
                combines = combines or c.spelling.startswith(("__shfl", "__reduce_")) or c.spelling in BARRIERS
                if c.spelling in helpers and c.spelling not in seen and len(seen) < 4:
                    seen.add(c.spelling)
                    todo.append(helpers[c.spelling])
            elif c.kind == K.CONDITIONAL_OPERATOR:
                calls.add(_selected(c))
            combines = combines or c.kind in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT)
            adds = adds or c.kind == K.COMPOUND_ASSIGNMENT_OPERATOR and binary_op(c) == "+="
    if not combines:
        return None
    if calls & _MAX:
        return Reduction.MAX
    if calls & _MIN:
        return Reduction.MIN
    return Reduction.SUM if adds else None


def _selected(c: ci.Cursor) -> str:
    """``(a.m > b.m) ? a : b`` (also through a bool local) selects the larger: "max"; the smaller:
    "min" (an online-softmax merge of (max, sum) pairs keeps the larger max); else ""."""
    kids = children(c)
    if len(kids) != 3:
        return ""
    cond, a, b = strip(kids[0]), kids[1], kids[2]
    if cond.kind == K.DECL_REF_EXPR:
        decl = cond.referenced  # the local the name refers to (not a search by spelling: shadowing)
        init = next((k for k in child_list(decl) if k.kind.is_expression()), None) \
            if decl is not None and decl.kind == K.VAR_DECL else None
        cond = strip(init) if init is not None else cond
    op = binary_op(cond) if cond.kind == K.BINARY_OPERATOR else ""
    sides = children(cond) if op in ("<", "<=", ">", ">=") else []
    names = [_root_name(k) for k in [*sides, a, b]]
    if len(sides) != 2 or None in names or names[0] == names[1] or {names[2], names[3]} != {names[0], names[1]}:
        return ""
    return "max" if (names[2] == names[0]) == (op in (">", ">=")) else "min"


def _root_name(c: ci.Cursor) -> str | None:
    """The variable an expression is a field of, or is (``a`` of ``a.m``)."""
    c = strip(c)
    while c.kind == K.MEMBER_REF_EXPR and children(c):
        c = strip(children(c)[0])
    return c.spelling if c.kind == K.DECL_REF_EXPR else None


def _group_reduction(call: ci.Cursor, src: Source) -> Reduction | None:
    """``cg::reduce(warp, v, cg::greater<float>{})``: the operator object names the reduction."""
    args = _arguments(call)
    if callee(call) != "reduce" or len(args) != 3:
        return None
    op = _GROUP_OP.search(src.text_of(args[2]))
    return _GROUP_OPS[op.group(1)] if op else None


def divisibility(conv: Converter, c: ci.Cursor, scope: Scope, origin: str,
                 negated: bool = False, depth: int = 0) -> list[Divisibility]:
    """The ``a % b`` a condition holds zero in all its conjuncts (``a % b == 0 && …``); with
    ``negated``, those it holds non-zero in one of its disjuncts (``n % B != 0 || …``, ``n % B``,
    ``n % B > 0``): the facts past an early rejection. ``!x`` flips the reading, and a local flag
    set once (``const bool full = n % T == 0;``) reads as its test. Reading a condition for facts
    records no access."""
    c = strip(c)
    kids = children(c)
    if c.kind == K.UNARY_OPERATOR and unary_op(c) == "!" and kids:
        return divisibility(conv, kids[0], scope, origin, not negated, depth)
    flag = scope.flag(c.spelling) if c.kind == K.DECL_REF_EXPR and depth < 4 else []
    if len(flag) == 1 or flag and not negated:  # a flag set once (`const bool full = n % T == 0;`)
        return [d for test, at in flag for d in divisibility(conv, test, at, origin, negated, depth + 1)]
    if c.kind == K.CALL_EXPR and depth < 4 and (predicate := _predicate(c)) is not None:
        test, names = predicate  # `shape_ok(k, n)`, a helper that returns `n % 64 == 0 && …`
        bound = Scope({n: conv.quiet_expr(a, scope) for n, a in zip(names, arguments(c))}, scope.kinds)
        return divisibility(conv, test, bound, origin, negated, depth + 1)
    if c.kind != K.BINARY_OPERATOR or len(kids) != 2:
        return []
    op = binary_op(c)
    if op == ("||" if negated else "&&"):
        return divisibility(conv, kids[0], scope, origin, negated, depth) \
            + divisibility(conv, kids[1], scope, origin, negated, depth)
    if negated and op == "%":
        return _remainder(conv, c, scope, origin)
    if op == "==" and not negated:
        return equality_facts(conv, kids[0], kids[1], scope, origin)
    if op not in ("!=", ">") or not negated:
        return []
    for mod, zero in [(kids[0], kids[1])] if op == ">" else [(kids[0], kids[1]), (kids[1], kids[0])]:
        if conv.quiet_expr(zero, scope) == Num(0):
            return _remainder(conv, strip(mod), scope, origin)
    return []


def _predicate(call: ci.Cursor) -> tuple[ci.Cursor, list[str]] | None:
    """The test a called function returns as its whole body (``return k % kBlockK == 0 && …;``),
    with its parameters' names, for a call that passes each of them."""
    decl = call.referenced
    fn = decl.get_definition() if decl is not None and decl.kind == K.FUNCTION_DECL else None
    test = returned_expr(fn) if fn is not None else None
    names = [p.spelling for p in params(fn)] if test is not None else []
    if test is None or len(names) != len(arguments(call)) or not all(names):
        return None
    return test, names


def equality_facts(conv: Converter, left: ci.Cursor, right: ci.Cursor, scope: Scope, origin: str) -> list[Divisibility]:
    """What ``left == right`` holds zero: ``n % B == 0`` (either way round), or ``x == y * W``."""
    for mod, zero in [(left, right), (right, left)]:
        if conv.quiet_expr(zero, scope) == Num(0):
            return _remainder(conv, strip(mod), scope, origin)
    return _multiple_of(conv, left, right, scope, origin) or _multiple_of(conv, right, left, scope, origin)


def _multiple_of(conv: Converter, side: ci.Cursor, product: ci.Cursor, scope: Scope, origin: str) -> list[Divisibility]:
    """``x == y * W`` with W a compile-time size: x is a multiple of W (``TORCH_CHECK(w.size(1) ==
    s.size(1) * 8)``). A runtime factor is no tile (``n == rows * cols`` says nothing of n / 256)."""
    terms = expand(conv.quiet_expr(product, scope))
    if len(terms) != 1 or not variable(terms):
        return []  # `i == 0`, `a == b + c`: no product (the common case, settled before the other side)
    value = conv.quiet_expr(side, scope)
    if not variable(expand(value)) or lanes(value):
        return []
    term = terms[0]
    coeff = int(term.coeff) if float(term.coeff).is_integer() else 1
    sizes = [render(f) for f in term.factors if kinds(f) <= {Kind.CONST}] + ([str(coeff)] if coeff > 1 else [])
    return [Divisibility(render(value), size, origin) for size in sizes]


def _remainder(conv: Converter, mod: ci.Cursor, scope: Scope, origin: str) -> list[Divisibility]:
    """``a % b`` as the fact ``a % b == 0``, and as ``a % 8 == 0`` too where b is a compile-time
    size of known value (``n % x128::size``); nothing for another expression."""
    parts = children(mod)
    if mod.kind != K.BINARY_OPERATOR or binary_op(mod) != "%" or len(parts) != 2:
        return []
    extent, tile = render(conv.quiet_expr(parts[0], scope)), render(conv.quiet_expr(parts[1], scope))
    value = evaluate(parts[1])
    numeric = [Divisibility(extent, str(value), origin)] if isinstance(value, int) and value > 1 and str(value) != tile else []
    return [Divisibility(extent, tile, origin), *numeric]


def padded_rows(kernel: Kernel) -> None:
    """A W-wide access guarded in vector units rounded up (``i < ceil_div(V, 4)``) reads up to
    W - 1 elements past V, inside its row where the row pitch P (``idx * P + 4 * i``) is a multiple
    of W, as a padded pitch is (``P = (V + 63) & ~63`` on the host): the whole vector is in the row."""
    facts = [f for f in kernel.contracts if not f.between_sizes and f.tile.isdigit()]
    for i, a in enumerate(kernel.accesses):
        w = a.width
        if w <= 1 or a.space is not Space.GLOBAL or not facts:
            continue
        padded = [d for d in a.dims if any(f.extent in d.pitches and int(f.tile) % w == 0 for f in facts)]
        guards = tuple(replace(b, lane_offset=b.lane_offset + w - 1)
                       if b.lane_offset == 0 and _rounded_up_units(b.limit, w) and any(covers(b, d) for d in padded)
                       else b for b in a.guards)
        if guards != a.guards:
            kernel.accesses[i] = replace(a, guards=guards)


def _rounded_up_units(limit: str, w: int) -> bool:
    """``ceil_div(V, 4)`` (``cdiv``, ``div_ceil``): a count of W-wide vectors rounded up. The
    written-out ``(V + 3) / 4`` is taken as whole vectors already (see ``_divides_by``)."""
    return bool(re.fullmatch(rf"(?:ceil_div|cdiv|div_ceil)\(.+, {w}\)", limit))


def assume_comments(src: Source, fn: ci.Cursor, prose: bool = False, sizes: set[str] = frozenset()) -> list[Divisibility]:
    """``// boundcheck: assume K % TILE == 0`` inside the function or on the lines just above it;
    with ``prose`` (a kernel's own documentation), also the divisibility its comments state in
    words between its parameters and the compile-time ``sizes`` it sees (``// n must be a multiple
    of 4``, ``// assume width divisible by THREADS_X``: :func:`~boundcheck.prose.stated_multiples`)."""
    start, end = first(fn).line, last(fn).line
    lines = src.lines
    out = []
    top = start - 1
    while top > 0 and lines[top - 1].strip().startswith(("//", "/*", "*", "template", "__launch_bounds__")):
        top -= 1
    for n in range(max(top, 1), min(end, len(lines)) + 1):
        m = _ASSUME.search(lines[n - 1])
        if m:
            out += [Divisibility(a, b, "assume comment") for a, b in _DIVISIBLE.findall(m.group(1))]
    if prose:
        names = {p.spelling for p in params(fn)} | {k.spelling for k in child_list(fn)
                                                   if k.kind == K.TEMPLATE_NON_TYPE_PARAMETER} | sizes
        region = "\n".join(lines[max(top, 1) - 1:end])
        out += [Divisibility(extent, tile, "documented precondition")
                for extent, tile in stated_multiples(comment_text(region, C_COMMENT), names)]
    return out
