"""Which dimensions of an access need a guard, which guards and contracts cover them, and which
reductions receive a padding that is not their identity.

Shared by the rules (and the report) so that "covered", "contracted" and "harmful padding" each
mean one thing everywhere, and no rule module imports another.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from boundcheck.model import (
    Access,
    Bound,
    Dim,
    Divisibility,
    FloorDiv,
    Kernel,
    Language,
    Loop,
    Reduction,
    Space,
    Span,
    Tiling,
    Use,
    format_value,
)
from boundcheck.symbolic import packed_tile, tile_factors


def covers(bound: Bound, dim: Dim) -> bool:
    """The bound limits the dimension's own index (not a block-local stand-in for it)."""
    if bound.source != dim.source or bound.alternative:
        return False
    if bound.axis is not None and dim.axis is not None and bound.axis != dim.axis:
        return False
    return not (bound.local and dim.tiling is not Tiling.WHOLE)


def _bounded_across(kernel: Kernel, access: Access, dim: Dim, local: Bound) -> bool:
    """The block-local bound lies along another axis than the dimension, and the buffer's other
    accesses bound the lane along the dimension's own axis: a lane that indexes both the rows and the
    columns (``(i_tc + o_i)[:, None]``, ``(BC + o_i)[None, :]`` under ``(BC + o_i)[None, :] < BT``)
    has its own column extent, for which the row bound is no stand-in."""
    if local.axis is None or dim.axis is None or local.axis == dim.axis:
        return False
    return any(b.source == dim.source and b.bounds_extent and b.axis == dim.axis
               for a in kernel.accesses if a.buffer == access.buffer for b in a.guards)


def bounded_sources(kernel: Kernel, access: Access) -> set[str]:
    """Lane sources whose whole-dimension use the kernel compares with an extent somewhere: in a
    guard of an access that runs along that lane, or in a mask it computes and never uses. A
    comparison of a copy of the lane shifted by runtime data (``row_start + m_offs < expert_end``,
    a varlen position) speaks only of accesses that walk that copy: a ``[C, C]`` block read with
    the lane alone stays whole. A test of the lane over an access that does not vary with it as a
    dimension (``if (lane * 4 < rotary_dim) { cos[base + i] }``, the lanes that take part in a
    step) picks lanes, not a tail."""
    return {b.source for a in kernel.accesses for b in a.guards
            if b.bounds_extent and b.shift <= access.offset_factors and any(d.source == b.source for d in a.dims)} \
        | kernel.unused_masks


def bounded_extents(kernel: Kernel) -> set[tuple[str, str]]:
    """(tile, extent) pairs of the block-pointer axes the kernel checks somewhere: a tile of
    ``BLOCK_D`` columns over ``(…, HEAD_DIM)`` checked on one block pointer can be partial on
    another with the same shape, whose lanes are its own source."""
    out = set()
    for a in kernel.accesses:
        dims = {d.source: d for d in a.dims if d.extent and d.tile}
        out |= {(d.tile, d.extent) for b in a.guards if b.bounds_extent and (d := dims.get(b.source or ""))
                and d.tile != d.extent}  # a block as wide as the shape (`(C, D)` in blocks of D) is whole
    return out


BRANCH_CONDITION = "branch condition"  # the origin of a fact read from a kernel's own ``if`` test


def contract_for(dim: Dim, facts: list[Divisibility] | tuple[Divisibility, ...],
                 extents: set[str] = frozenset()) -> Divisibility | None:  # type: ignore[assignment]
    """A fact that makes the dimension's tiles full: its tile is the dimension's tile (or a
    multiple of it, ``K % (BLOCK_K * SPLIT_K)``), or its extent is what the kernel bounds this
    lane by elsewhere (a flag computed on the host with the host's name for the tile). A kernel's
    own test (``if K == K_POW2:``) names the tile as the kernel does: it must be this dimension's."""
    for f in facts:
        if f.pitch:
            if f.tile == dim.tile and f.extent in dim.pitches:
                return f
            continue
        if f.spans:
            # one tile spans a tensor's row, along which the lane runs at unit stride (it says
            # nothing of a dimension cut into tiles, nor of a strided one the same tile walks)
            if f.tile == dim.tile and dim.tiling is Tiling.WHOLE and dim.contiguous:
                return f
            continue
        if dim.tile is not None and (f.tile == dim.tile or dim.tile in tile_factors(f.tile)
                                     or packed_tile(dim.tile) in (f.tile, *tile_factors(f.tile))):
            return f
        if f.extent in extents and not (dim.tile and _proper_divisor(f.tile, dim.tile)) \
                and f.origin != BRANCH_CONDITION:
            return f
    return None


