"""What the Triton frontend knows about a value while it walks a kernel.

A :class:`Val` may be an index (a symbolic expression), a mask (a conjunction of comparisons), a
block pointer or tensor descriptor, and/or data loaded by an access, whose out-of-bounds lanes
carry a padding value that is followed through arithmetic (:class:`Flow`) to the reductions it
reaches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from boundcheck.model import Span
from boundcheck.symbolic import Comparison, Expr


@dataclass(frozen=True)
class Flow:
    """Loaded data from access ``access``; ``pad`` is what its masked lanes now hold."""

    access: int
    pad: float | None
    undefined: bool = False
    via: tuple[str, ...] = ()
    nonneg: bool = False  # every valid lane is >= 0 (after abs, exp, x * x)
    swapped: bool = False  # the data was transposed (``tl.trans`` of a 2-D tile): its axes are swapped
    axis: int | None = None  # a 1-D tile broadcast (``x[:, None]``): the axis its padded lanes lie along
    tile_axis: int = 0  # the loaded tile's axis whose padded lanes lie along ``axis`` (a dot's operand)
    shifted: str = ""  # a runtime value the padding was moved by (``x - mean``: padded lanes hold ``-mean``)
    shift_at: Span | None = None  # where it was moved
    product_at: Span | None = None  # the dot that carried it into whole rows or columns of its product
    suffix: bool = False  # padded lanes come after every valid lane along each axis (`offs < n`)


@dataclass(frozen=True)
class BlockPtr:
    base: str
    shape: tuple[Expr, ...]
    offsets: tuple[Expr, ...]
    block: tuple[str, ...]


@dataclass(frozen=True)
class Val:
    expr: Expr | None = None
    conds: tuple[Comparison, ...] | None = None
    opaque_mask: bool = False
    bptr: BlockPtr | None = None
    desc: bool = False
    flows: tuple[Flow, ...] = ()
    number: float | None = None
    items: tuple[Val, ...] | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)


def _safe(fn, *args: float) -> float | None:  # type: ignore[no-untyped-def]
    try:
        value = fn(*args)
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    return None if isinstance(value, complex) else float(value)


def arith(op: str, a: float | None, b: float | None) -> float | None:
    """``a op b`` where either side may be unknown (None): what the padding becomes."""
    if a is None:
        return None
    if b is None:  # an unknown, finite, unpadded operand
        if op in "+-" and math.isinf(a):
            return a
        if op in ("*", "/") and a == 0.0:
            return 0.0
        if op in ("*", "/") and math.isinf(a):
            return a  # times a scale (``sm_scale``, ``1 / sqrt(d)``): taken as positive, as kernels use it
        return a if math.isnan(a) else None
    if op == "+":
        return _safe(lambda x, y: x + y, a, b)
    if op == "-":
        return _safe(lambda x, y: x - y, a, b)
    if op == "*":
        return 0.0 if (a == 0.0 or b == 0.0) and not (math.isinf(a) or math.isinf(b)) else _safe(lambda x, y: x * y, a, b)
    if op == "/":
        return _safe(lambda x, y: x / y, a, b)
    return None


def arith_reversed(op: str, known: float | None, pad: float | None) -> float | None:
    """``known op pad`` (the padded value on the right)."""
    if op in "+*":
        return arith(op, pad, known)
    if pad is None:
        return None
    if known is None:
        return -pad if op == "-" and math.isinf(pad) else None
    return arith(op, known, pad)


ELEMENTWISE = {
    "exp": (math.exp, True), "exp2": (lambda x: 2.0 ** x, True), "abs": (abs, True),
    "fabs": (abs, True), "sqrt": (math.sqrt, True), "sqrt_rn": (math.sqrt, True),
    "log": (math.log, False), "log2": (math.log2, False), "sigmoid": (lambda x: 1 / (1 + math.exp(-x)), True),
    "tanh": (math.tanh, False), "sin": (math.sin, False), "cos": (math.cos, False),
    "erf": (math.erf, False), "rsqrt": (lambda x: 1 / math.sqrt(x), True),
}


def elementwise(name: str, flows: tuple[Flow, ...]) -> tuple[Flow, ...]:
    fn, nonneg = ELEMENTWISE[name]
    out = []
    for f in flows:
        pad = None if f.pad is None else _safe(fn, f.pad)
        if f.pad is not None and math.isinf(f.pad) and name in ("exp", "exp2"):
            pad = 0.0 if f.pad < 0 else math.inf
        out.append(replace(f, pad=pad, via=(*f.via, name), nonneg=nonneg or f.nonneg))
    return tuple(out)


def scanned(flows: tuple[Flow, ...], name: str) -> tuple[Flow, ...]:
    """What padded lanes past every valid one hold after a forward ``cumsum`` or ``cumprod``: the
    valid lanes' total combined with the padding, known only where the padding absorbs it (an
    infinity, or a zero in a product)."""
    out = []
    for f in flows:
        kept = f.pad is not None and (math.isinf(f.pad) or name == "cumprod" and f.pad == 0.0)
        out.append(replace(f, pad=f.pad if kept else None, via=(*f.via, name)))
    return tuple(out)
