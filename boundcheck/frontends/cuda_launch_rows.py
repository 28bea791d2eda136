"""Rows that a launch covers exactly, whatever the sizes' values.

A kernel launched ``k<N><<<dim3(H, B), N>>>(T, H, …)`` that reads ``x[((b * T + t) * H + h) * N + i]``
with ``h = blockIdx.x`` and ``i = threadIdx.x`` lays its tensor out as ``[B, T, H, N]``: the x part
of the index, ``blockIdx.x * N + threadIdx.x``, walks one row of ``H * N`` elements, and every
other term steps over whole rows of that length. The grid has exactly H blocks of N threads along
x, so no tile of the row is partial: the thread index is no dimension that can run past an
extent. Unlike :mod:`cuda_fixed_rows` this needs no number, only names the launch ties together:
the block's size (a literal, a macro, a template argument or a parameter given the same value)
and the grid's x size (a parameter given the same value). The classic tiled index
``blockIdx.x * 256 + threadIdx.x`` shows no row of ``gridDim.x * 256``, and stays a tiled
dimension.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import params
from boundcheck.frontends.cuda_host import HostLaunch
from boundcheck.frontends.cuda_parse import template_params
from boundcheck.model import Space
from boundcheck.symbolic import Bin, Expr, Kind, Sym, Term, expand, kinds, render, syms, terms_text, without

_NAME = re.compile(r"[A-Za-z_]\w*")


def launch_rows(recs: Sequence[Any], fn: ci.Cursor, hls: Sequence[HostLaunch],
                loops_at: dict[tuple[str, Any], tuple[int, Expr, str]]) -> set[tuple[Any, str, Any]]:
    """The global records (``cuda_kernel.Rec``) of kernel ``fn`` whose x lanes stay inside one
    row under every launch in ``hls``, by (span, buffer, kind). ``loops_at``: the counted loops by
    counter and header (``KernelBuilder.loop_ranges_at``)."""
    out: set[tuple[Any, str, Any]] | None = None
    # with no launch in the run, the kernel's own `blockDim.x` and `gridDim.x` still name the sizes
    for block, grids, across in [(*_sizes(hl, fn), not set(hl.ceil_axes) & {1, 2}) for hl in hls] \
            or [(_Block(_INTRINSIC_BLOCK, 1), {"gridDim.x"}, False)]:
        found = set()
        for r in recs:
            if r.space is not Space.GLOBAL or r.width != 1:
                continue
            walked = {w.loop for w in r.within}  # the loops a record is made in (a name may be reused)
            mine = {name: rng for (name, header), rng in loops_at.items() if header in walked}
            if _inside(expand(r.index), block, grids, across and not any(g.boundary for g in r.guards), mine):
                found.add((r.span, r.buffer, r.kind))
        out = found if out is None else out & found
    return out or set()


_INTRINSIC_BLOCK = frozenset({"blockDim.x"})


@dataclass(frozen=True)
class _Block:
    """The block's x size as the kernel names it (a macro, a template parameter or a parameter
    the launch gives the same value) and its value where the launch writes a literal (else 1)."""

    names: frozenset[str]
    value: int


def _sizes(hl: HostLaunch, fn: ci.Cursor) -> tuple[_Block, set[str]]:
    """The block's x size, and the kernel's names for the grid's x size, under launch ``hl``."""
    names = [p.spelling for p in params(fn)]
    tparams = template_params(fn)
    block = hl.block
    blocks = set(_INTRINSIC_BLOCK) | ({block} if _NAME.fullmatch(block) else set())  # a macro read by name
    blocks |= {t for t, v in zip(tparams, hl.template_args) if v == block}
    blocks |= {p for h, p in zip(hl.kernel_args, names) if h and h == block}
    grid_x = hl.grids[0] if hl.grids else ""
    grids = {"gridDim.x"} | {p for h, p in zip(hl.kernel_args, names) if h and h == grid_x and _NAME.fullmatch(grid_x)}
    return _Block(frozenset(blocks), int(block) if block.isdigit() else 1), grids


