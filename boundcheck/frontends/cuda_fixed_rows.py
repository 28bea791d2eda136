"""Rows of compile-time length that a block of compile-time size walks whole.

A kernel launched with 32 threads at every launch that reads ``q[head * kHeadDim + lane + 32 * i]``
for ``i < 4``, with ``kHeadDim = 128`` and ``head = token_head % hq``, stays inside its head's 128
elements: the lanes reach ``31 + 96 = 127``. Nothing in the index can pass the row, so the thread
index is no tiled dimension there. It holds only where everything is a number: the block size at
every launch, the loop bounds, the pitch (a macro, a constant, or a template parameter every launch
gives as a literal) and a row index that is a remainder (``x % H``: a count of rows, not a tile
walk over a runtime extent, which ``blockIdx.x * 128`` would be). A thread's channel may be a
remainder or a low-bits mask of the thread index (``tid % kDim``, ``tid & (kDim - 1)``: at most
kDim - 1 whatever the block), and a constant offset of whole rows (``2 * kHeads * kDim``, the v
section of a fused q/k/v row) moves the row, not the lanes inside it.

The block's own scratch is the other row a block never leaves: a block-wide device helper that
threads exchange values through (:func:`block_scratch`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from boundcheck.model import AccessKind, Kernel, Space
from boundcheck.symbolic import Bin, Expr, Kind, Num, Sym, expand, kinds, lanes, syms

_LANE = "threadIdx.x"
# ``tid % kDim``: 0 to kDim - 1; a warp's lane (``tid & 31``, ``tid % 32``) is 0 to 31 in any block
_REMAINDER_LANE = re.compile(r"threadIdx\.x % (\w+)")
_AXIS_LANE = re.compile(r"threadIdx\.([xyz])(?: ([/%]) (\w+))?")  # `threadIdx.y`, `threadIdx.y / 2`


def rows_inside(recs: Sequence[Any], block: int | None, loops_at: dict[tuple[str, Any], tuple[int, Expr, str]],
                values: dict[str, int | None], tiled_across: bool = False) -> set[tuple[Any, str, Any]]:
    """The global records (``cuda_kernel.Rec``) whose lanes stay inside a row of compile-time
    length under a launch of ``block`` threads along x (None where no launch gives it: then only
    a warp's lane, ``threadIdx.x % 32``, has a known reach), by (span, buffer, kind). ``loops_at``:
    the counted loops by counter and header (``KernelBuilder.loop_ranges_at``): a record reads the
    loops it is made in where a counter's name is reused. ``tiled_across``: the launch rounds its y
    or z grid up from a runtime count, so a block index along it walks tiles, not rows."""
    out = set()
    known = {**values, "blockDim.x": block}
    by_name = {name: rng for (name, _), rng in loops_at.items()}
    for r in recs:
        walked = {w.loop for w in r.within}
        mine = {**by_name, **{name: rng for (name, header), rng in loops_at.items() if header in walked}}
        names = {n for n, _ in lanes(r.index)}
        # a y or z block index is a row only where nothing bounds the lanes by a runtime extent: a
        # guard `blockIdx.y * 512 + threadIdx.x * 4 < n` says the kernel tiles n along y
        rows_across = not tiled_across and not any(g.boundary for g in r.guards)
        if r.space is Space.GLOBAL and names and all(n == _LANE or _remainder_size(n, known) for n in names) \
                and _inside_row(r.index, r.width, block, mine, known, rows_across):
            out.add((r.span, r.buffer, r.kind))
    return out


def columns_inside(recs: Sequence[Any], blocks: list[dict[str, int]], loops_at: dict[tuple[str, Any], tuple[int, Expr, str]],
                   values: dict[str, int | None], multiples: set[tuple[str, int]]) -> dict[tuple[Any, str, Any], frozenset[str]]:
    """The lanes of a 2-D layout's column that stay inside a column tile of compile-time width, by
    record: ``row * N + (j % jn) * 64 + (threadIdx.y / 2) * 32 + (threadIdx.x % 4) * 2 + …`` under
    blocks of ``dim3(32, 4)`` at every launch reaches at most 63 past the tile's start, and the
    tiles ``j % jn`` picks are whole where the host makes N a multiple of 64 (``multiples``: the
    kernel's contracts ``(N, 64)``; ``jn = (N + 63) / 64`` is a tile walk over N). ``blocks``: each
    launch's block size per axis (``blockDim.y`` → 4); none where nothing launches the kernel. The
    row part (terms with a runtime row length) keeps its lanes: its guard is judged as written."""
    if not blocks:
        return {}
    by_name = {name: rng for (name, _), rng in loops_at.items()}
    out: dict[tuple[Any, str, Any], frozenset[str]] = {}
    for r in recs:
        if r.space is not Space.GLOBAL:
            continue
        terms = expand(r.index)
        # a row term steps by a runtime length (`row * N`); a count of tiles taken from N inside a
        # remainder (`(j % ((N + 63) / 64)) * 64`) picks a column tile
        row = [t for t in terms if any(isinstance(f, Sym) and f.kind is Kind.EXTENT for f in t.factors)]
        column = [t for t in terms if t not in row]
        mine = {n for t in column for f in t.factors for n, _ in lanes(f)}
        if not row or not mine or mine & {n for t in row for f in t.factors for n, _ in lanes(f)}:
            continue
        walked = {w.loop for w in r.within}
        loops = {**by_name, **{name: rng for (name, header), rng in loops_at.items() if header in walked}}
        if all(_column_inside(column, r.width, loops, {**values, **block}, multiples) for block in blocks):
            out[(r.span, r.buffer, r.kind)] = frozenset(mine)
    return out


def _column_inside(terms: list[Any], width: int, loops: dict[str, tuple[int, Expr, str]],
                   known: dict[str, int | None], multiples: set[tuple[str, int]]) -> bool:
    reach, pitch, offsets = 0, 0, 0
    for t in terms:
        factors = list(t.factors)
        if any(lanes(f) or kinds(f) & {Kind.LOOP} for f in factors):
            top = _top(_product([Num(t.coeff), *factors]), None, loops, known)
            if top is None or t.coeff < 0:
                return False
            reach += top
            continue
        values = [_value(f, known) for f in factors]
        unknown = [f for f, v in zip(factors, values) if v is None]
        scale = t.coeff
        for v in values:
            scale *= 1 if v is None else v
        if not unknown:
            offsets += scale
        elif len(unknown) == 1 and isinstance(unknown[0], Bin) and unknown[0].op == "%" and scale > 0 \
                and float(scale).is_integer() and not pitch and _whole_tiles(unknown[0].right, int(scale), multiples):
            pitch = int(scale)  # `(j % jn) * 64`: the column tile this block writes
        else:
            return False
    return pitch > 0 and offsets % pitch == 0 and reach + width <= pitch


def _whole_tiles(count: Expr, tile: int, multiples: set[tuple[str, int]]) -> bool:
    """A count of column tiles taken from the row's length (``(N + 63) / 64``) is one of whole
    tiles only where N is a multiple of the tile; a count of no runtime length is the layout's."""
    extents = {s.name for s in syms(count) if s.kind is Kind.EXTENT}
    return all(any(e == name and m % tile == 0 for name, m in multiples) for e in extents)


def drop_thread_dims(kernel: Kernel, inside: set[tuple[Any, str, Any]], axes: str = "xyz") -> None:
    """Remove the thread index dimensions (along ``axes``) of the accesses ``inside`` names."""
    lanes_of = tuple(f"threadIdx.{a}" for a in axes)
    if inside:
        kernel.accesses[:] = [replace(a, dims=tuple(d for d in a.dims if not d.source.startswith(lanes_of)))
                              if (a.span, a.buffer, a.kind) in inside else a for a in kernel.accesses]


def drop_lane_dims(kernel: Kernel, inside: dict[tuple[Any, str, Any], frozenset[str]]) -> None:
    """Remove the dimensions of the lanes ``inside`` names for each access (see :func:`columns_inside`)."""
    if inside:
        kernel.accesses[:] = [replace(a, dims=tuple(d for d in a.dims if d.source not in inside[key]))
                              if (key := (a.span, a.buffer, a.kind)) in inside else a for a in kernel.accesses]


def block_scratch(recs: Sequence[Any], barrier: bool, loops: dict[str, tuple[int, Expr, str]]) \
        -> set[tuple[Any, str, Any]]:
    """In a device function no kernel of its file calls (checked as written, its callers unknown)
    that synchronises the block, the global records of a pointer it both writes and reads, indexed
    by thread ids, block sizes, constants and counters of loops with compile-time bounds alone
    (``x[tid] = v; __syncthreads(); x[tid] + x[tid + 32]``, ``shm[i * blockDim.x + tid]`` for
    ``i < NUM``): threads exchanging values through it make it the caller's per-block scratch,
    sized by the block, not a tiled tensor."""
    if not barrier:
        return set()
    written = {r.buffer for r in recs if r.kind is not AccessKind.READ}
    read = {r.buffer for r in recs if r.kind is AccessKind.READ}
    counted = {name for name, (_, stop, _) in loops.items() if kinds(stop) <= {Kind.CONST}}
    return {(r.span, r.buffer, r.kind) for r in recs
            if r.space is Space.GLOBAL and r.buffer in written & read and lanes(r.index) and all(
                (s.kind is Kind.LANE and s.name.startswith("threadIdx.")) or s.name.startswith("blockDim.")
                or (s.kind is Kind.LOOP and s.name in counted) for s in syms(r.index))}


def _inside_row(index: Expr, width: int, block: int | None, loops: dict[str, tuple[int, Expr, str]],
                known: dict[str, int | None], rows_across: bool) -> bool:
    """Every term that moves with the thread or a counted loop reaches at most one row, where
    a row is the pitch of a remainder (``(x % H) * 128``) and every other term steps whole rows
    (a multiple of the pitch) or a runtime stride (``b * stride``, a parameter: the tensor's layout;
    also a loop's ``t * C`` walking tokens of C elements). Where no block index moves the access,
    a counted loop's step is a row too (``m * 6144 + k * 1024 + tid * 8`` for m < 14, k < 6)."""
    reach, pitches, steps, offsets, walked = 0, [], [], [], []
    for t in expand(index):
        if not any(lanes(f) for f in t.factors) and any(kinds(f) & {Kind.LOOP} for f in t.factors) \
                and any(kinds(f) & {Kind.EXTENT} for f in t.factors):
            continue  # `t * C`, a token loop stepping by a runtime stride: whole rows of the layout
        if any(lanes(f) or kinds(f) & {Kind.LOOP} for f in t.factors):
            top = _top(_product([Num(t.coeff), *t.factors]), block, loops, known)
            if top is None or t.coeff < 0:
                return False
            reach += top
            f = t.factors[0]
            if len(t.factors) == 1 and isinstance(f, Sym) and f.kind is Kind.LOOP and loops.get(f.name, (0,))[0] == 1:
                walked.append((t.coeff, top))  # `m * 6144` for m < 14 (m += 1): rows a counted loop walks
            continue
        values = [_value(f, known) for f in t.factors]
        unknown = [f for f, v in zip(t.factors, values) if v is None]
        scale = t.coeff
        for v in values:
            scale *= 1 if v is None else v
        if not unknown and scale >= 0:
            offsets.append(scale)  # `lane + head_size / 2`: an offset inside the row, or whole rows
        elif len(unknown) == 1 and scale > 0 and (isinstance(unknown[0], Bin) and unknown[0].op == "%"
                                                  or rows_across and _across_grid(unknown[0])):
            pitches.append(scale)
        elif not any(kinds(f) & {Kind.OTHER, Kind.EXTENT} for f in unknown):
            steps.append(scale)  # a block index times a size: a step inside the row or of whole rows
    if not pitches and walked and not steps:
        # no block index moves the access: the widest row a counted loop walks holds the rest
        row, top = max(walked)
        return float(row).is_integer() and reach - top + width + sum(offsets) <= row
    if not pitches:
        return False
    row = min(pitches)
    reach += sum(c for c in offsets if not (float(c).is_integer() and int(c) % row == 0))
    return reach + width <= row and all(float(s).is_integer() and int(s) % row == 0 for s in steps)


def _across_grid(e: Expr) -> bool:
    """A block index of the grid's y or z axis (``blockIdx.y``, ``blockIdx.y / heads_per_group``):
    a row of a matrix whose columns the x lanes hold, not a tile walk along x (which steps by
    ``blockIdx.x``)."""
    names = {s.name for s in syms(e) if s.kind is not Kind.CONST}
    return bool(names) and names <= {"blockIdx.y", "blockIdx.z"} and not isinstance(e, Num)


def _remainder_size(name: str, known: dict[str, int | None]) -> int | None:
    """C of a thread index remainder lane ``threadIdx.x % C``, where C is a known number."""
    m = _REMAINDER_LANE.fullmatch(name)
    if m is None:
        return None
    size = int(m[1]) if m[1].isdigit() else known.get(m[1])
    return size if size is not None and size > 0 else None


def _product(factors: Sequence[Expr]) -> Expr:
    out: Expr = Num(1)
    for f in factors:
        out = Bin("*", out, f)
    return out


def _value(e: Expr, known: dict[str, int | None]) -> int | None:
    """``e`` as a compile-time integer, where every name in it is known."""
    if isinstance(e, Num):
        return int(e.value) if float(e.value).is_integer() else None
    if isinstance(e, Sym):
        return known.get(e.name) if e.kind is Kind.CONST else None
    if isinstance(e, Bin):
        a, b = _value(e.left, known), _value(e.right, known)
        if a is None or b is None:
            return None
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        if e.op == "/" and b > 0 and a >= 0:
            return a // b
        if e.op == "%" and b > 0 and a >= 0:
            return a % b
    return None


def _top(e: Expr, block: int | None, loops: dict[str, tuple[int, Expr, str]], known: dict[str, int | None]) -> int | None:
    """The largest value of ``e`` over the thread index and the loop counters (every part of it
    non-negative), or None where some part is not a known number. A lane of another axis, or a
    quotient of one (``threadIdx.y / 2``), has its reach where ``known`` gives its block's size."""
    if isinstance(e, Sym) and e.name == _LANE:
        return block - 1 if block else None
    if isinstance(e, Sym) and (size := _remainder_size(e.name, known)):
        return size - 1 if not block else min(size, block) - 1
    if isinstance(e, Sym) and e.kind is Kind.LANE and (m := _AXIS_LANE.fullmatch(e.name)):
        threads = known.get(f"blockDim.{m[1]}")
        by = int(m[3]) if m[3] and m[3].isdigit() else known.get(m[3]) if m[3] else 1
        if not threads or not by or threads <= 0 or by <= 0:
            return None
        return (threads - 1) // by if m[2] != "%" else min(threads, by) - 1
    if isinstance(e, Sym) and e.kind is Kind.LOOP and e.name in loops:
        k, stop, op = loops[e.name]
        last = _value(stop, known)
        if last is None:
            return None
        last -= 1 if op == "<" else 0
        return last // k if last >= 0 else None
    if isinstance(e, Bin) and e.op in ("+", "*"):
        a, b = _top(e.left, block, loops, known), _top(e.right, block, loops, known)
        if a is None or b is None:
            return None
        return a + b if e.op == "+" else a * b
    if isinstance(e, Bin) and e.op in ("/", "%"):
        a, b = _top(e.left, block, loops, known), _value(e.right, known)
        if a is None or b is None or b <= 0:
            return None
        return a // b if e.op == "/" else min(a, b - 1)
    if isinstance(e, Bin) and e.op == "&":  # `tid & (kDim - 1)`: no more than the mask
        b = _value(e.right, known)
        return b if b is not None and b >= 0 and not lanes(e.right) else None
    value = _value(e, known)
    return value if value is not None and value >= 0 else None
