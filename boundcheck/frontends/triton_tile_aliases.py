"""Tiles named by a compile-time local that is, on every path, a tile a fact speaks of or a packed
part of it: ``PACKED_BLOCK_K_A: tl.constexpr = BLOCK_SIZE_K // A_PACK_DIVISOR`` in one branch
(``A_PACK_DIVISOR`` 2 or 1) and ``= BLOCK_SIZE_K`` in the other. Where ``K % BLOCK_SIZE_K == 0``
(``EVEN_K``), the local's tiles are whole too: a power of two ``c`` divides the tile, as
``symbolic.packed_tile`` reads ``BLOCK_K // 2``."""

from __future__ import annotations

import ast
from dataclasses import replace

from boundcheck.model import Divisibility


def _power_of_two(node: ast.expr, defs: dict[str, list[ast.expr]], depth: int = 0) -> bool:
    """``2``, ``2 if fp4 else 1``, or a local every assignment of which is one."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int and node.value > 0 and node.value & (node.value - 1) == 0
    if isinstance(node, ast.IfExp):
        return _power_of_two(node.body, defs, depth) and _power_of_two(node.orelse, defs, depth)
    if isinstance(node, ast.Name) and depth < 3 and node.id in defs:
        return all(_power_of_two(v, defs, depth + 1) for v in defs[node.id])
    return False


def _part_of(value: ast.expr, defs: dict[str, list[ast.expr]]) -> str | None:
    """The tile ``value`` is, or a power-of-two part of: ``B`` for ``B`` and ``B // c``."""
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.FloorDiv) and isinstance(value.left, ast.Name) \
            and _power_of_two(value.right, defs):
        return value.left.id
    return None


def aliases(defs: dict[str, list[ast.expr]]) -> dict[str, str]:
    """Local name -> the one tile every assignment of it is, or is a power-of-two part of."""
    out = {}
    for name, values in defs.items():
        parts = {_part_of(v, defs) for v in values}
        if len(parts) == 1 and (base := parts.pop()) is not None and base != name:
            out[name] = base
    return out


def with_aliases(facts: tuple[Divisibility, ...], names: dict[str, str]) -> tuple[Divisibility, ...]:
    """``facts`` and, for each on a tile an alias divides, the same fact on the alias."""
    extra = [replace(f, tile=alias) for f in facts if not (f.pitch or f.spans or f.between_sizes)
             for alias, base in names.items() if f.tile == base]
    return facts + tuple(f for f in extra if f not in facts)