_B, _G = "<block>", "<grid>"  # the block's and the grid's x size, however the kernel names them


def _inside(terms: list[Term], block: _Block, grids: set[str], across: bool,
            loops: dict[str, tuple[int, Expr, str]]) -> bool:
    """``threadIdx.x`` (times a constant) and counted loops that chain with it into a reach of
    whole widths (``j * 32`` for ``j < 2`` over 32 threads: 64; ``i * C + j`` for ``j < C``),
    and the start of the row that reach fills, where a row is

    - ``blockIdx.x * W`` with G blocks along x, where some term steps by whole multiples of
      ``G * W`` (the layout's row is the grid's x extent), or
    - ``r * W`` for a row index r that is a remainder (``blockIdx.x % H``) or, where ``across``,
      a block index of the y or z axis, or
    - the counted loops' own region (``j * C + i`` for ``j < C``: a C by C matrix),

    every other term a whole multiple of the row's width or a layout stride (a runtime size:
    ``(blockIdx.x / H) * T * C``). Loop bounds are compile-time sizes: a count of tiles is no row."""
    lanes, others = [], []
    for t in terms:
        names = Counter(_name(f) for f in t.factors)
        if t.coeff == 0:
            continue
        if names["threadIdx.x"] == 1 and t.coeff > 0 and all(
                _name(f) == "threadIdx.x" or isinstance(f, Sym) and f.kind is Kind.CONST for f in t.factors):
            lanes.append(t)
        elif names["threadIdx.x"]:
            return False
        else:
            others.append(t)
    count = _canon(max(1, block.value), [Sym(_B, Kind.CONST)] if block.value <= 1 else [], block, grids)
    lane = _canon(lanes[0].coeff, [f for f in lanes[0].factors if _name(f) != "threadIdx.x"], block, grids) \
        if len(lanes) == 1 else None
    if lane is None or count is None:
        return False
    # the chain, from the smallest step up: the lane and counted loops, each stepping by the width
    # covered so far (`i * C + j` for j < C: the lane over rows of C)
    steps = [(lane, count, -1)] + [(*c, i) for i, t in enumerate(others)
                                    if (c := _counted(t, loops, block, grids)) is not None]
    width = Term(1, ())
    used: set[int] = set()
    while (nxt := next((s for s in steps if _same(s[0], width) and s[2] not in used), None)) is not None:
        width = Term(width.coeff * nxt[1].coeff, width.factors + nxt[1].factors)
        used.add(nxt[2])
    if -1 not in used:
        return False
    used.discard(-1)
    program = pitch = rows = 0
    for i, t in enumerate(others):
        if i in used:
            continue
        names = Counter(_name(f) for f in t.factors)
        m = _canon(t.coeff, t.factors, block, grids)
        if m is None:
            return False
        if names["blockIdx.x"] == 1 and _same(_canon(t.coeff, [f for f in t.factors if _name(f) != "blockIdx.x"],
                                                     block, grids), width):
            program += 1
        elif not names["blockIdx.x"] and t.coeff > 0 and (rest := without(m.factors, [_G])) is not None \
                and _multiple(Term(m.coeff, tuple(rest)), width) and _row_picked(t, loops):
            rows += 1  # a multiple of G * W: whole rows of the grid's x extent
        elif any(n.startswith("threadIdx.") for n in names):
            return False
        elif r := [f for f in t.factors if _row_index(f, across)]:
            rest = [f for f in t.factors if f is not r[0]]
            if len(r) == 1 and any(kinds(f) & {Kind.EXTENT, Kind.OTHER} for f in rest):
                continue  # `(x % H) * row_stride`: a layout stride
            step = _canon(t.coeff, rest, block, grids)
            if len(r) != 1 or t.coeff <= 0 or step is None or not _multiple(step, width):
                return False  # a row shorter than the reach, or one the analysis cannot size
            pitch += 1
        elif any(kinds(f) & {Kind.EXTENT, Kind.OTHER} for f in t.factors):
            continue  # a layout stride, either way (`t -= C` walking tokens back)
        elif t.coeff < 0 or names["blockIdx.x"] or not _multiple(m, width) or any(
                isinstance(f, Sym) and f.kind is Kind.LOOP and f.name not in loops for f in t.factors):
            return False  # a block's own step, a row shorter than the reach, or a tile walk
    if program:
        return program == 1 and pitch == 0 and rows > 0
    return pitch == 1 or pitch == 0 and bool(used)


