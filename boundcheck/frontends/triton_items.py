"""Whole items: ``h * S + arange(0, S)`` where a program runs each of a counted number of items.

A tile offset ``pid * T`` is a block of a longer extent where the grid is a ceiling of that extent
by T (``cdiv(n, T)``), and then the last block is partial. It is an item where the launch counts
something else: ``kernel[(num_seqs, num_heads)](…, HEAD_SIZE=head_size)`` runs one program per
head, and ``head * HEAD_SIZE + arange(0, HEAD_SIZE)`` is that head's whole row. No extent is cut
into tiles, so no tile is partial. The reading holds where, at every launch in the run:

- the program id's grid dimension is no ceiling or floor (no ``cdiv``, ``//``, ``-``) and does not
  mention the value passed as T; or the item is ``x % C`` with C a kernel parameter given such a
  count (``head = block % NH``, ``NH=num_heads``: C items of T, whatever x is), where no launch
  argument is a ceiling or floor by T's value (``num_m_blocks = cdiv(seqlen_q, BLOCK_M)`` makes
  ``(i % batch) * BLOCK_M`` rows of a tile the code assumes, not items the host gives);
- T is given a size the host holds by name (the launching function's parameter), not a literal,
  a tuning meta-parameter or ``next_power_of_2(n)``; where that name holds a tensor's dimension, it
  is the last dimension of a tensor the kernel is given (``m, h = x.shape; k[(m,)](x, out, H=h)``
  reads rows of x and of its companions whole; a middle dimension is no row, and a dimension of a
  tensor the kernel never sees says nothing of the rows it indexes).

And in the kernel: the index adds no constant step, the program id enters it in that one term (a
modulo item may sit in a row of any stride), no other term steps by T (rows
of items are :mod:`triton_head_rows`' to check against the row's count), and the kernel never cuts an
extent into T elsewhere (a ``cdiv`` or ``range`` step by T, a mask of a lane of T against an extent).
"""

from __future__ import annotations

import re

from boundcheck import symbolic as sy
from boundcheck.frontends.triton_head_rows import PROGRAM_ID, ROUNDED_GRID, Layout, remainder_count
from boundcheck.model import Bound, Span


def whole_item(index: sy.Expr, part: sy.DimPart, span: Span, launches: list[Layout],
               grids: list[tuple[str, ...] | None], sizes: list[dict[str, tuple[str, int]]]) -> Bound | None:
    """The bound of an item's lanes, or None where the code does not count items of the tile."""
    tile = part.dim.tile
    if tile is None or not tile.isidentifier() or not launches or not len(grids) == len(launches) == len(sizes):
        return None
    given = [values.get(tile, "") for values, _ in launches]
    if not all(_item_size(v, shapes.get(tile), values) for v, shapes, (values, _) in zip(given, sizes, launches)):
        return None  # decided by the launches alone, before the index is expanded
    terms = sy.expand(index)
    if sy.constant(terms):
        return None  # `+ 1` steps past the item's end
    stride = list(part.stride)
    axis, modulus = None, None
    programs: list[str] = []
    for t in sy.variable(terms):
        if any(sy.lanes(f) for f in t.factors):
            continue
        names = [s.name for f in t.factors for s in sy.syms(f) if s.kind is sy.Kind.PROGRAM]
        programs += names
        rest = sy.without(list(t.factors), stride)
        rendered = sorted(sy.render(f) for f in rest) if rest is not None else []
        m = PROGRAM_ID.fullmatch(names[0]) if len(names) == 1 else None
        head = remainder_count(next((f for f in rest or () if sy.render(f) != tile), None))
        if t.coeff == 1 and m and axis is None and rendered == sorted([names[0], tile]):
            axis = int(m.group(1))
        elif t.coeff == 1 and modulus is None and head is not None and len(rendered) == 2 and tile in rendered:
            modulus = head
        elif tile in [sy.render(f) for f in t.factors]:
            return None  # rows of whole items (`row * (H * S)`): heads of a row, triton_head_rows
    if modulus is not None and axis is None:
        counts = [values.get(modulus, "") for values, _ in launches]
        if not all(counts) or any(_mentions(c, size) or ROUNDED_GRID.search(c) for c, size in zip(counts, given)):
            return None
        if any(ROUNDED_GRID.search(v) and _mentions(v, size) for (values, _), size in zip(launches, given)
               for v in values.values()):
            return None  # `num_m_blocks = cdiv(seqlen_q, BLOCK_M)` beside it: T tiles an extent, so
            # `(i % batch) * BLOCK_M` assumes rows of BLOCK_M per batch that nothing gives
        count = modulus
    else:
        if axis is None or programs.count(f"program_id({axis})") != 1:
            return None
        counts = []
        for size, grid in zip(given, grids):
            if grid is None or axis >= len(grid) or ROUNDED_GRID.search(grid[axis]) or _mentions(grid[axis], size):
                return None
            counts.append(grid[axis])
        count = counts[0] if len(set(counts)) == 1 else f"program_id({axis}) count"
    return Bound(part.dim.source, part.dim.label, "<", f"{count} * {tile} items", True, span, wrap=True,
                 axis=part.dim.axis)


def _item_size(given: str, size: tuple[str, int] | None, values: dict[str, str]) -> bool:
    """The tile's host value is a name the host holds and no tensor dimension, or the last
    dimension of a tensor the launch passes."""
    return given.isidentifier() if size is None else size[1] == -1 and size[0] in values.values()


def _mentions(text: str, name: str) -> bool:
    """``name`` is one of the host values ``text`` is built from."""
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w(\[])", text) is not None