def _proper_divisor(fact_tile: str, tile: str) -> bool:
    """``fact_tile`` divides ``tile`` and is smaller, so ``n % fact_tile == 0`` says nothing about
    ``n % tile``: ``4`` of ``U * 4`` (its factors a proper part of the tile's), or ``4`` of ``64``."""
    if fact_tile.isdigit() and tile.isdigit():
        return int(fact_tile) < int(tile)
    mine, theirs = tile_factors(fact_tile), tile_factors(tile)
    return len(theirs) > len(mine) and _multiset_in(mine, theirs)


def extents_of(kernel: Kernel, dim: Dim) -> set[str]:
    """The limits the kernel compares the dimension's lane with, anywhere. A block-local comparison
    (``threadIdx.x < n``) gives the extent of a whole dimension only: a tiled one adds a block offset
    to that lane, so ``n`` there is no extent of its own (and a contract on it no excuse)."""
    return {b.limit for a in kernel.accesses for b in a.guards if b.source == dim.source and not b.wrap
            and (not b.local or dim.tiling is Tiling.WHOLE)}


@dataclass(frozen=True)
class Coverage:
    needed: tuple[Dim, ...]
    covered: tuple[Dim, ...]
    uncovered: tuple[Dim, ...]
    local_only: tuple[tuple[Dim, Bound], ...]  # guarded only by a block-local index
    # dimensions a mask or guard bounds (wraps, clamps, contracts and the condition of the loop
    # that walks a lane are not guards): an access with none is unguarded (BC101), one with some
    # but not all is partially guarded (BC103)
    guarded: tuple[Dim, ...] = ()


def coverage(kernel: Kernel, access: Access) -> Coverage | None:
    """None when the access is outside the rules' reach (shared memory, unreadable index)."""
    if not _in_reach(access):
        return None
    facts = [*kernel.contracts, *access.facts]
    # whether a one-tile dimension can be partial: a question of the kernel's, asked only for those
    bounded = bounded_sources(kernel, access) if any(d.tiling is Tiling.WHOLE for d in access.dims) else set()
    checked_extents = bounded_extents(kernel) if any(d.extent for d in access.dims) else set()
    needed = []
    for dim in access.dims:
        if dim.source in access.checked_dims or _whole_tiles(kernel, access, dim, facts):
            continue
        if dim.tiling is Tiling.WHOLE and dim.source not in bounded and (dim.tile, dim.extent) not in checked_extents:
            continue  # one tile spans the dimension and nothing says it can be partial
        needed.append(dim)
    covered, uncovered, local_only = [], [], []
    for dim in needed:
        if any(covers(b, dim) for b in access.guards):
            covered.append(dim)
            continue
        local = next((b for b in access.guards if b.source == dim.source and b.local), None)
        if local is not None and not _bounded_across(kernel, access, dim, local):
            local_only.append((dim, local))
        else:
            uncovered.append(dim)
    guarded = tuple(d for d in access.dims
                    if any(covers(b, d) and not b.wrap and not b.walk for b in access.guards))
    return Coverage(tuple(needed), tuple(covered), tuple(uncovered), tuple(local_only), guarded)


def _in_reach(access: Access) -> bool:
    """A global access whose index the frontend read fully: the rules judge its dimensions."""
    return not access.opaque and access.space is Space.GLOBAL


def _whole_tiles(kernel: Kernel, access: Access, dim: Dim, facts: list[Divisibility]) -> bool:
    """The dimension's tiles are all whole: a contract says so, its tile is 1 (every extent is a
    multiple of 1), or the loop that walks it stops before the partial tile (BC301 reports a
    skipped tail), walks a compile-time region that no program places, or leaves the partial tile
    to a peeled access."""
    return dim.tile == "1" or contract_for(dim, facts, extents_of(kernel, dim)) is not None or (
        dim.loop is not None and (dim.loop.full_tiles or dim.loop.fixed and dim.tiling is Tiling.LOOP
                                  or _peeled(kernel, access, dim)))


def _peeled(kernel: Kernel, access: Access, dim: Dim) -> bool:
    """The partial tile is handled outside the loop: another access to the same buffer, before or
    after it, bounds the same lane (a peeled, masked tail), so the loop holds full tiles only."""
    loop = dim.loop
    assert loop is not None
    if loop.walks_tail:
        return False  # a loop that runs the partial tile leaves no tail to peel
    # the walk the access is made in: another call of the same helper walks the loop again
    walk = next((w for w in reversed(access.within) if w.loop == loop.span), None)
    return any(
        other is not access and other.buffer == access.buffer  # (the tail itself is no access the loop leaves it to)
        and (walk not in other.within if walk else all(w.loop != loop.span for w in other.within))
        and any(b.source == dim.source and not b.wrap for b in other.guards)
        and _may_hold_tail(other, dim.source, loop)
        for other in kernel.accesses
    )