def _row_picked(t: Term, loops: dict[str, tuple[int, Expr, str]]) -> bool:
    """A row the term selects by an index that varies (a counted loop's counter, a y or z block or
    thread index, a loop the y lanes stride), not a constant offset of whole rows (a second slot
    past the first), nor the step of a grid-stride loop along x (whose counter walks the lanes)."""
    names = {sym.name: sym.kind for f in t.factors for sym in syms(f)}
    # `i * blockDim.y` of `for (i = threadIdx.y; i < N; i += blockDim.y)`: the y lanes walk the rows
    across = bool(names.keys() & {"blockDim.y", "blockDim.z"})
    if any(kind is Kind.LOOP and name not in loops and not across for name, kind in names.items()):
        return False
    return any(kind is Kind.LOOP for kind in names.values()) \
        or bool(names.keys() & {"blockIdx.y", "blockIdx.z", "threadIdx.y", "threadIdx.z"})


def _canon(coeff: float, factors: Sequence[Expr], block: _Block, grids: set[str]) -> Term | None:
    """``coeff * factors`` with an integer coefficient, the block's and the grid's sizes each by
    one name (the block's by its value where the launch writes one)."""
    if not float(coeff).is_integer():
        return None
    c, out = int(coeff), []
    for f in factors:
        n = _name(f)
        if (n in block.names or n == _B) and block.value > 1:
            c *= block.value
        else:
            out.append(Sym(_B, Kind.CONST) if n in block.names else Sym(_G, Kind.CONST) if n in grids else f)
    return Term(c, tuple(out))


def _counted(t: Term, loops: dict[str, tuple[int, Expr, str]], block: _Block,
             grids: set[str]) -> tuple[Term, Term] | None:
    """(step, count) of a term that is a counted loop's counter times a step: the counter runs
    from 0 by 1 below a compile-time size."""
    counters = [f for f in t.factors if isinstance(f, Sym) and f.kind is Kind.LOOP and f.name in loops]
    if len(counters) != 1:
        return None
    k, stop, op = loops[counters[0].name]
    parts = expand(stop)
    if k != 1 or op != "<" or len(parts) != 1 or not kinds(stop) <= {Kind.CONST}:
        return None
    step = _canon(t.coeff, [f for f in t.factors if f is not counters[0]], block, grids)
    count = _canon(parts[0].coeff, parts[0].factors, block, grids)
    return (step, count) if step is not None and count is not None and count.coeff > 0 else None


def _same(a: Term | None, b: Term) -> bool:
    return a is not None and terms_text([a]) == terms_text([b])


def _multiple(m: Term, of: Term) -> bool:
    """``m`` is a whole number of ``of``s: its coefficient a multiple, every factor of ``of`` in it."""
    return bool(of.coeff) and not m.coeff % of.coeff and without(m.factors, [render(f) for f in of.factors]) is not None


def _row_index(f: Expr, across: bool) -> bool:
    """A remainder (``blockIdx.x % H``: fewer than H rows whatever the grid), or a y or z block
    index where the grid along it counts rows."""
    if isinstance(f, Bin) and f.op == "%":
        return not any(s.name.startswith("threadIdx.") for s in syms(f))
    names = {s.name for s in syms(f) if s.kind is not Kind.CONST}
    return across and bool(names) and names <= {"blockIdx.y", "blockIdx.z"}


def _name(f: Expr) -> str:
    return f.name if isinstance(f, Sym) else render(f)
