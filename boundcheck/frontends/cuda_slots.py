"""One slot per launched thread: a buffer the host allocates with room for the whole grid.

``cudaMalloc(&buf, grid * block * sizeof(T))`` followed by ``k<<<grid, block>>>(buf)`` gives every
thread of the launch a slot (``buf[blockIdx.x * blockDim.x + threadIdx.x]``, or two, ``buf[tid +
gridDim.x * blockDim.x]``): such an index has no partial tile to guard, whatever extent the kernel
processes. The kernel side says how many elements an unguarded index can reach in terms of
``gridDim.x`` and ``blockDim.x``; the host side says how many the buffer passed holds, in terms of
the launch's own grid and block; where every launch in the file gives the buffer that room, the
access's dimensions are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import Converter, Scope, is_integer, params, strip
from boundcheck.frontends.cuda_parse import (
    arguments,
    binary_op,
    child_list,
    evaluate,
    first,
    last,
    preorder,
    unary_op,
    write_target,
)
from boundcheck.model import AccessKind, Kernel, Space, Span
from boundcheck.symbolic import Bin, Expr, Kind, Num, Sym, expand, lanes, render, substitute, syms

K = ci.CursorKind
_ALLOCATORS = {"cudaMalloc", "cudaMallocManaged"}
_LOOPS = {K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.CXX_FOR_RANGE_STMT}
_LAUNCH_SIZES = {"blockIdx.x": "gridDim.x", "threadIdx.x": "blockDim.x"}
_ALLOWED = {"blockIdx.x", "threadIdx.x", "gridDim.x", "blockDim.x"}


@dataclass(frozen=True)
class Slot:
    """An unguarded global access whose index stays below ``need`` elements for any launch
    (``need`` in ``gridDim.x`` and ``blockDim.x``)."""

    span: Span
    buffer: str
    kind: AccessKind
    need: Expr


@dataclass(frozen=True)
class Room:
    """What one launch gives kernel parameter ``position``: ``elements`` allocated for it, and
    the launch's grid and block sizes along x (each in the host's names)."""

    position: int
    elements: Expr
    grid_x: Expr
    block_x: Expr


def thread_slots(recs: Sequence[Any]) -> list[Slot]:
    """The unguarded global accesses among a kernel's records (``cuda_kernel.Rec``) whose index is
    made of the block and thread ids along x only."""
    out = []
    for r in recs:
        if r.space is Space.GLOBAL and all(g.row for g in r.guards) and lanes(r.index):
            need = slot_need(r.index, r.width)
            if need is not None:
                out.append(Slot(r.span, r.buffer, r.kind, need))
    return out


def slot_need(index: Expr, width: int) -> Expr | None:
    """How many elements an index of block and thread ids along x reaches (its largest value,
    with each id at its last value, plus the access's width); None for any other index."""
    terms = expand(index)
    if any(not isinstance(f, Sym) or f.name not in _ALLOWED and f.kind is not Kind.CONST
           for t in terms for f in t.factors):
        return None  # block and thread ids along x, and compile-time sizes (`blockIdx.x * BLOCK`)
    if any(t.coeff < 0 for t in terms if t.factors) or not terms:
        return None
    top: Expr = Num(width)
    for t in terms:
        part: Expr = Num(t.coeff)
        for f in t.factors:
            size = _LAUNCH_SIZES.get(f.name)
            part = Bin("*", part, Bin("-", Sym(size, f.kind), Num(1)) if size else f)
        top = Bin("+", top, part)
    return top


def fits(need: Expr, room: Room, values: dict[str, int | None] | None = None, numbers: bool = False) -> bool:
    """``need`` (the launch's sizes put in) is at most the elements allocated: their difference
    has no negative term, every name being a size. ``values``: compile-time constants the kernel's
    file knows (``BLOCK = 64``), put in where the names differ (``THREADS`` vs ``GRID * BLOCK``);
    ``numbers``: compare what is numbers alone by its value (``N / 256`` blocks of ``N = 2^25``)."""
    put = substitute(need, {"gridDim.x": room.grid_x, "blockDim.x": room.block_x})
    elements = room.elements
    if values:
        put, elements = with_values(put, values), with_values(elements, values)
    if numbers:
        put, elements = _computed(put), _computed(elements)
    diff: dict[tuple[str, ...], float] = {}
    for sign, e in ((1, elements), (-1, put)):
        for t in expand(e):
            key = tuple(sorted(render(f) for f in t.factors))
            diff[key] = diff.get(key, 0) + sign * t.coeff
    return all(c >= 0 for c in diff.values())


def with_values(e: Expr, values: dict[str, int | None]) -> Expr:
    """``e`` with the names of known integer value replaced by their values."""
    return substitute(e, {n: Num(v) for n, v in values.items() if v is not None})


def resolved(room: Room, values: dict[str, int | None]) -> Room:
    """A room in numbers where its names are constants of the host's file: what another file,
    which may not know those names, can compare against (``THREADS`` → 65536)."""
    return Room(room.position, with_values(room.elements, values), with_values(room.grid_x, values),
                with_values(room.block_x, values))


def _computed(e: Expr) -> Expr:
    """``e`` with what is numbers alone computed as C does (``32 * 1024 * 1024 / 256`` is
    131072: a quotient is no term of a sum to compare otherwise)."""
    if not isinstance(e, Bin):
        return e
    left, right = _computed(e.left), _computed(e.right)
    if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
        a, b = left.value, right.value
        if e.op in ("+", "-", "*"):
            return Num(a + b if e.op == "+" else a - b if e.op == "-" else a * b)
        if e.op == "/" and a >= 0 and b > 0:
            return Num(a // b)
    return Bin(e.op, left, right)


def drop_slot_dims(kernel: Kernel, fn: ci.Cursor, slots: list[Slot], rooms: list[list[Room]],
                   values: dict[str, int | None], host_values: dict[str, int | None]) -> None:
    """Drop the dimensions of the slot accesses every launch (one at least, ``rooms`` holding
    each launch's) makes room for; ``values``: the kernel's file's constants. A kernel given no
    integer (no extent to bound its index by) is sized by its launches alone: for it the rooms
    are also compared in numbers, with the host's constants (``host_values``) put in. One given
    ``n`` is expected to hold for any ``n``, not for the one its file's launch happens to pass."""
    if not rooms or not slots:
        return
    numbers = not any(is_integer(p) for p in params(fn))
    if numbers:
        values = {**host_values, **values}
    names = [p.spelling for p in params(fn)]
    fitting = set()
    for slot in slots:
        if slot.buffer not in names:
            continue
        position = names.index(slot.buffer)
        if all(any(r.position == position and fits(slot.need, r, values, numbers) for r in launch) for launch in rooms):
            fitting.add((slot.span, slot.buffer, slot.kind))
    kernel.accesses[:] = [replace(a, dims=()) if (a.span, a.buffer, a.kind) in fitting else a
                          for a in kernel.accesses]


class Allocations:
    """A host function's ``cudaMalloc`` calls, and the writes that could change what they sized
    before a launch uses the buffer."""

    def __init__(self, body: ci.Cursor, conv: Converter) -> None:
        self.conv = conv
        self.mallocs: list[tuple[int, int, str, ci.Cursor, ci.Cursor, list[ci.Cursor]]] = []
        self.writes: list[tuple[int, str]] = []
        self.loops: list[tuple[int, int]] = []
        self._walk(body)

    def _walk(self, body: ci.Cursor) -> None:
        stack: list[tuple[ci.Cursor, list[ci.Cursor]]] = [(body, [])]
        while stack:
            node, path = stack.pop()
            if node.kind in _LOOPS:
                self.loops.append((first(node).offset, last(node).offset))
            if node.kind == K.CALL_EXPR and node.spelling in _ALLOCATORS:
                self._malloc(node, path)
            target = _written(node)
            if target:
                self.writes.append((first(node).offset, target))
            stack += [(k, path + [node]) for k in reversed(child_list(node))]

    def _malloc(self, call: ci.Cursor, path: list[ci.Cursor]) -> None:
        args = arguments(call)
        if len(args) < 2 or not _unconditional(path):
            return
        ptr = _address_of(args[0])
        if ptr is not None:
            self.mallocs.append((first(call).offset, last(call).offset, ptr.spelling, ptr, args[1], path))

    def room(self, launch: ci.Cursor, position: int, arg: ci.Cursor, grid: ci.Cursor | None,
             block: ci.Cursor | None, scope: Scope) -> Room | None:
        """The room the buffer passed as ``arg`` has at ``launch``: the last allocation of it that
        every path to the launch runs, where nothing it, its size or the launch's sizes name is
        written between the two (or later in a loop that repeats the launch but not the allocation)."""
        s = strip(arg)
        if s.kind != K.DECL_REF_EXPR or grid is None or block is None:
            return None
        at = first(launch).offset
        found = [m for m in self.mallocs if m[2] == s.spelling and m[0] < at and s.referenced is not None
                 and m[3].referenced == s.referenced]
        if not found:
            return None
        start, end, name, ptr, size, path = found[-1]
        if not _dominates(path, at):
            return None  # allocated on a path the launch is not on (a branch, a loop body)
        elements = _elements(size, ptr, self.conv, scope)
        written = {target for _, target in self.writes}
        grid_x, block_x = _axis_x(grid, self.conv, scope, written), _axis_x(block, self.conv, scope, written)
        if elements is None or grid_x is None or block_x is None:
            return None
        watched = {name} | _roots(size) | _roots(grid) | _roots(block)
        watched |= {_root(s_.name) for e in (elements, grid_x, block_x) for s_ in syms(e)}
        for o, target in self.writes:
            if target not in watched or start <= o <= end:
                continue
            if end < o < at or o > at and any(a <= at <= b and a <= o <= b and not a <= start <= b
                                               for a, b in self.loops):
                return None
        return Room(position, elements, grid_x, block_x)


def _dominates(path: list[ci.Cursor], at: int) -> bool:
    """The allocation at the end of ``path`` runs on every path to offset ``at``: each statement
    around it holds ``at`` too, or runs it in its condition (``if (cudaMalloc(…) != 0) …``)."""
    for i, node in enumerate(path):
        if first(node).offset <= at <= last(node).offset or node.kind.is_expression() \
                or node.kind in (K.DECL_STMT, K.VAR_DECL):
            continue
        if node.kind == K.DO_STMT and not any(k.kind in (K.BREAK_STMT, K.GOTO_STMT) for k in preorder(node)):
            continue
        if node.kind == K.COMPOUND_STMT and i > 0 and path[i - 1].kind in (K.COMPOUND_STMT, K.DO_STMT):
            continue  # a bare block, or the body of a `do { … } while (0)` a checking macro wraps
        cond = next((k for k in child_list(node) if k.kind.is_expression()), None) \
            if node.kind == K.IF_STMT else None
        if cond is None or i + 1 >= len(path) or path[i + 1] != cond:
            return False
    return True


def _unconditional(path: list[ci.Cursor]) -> bool:
    """No ternary, ``&&`` or ``||`` between the allocation and its statement: it runs whenever
    the statement does."""
    for node in path:
        if node.kind == K.CONDITIONAL_OPERATOR or node.kind == K.BINARY_OPERATOR and binary_op(node) in ("&&", "||"):
            return False
    return True


def _address_of(c: ci.Cursor) -> ci.Cursor | None:
    """``p`` of ``&p`` or ``(void **)&p``."""
    while c.kind in (K.CSTYLE_CAST_EXPR, K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CXX_REINTERPRET_CAST_EXPR,
                     K.CXX_STATIC_CAST_EXPR):
        kids = [k for k in child_list(c) if k.kind != K.TYPE_REF]
        if not kids:
            return None
        c = kids[-1]
    if c.kind != K.UNARY_OPERATOR or unary_op(c) != "&":
        return None
    kids = child_list(c)
    inner = strip(kids[0]) if kids else None
    return inner if inner is not None and inner.kind == K.DECL_REF_EXPR else None


def _elements(size: ci.Cursor, ptr: ci.Cursor, conv: Converter, scope: Scope) -> Expr | None:
    """The element count of a byte size written ``n * sizeof(T)`` with T the pointer's element
    type (or ``sizeof(*p)``)."""
    factors = _factors(strip(size))
    sizes = [f for f in factors if f.kind == K.CXX_UNARY_EXPR and conv.src.text_of(f)[:6] in ("sizeof", "")]
    if len(sizes) != 1 or not _element_size(sizes[0], ptr, conv):
        return None
    out: Expr = Num(1)
    for f in factors:
        if f is not sizes[0]:
            out = Bin("*", out, conv.quiet_expr(f, scope))
    return out


def _factors(c: ci.Cursor) -> list[ci.Cursor]:
    if c.kind == K.BINARY_OPERATOR and binary_op(c) == "*":
        kids = child_list(c)
        if len(kids) == 2:
            return _factors(strip(kids[0])) + _factors(strip(kids[1]))
    return [c]


def _element_size(c: ci.Cursor, ptr: ci.Cursor, conv: Converter) -> bool:
    """``sizeof`` of the pointer's element: the same number of bytes where both are known (a
    call inside a macro has no text to read), else the same type or ``*p`` as written."""
    size = ptr.type.get_canonical().get_pointee().get_size()
    value = evaluate(c)
    if isinstance(value, int) and size > 0:
        return value == size
    text = "".join(conv.src.text_of(c)[len("sizeof"):].split())
    inner = text[1:-1] if text.startswith("(") and text.endswith(")") else text
    written = "".join(ptr.type.get_pointee().spelling.replace("const ", "").split())
    return inner != "" and inner in (f"*{ptr.spelling}", f"{ptr.spelling}[0]", written)


def _axis_x(c: ci.Cursor, conv: Converter, scope: Scope, written: set[str]) -> Expr | None:
    """A launch size's x: an integer as it is, ``dim3(n, …)``'s first argument, or ``v.x`` of a
    ``dim3`` local ``v`` (read through its declaration, ``dim3 v(N / 256);``, where nothing in the
    host function writes it)."""
    s = strip(c)
    if s.type.get_canonical().spelling.endswith("dim3"):
        if s.kind == K.DECL_REF_EXPR:
            ref = s.referenced
            init = next((k for k in child_list(ref) if k.kind == K.CALL_EXPR and k.spelling == "dim3"), None) \
                if ref is not None and ref.kind == K.VAR_DECL and s.spelling not in written else None
            return _axis_x(init, conv, scope, written) if init is not None else Sym(f"{s.spelling}.x", Kind.OTHER)
        if s.kind == K.CALL_EXPR and s.spelling == "dim3":
            args = [a for a in child_list(s) if a.kind.is_expression() and first(a).line > 0]
            if len(args) == 1 and strip(args[0]).type.get_canonical().spelling.endswith("dim3"):
                return _axis_x(args[0], conv, scope, written)  # a copy of a dim3
            return conv.quiet_expr(args[0], scope) if args else None
        return None
    return conv.quiet_expr(s, scope)


def _roots(c: ci.Cursor) -> set[str]:
    return {k.spelling for k in preorder(c) if k.kind == K.DECL_REF_EXPR}


def _root(name: str) -> str:
    return name.split(".")[0].split("->")[0]


def _written(c: ci.Cursor) -> str:
    """The variable ``c`` writes (``write_target``), by its root; a write through a pointer or an
    index writes memory, not a name."""
    target = write_target(c)
    return _target_root(target) if target is not None else ""


def _target_root(c: ci.Cursor) -> str:
    s = strip(c)
    while s.kind == K.MEMBER_REF_EXPR:
        kids = child_list(s)
        if not kids:
            return ""
        s = strip(kids[0])
    return s.spelling if s.kind == K.DECL_REF_EXPR else ""