def _may_hold_tail(other: Access, source: str, loop: Loop) -> bool:
    """``other`` can be the partial tile that ``loop`` leaves: it is outside any loop over the lane
    (after the loop, or moved by it), or in a loop that walks the lane's tiles up to an extent
    (``range(prev_multiple, n, B)``, ``range(a, min(b, cdiv(n, B)))``, ``range(NT - 1, -1, -1)``).
    A masked access in a loop over other tiles is no tail of this one where that loop holds full
    tiles only (the tiles below the program's own), walks down to 0, or has a trip count that says
    nothing of the extent (``range(0, i_i)``: the sub-chunks before this one)."""
    theirs = {d.loop for d in other.dims if d.source == source} - {None, loop}
    return all(lp.walks_tail or (not lp.full_tiles and lp.walks is not None) for lp in theirs)


def describe_dims(dims: tuple[Dim, ...] | list[Dim], among: tuple[Dim, ...] = ()) -> str:
    """The dimensions by label and tile; with their axes where the label alone is ambiguous
    (several dimensions named, or ``among`` the access's dimensions another one shares a label)."""
    labels = [d.label for d in among]

    def one(d: Dim) -> str:
        ambiguous = len(dims) > 1 or labels.count(d.label) > 1
        notes = ([f"axis {d.axis}"] if d.axis is not None and ambiguous else []) + \
            ([f"tile {d.tile}"] if d.tile else [])
        return f"`{d.label}`" + (f" ({', '.join(notes)})" if notes else "")

    return ", ".join(one(d) for d in dims)


def smallest_break(dim: Dim) -> str:
    """The smallest shape that leaves a partial tile: one more than a tile. A tile of indices read
    from memory (Triton ``gathered`` dimensions) breaks on the values it holds, not on a shape."""
    if dim.source.startswith("gathered "):
        return "any index it reads at or past the extent (a padding or sentinel id)"
    return f"any extent that is not a multiple of {dim.tile}, e.g. {dim.tile} + 1" if dim.tile else \
        "any extent that is not a multiple of the tile"


def atom(text: str) -> str:
    """``text`` as an operand: parenthesised unless it is a name, a number or a subscript; an
    expression the analysis built from inlined values cut to its two ends (:func:`brief`)."""
    return text if re.fullmatch(r"[\w.\[\]]+", text) else f"({brief(text)})"


def brief(text: str, keep: int = 48) -> str:
    """``text`` as its first and last ``keep`` characters where it is longer than a reader takes
    in (an extent built from several loads the kernel makes): the line it is on holds the rest."""
    return text if len(text) <= 2 * keep + 24 else f"{text[:keep].rstrip()} … {text[-keep:].lstrip()}"


def floor_fix(div: FloorDiv, language: Language, cdiv: str) -> tuple[str, str]:
    """How to write the ceiling and the contract for ``div`` in the kernel's language (``cdiv``:
    Triton's spelling where the division sits, ``tl.cdiv`` or ``triton.cdiv``)."""
    n, t = atom(div.extent), atom(div.tile)
    ceiling = f"{cdiv}({div.extent}, {div.tile})" if language is Language.TRITON else f"({n} + {t} - 1) / {t}"
    return f"`{ceiling}`", f"`{n} % {t} == 0`"


def floor_contract(div: FloorDiv, facts: list[Divisibility] | tuple[Divisibility, ...]) -> Divisibility | None:
    """A fact that makes a floor division exact (BC301 trip counts, BC302 grids)."""
    return next((f for f in facts if not f.between_sizes and ((f.tile == div.tile and not f.pitch)
                 or (f.extent == div.extent and f.tile and not f.spans
                     and not _proper_divisor(f.tile, div.tile)
                     and not _asserted_multiple(div.tile, f.tile, facts)))), None)


def tail_taken_up(kernel: Kernel, div: FloorDiv) -> bool:
    """The kernel finishes what the floor leaves: a remainder of the floor's extent by its tile,
    or by a multiple of it (``d % (blockDim.x * V)`` beside ``d / V`` vectors: what lies past the
    last multiple of the larger size holds what lies past the last multiple of V)."""
    mine = tile_factors(div.tile)
    for extent, tile in kernel.tail_handled:
        if extent == div.extent and (tile == div.tile or _multiset_in(mine, tile_factors(tile))):
            return True
    return False


