"""Tiles a kernel names by comparing them: ``i * Br + threadIdx.x`` compared as one position.

``loop * P + threadIdx.x`` with a runtime ``P`` reads as a row walk (row ``loop`` of pitch ``P``,
column ``threadIdx.x``) as readily as a tile walk (tile ``loop`` of ``P == blockDim.x`` threads), so
the index alone leaves the thread a whole-dimension column. A kernel that compares that sum as one
quantity (``if (i * Br + tx >= N) break;``, a causal ``if (i * Br + tx < j * Bc + y)``) says which:
the thread is a position of the tile ``i`` of ``Br``, and an access indexed by it walks tiles.
"""

from __future__ import annotations

from dataclasses import replace

from boundcheck.model import Dim, Loop, Tiling
from boundcheck.symbolic import Comparison, Expr, Kind, Sym, Term, expand, render, variable

Joint = tuple[str, str, str]  # (lane, moving symbol, runtime size): `i * Br + threadIdx.x`


def joint_positions(a: Comparison) -> set[Joint]:
    """The lane sums ``m * P + lane`` (``m`` a loop counter or block id, ``P`` a runtime size) either
    side of the comparison is, alone."""
    out = set()
    for side in (a.left, a.right):
        terms = variable(expand(side))
        lane = [t for t in terms if _lane_alone(t)]
        rest = [t for t in terms if t not in lane]
        if len(lane) == 1 and len(rest) == 1 and (step := _tile_step(rest[0])):
            out.add((lane[0].factors[0].name, *step))
    return out


def joint_tiled(dims: tuple[Dim, ...], index: Expr, joint: set[Joint],
                loops: dict[str, Loop]) -> tuple[Dim, ...]:
    """Whole-dimension thread columns whose index holds the lane alone and a compared tile step of
    it: tiled by that step (its loop's or its block's), the tile being the runtime size."""
    terms = variable(expand(index))
    lane_names = [t.factors[0].name for t in terms if _lane_alone(t)]
    steps = {s for t in terms if (s := _tile_step(t))}
    out = []
    for d in dims:
        hit = [(m, p) for lane, m, p in joint if lane == d.source and (m, p) in steps]
        if d.tiling is Tiling.WHOLE and lane_names.count(d.source) == 1 and len(hit) == 1:
            moving, size = hit[0]
            loop = loops.get(moving)
            d = replace(d, tiling=Tiling.LOOP if loop else Tiling.PROGRAM, tile=size, loop=loop)
        out.append(d)
    return tuple(out)


def _lane_alone(t: Term) -> bool:
    return t.coeff == 1 and len(t.factors) == 1 and isinstance(t.factors[0], Sym) \
        and t.factors[0].kind is Kind.LANE


def _tile_step(t: Term) -> tuple[str, str] | None:
    """``m * P`` with coefficient 1: (m, P) for a loop counter or block id m and a runtime size P."""
    if t.coeff != 1 or len(t.factors) != 2 or not all(isinstance(f, Sym) for f in t.factors):
        return None
    moving = [f for f in t.factors if f.kind in (Kind.LOOP, Kind.PROGRAM)]
    size = [f for f in t.factors if f.kind is Kind.EXTENT]
    return (moving[0].name, render(size[0])) if len(moving) == 1 and len(size) == 1 else None