def _multiset_in(part: list[str], whole: list[str]) -> bool:
    return all(whole.count(f) >= part.count(f) for f in set(part))


def _asserted_multiple(tile: str, part: str, facts: list[Divisibility] | tuple[Divisibility, ...]) -> bool:
    """``static_assert(BN % 4 == 0)``: the tile BN is written as a multiple of 4, so ``n % 4 == 0``
    says nothing about ``n % BN``."""
    return tile != part and any(f.between_sizes and f.extent == tile and f.tile == part for f in facts)


SENTINEL = 1e4  # a padding at least this far out is a max's or min's identity in practice


def is_identity(value: float | None, identity: float) -> bool:
    """``value`` absorbs into a reduction with ``identity``: equal to it, or for a max (min) a
    sentinel far below (above) any value a kernel reduces (``-1e9``, ``-10000.0``: the masking
    convention of attention kernels, for which ``-inf`` would give NaN on a fully masked row)."""
    if value is None:
        return False
    if math.isinf(identity) and not math.isnan(value) and value * identity > 0 and abs(value) >= SENTINEL:
        return True
    return value == identity or (math.isnan(value) and math.isnan(identity))


def masked_identity_advice(use: Use, language: Language) -> str:
    """How to mend a padding that a step on the way (``exp``, a test ``x == 0``) turns into a
    non-identity: the padding an exponential takes to 0.0 (-inf), else a mask after the last step."""
    identity = format_value(use.reduction.identity)
    if use.reduction.identity == 0.0 and use.via in (("exp",), ("exp2",)):
        return f"pad with -inf, which {use.via[0]} takes to 0.0"
    again = f"`tl.where(mask, …, {identity})`" if language is Language.TRITON else f"`in_bounds ? … : {identity}`"
    return f"set those lanes to {identity} after {use.via[-1]} ({again})"


def padding_places(use: Use) -> tuple[tuple[Span, str], ...]:
    """The lines a padding finding involves beside its access: the reduction the padding reaches,
    and where it was shifted on the way."""
    shift = ((use.padding.shift_at, f"where the padding is shifted by `{use.padding.shifted}`"),) \
        if use.padding.shifted and use.padding.shift_at else ()
    product = ((use.padding.product_at, "the dot that makes the padding whole rows or columns of its product"),) \
        if use.padding.product_at else ()
    return ((use.span, f"the {use.reduction.value} the padding reaches"), *product, *shift)


def _whole_tile_guards(kernel: Kernel, access: Access) -> set[Bound]:
    """The access's guards on a dimension that holds whole tiles only (a loop over the tiles below
    the program's own, a floored trip count, a contract): true on every lane, they pad none. (A
    whole tile that nothing else bounds is no such dimension: its mask says it can be partial.)"""
    if not _in_reach(access):
        return set()
    facts = [*kernel.contracts, *access.facts]
    whole = {d.source for d in access.dims if _whole_tiles(kernel, access, d, facts)}
    return {b for b in access.guards if b.source in whole}


def harmful_uses(kernel: Kernel, access: Access) -> list[Use]:
    """Reductions that receive padding other than their identity along an axis whose lanes the
    access's guards can leave out."""
    whole = _whole_tile_guards(kernel, access)
    if access.guards and whole >= set(access.guards):
        return []
    guarded_axes = {b.axis for b in access.guards if b not in whole}
    out = []
    for use in access.uses:
        # a shifted padding is reported where it is summed (`sum((x - mean) ** 2)`); into a dot the
        # other operand's own zero padding usually cancels it, which the flows do not follow
        shifted = bool(use.padding.shifted) and use.reduction is Reduction.SUM
        if use.padding.value is None and not use.padding.stale and not shifted:
            continue
        if use.axes is not None and None not in guarded_axes and not guarded_axes & set(use.axes):
            continue
        if use.padding.stale or shifted or not is_identity(use.padding.value, use.reduction.identity):
            out.append(use)
    return out


def product_advice(use: Use) -> str:
    """How to mend a padding a dot carried into its product: no ``other=`` can, since the padded
    rows or columns of a product hold the dot of the padding with the other operand."""
    identity = {-math.inf: 'float("-inf")', math.inf: 'float("inf")'}.get(use.reduction.identity,
                                                                         repr(use.reduction.identity))
    return (f"mask the product along the padded axis before the {use.reduction.value}"
            f" (`s = tl.where(mask, s, {identity})`); no `other=` on the load can")
