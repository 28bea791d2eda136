"""A small language-neutral expression form, and the index algebra both frontends share.

Frontends translate index, mask and guard expressions into :data:`Expr` trees, with each name
classified (:class:`Kind`). This module expands them into sums of products to split an index into
per-dimension parts, normalise comparisons into :class:`~boundcheck.model.Bound`, and spot floor
divisions. Everything it cannot read stays an opaque factor, so rules stay silent rather than guess.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from boundcheck.model import Bound, Dim, FloorDiv, Loop, Span, TileWalk, Tiling


class Kind(enum.Enum):
    LANE = "lane"  # varies across the lanes of a tile: tl.arange, threadIdx
    PROGRAM = "program"  # program / block id
    LOOP = "loop"  # a loop induction variable
    EXTENT = "extent"  # a runtime scalar (problem size, stride, loaded length)
    CONST = "const"  # a compile-time constant: tl.constexpr, template parameter, macro
    OTHER = "other"  # anything else (a pointer, an unknown local)


@dataclass(frozen=True)
class Sym:
    name: str
    kind: Kind


@dataclass(frozen=True)
class Num:
    value: int | float


@dataclass(frozen=True)
class Bin:
    op: str  # + - * / // % & | ^ << >>
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Call:
    fn: str  # normalised: "min", "max", "cdiv", or the callee's text
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Axis:
    """``e[:, None]``: the lanes of ``e`` lie along broadcast ``axis``."""

    expr: Expr
    axis: int


Expr = Sym | Num | Bin | Call | Axis


@dataclass(frozen=True)
class Comparison:
    """One comparison ``left OP right`` of a mask or guard, as it holds on its path, with the
    operator token's place for the safe fix and the source text of the whole and of each side."""

    left: Expr
    op: str
    right: Expr
    span: Span
    op_span: Span | None
    op_text: str
    text: str = ""
    left_text: str = ""
    right_text: str = ""


def tile_factors(tile: str) -> list[str]:
    """The factors a rendered tile size is written as (``STEPS * BX`` -> ``BX``, ``STEPS``), sorted."""
    return sorted(p.strip(" ()") for p in tile.split("*"))


_PACKED = re.compile(r"^\(?(\w+)\)? //? (\d+)$")


def packed_tile(tile: str) -> str | None:
    """The tile ``T`` of a packed tile ``T // c`` (two fp4 values a byte, eight int4 a word), with
    ``c`` a power of two: where ``n % T == 0``, the packed row of ``n // c`` holds whole tiles of
    ``T // c`` (and so does ``n``); an ``arange`` of ``T // c`` makes T a power of two too."""
    m = _PACKED.match(tile)
    return m.group(1) if m and int(m.group(2)) & (int(m.group(2)) - 1) == 0 else None


def render(e: Expr) -> str:
    """Source-like text for messages (minimal parentheses)."""
    match e:
        case Sym(name=name):
            return name
        case Num(value=v):
            return str(v)
        case Axis(expr=inner):
            return render(inner)
        case Call(fn=fn, args=args):
            return f"{fn}({', '.join(render(a) for a in args)})"
        case Bin(op=op, left=left, right=right):
            return f"{_paren(left, op, False)} {op} {_paren(right, op, True)}"
    raise TypeError(e)


_PRECEDENCE = {"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6}


def _paren(e: Expr, parent: str, right: bool) -> str:
    text = render(e)
    if isinstance(e, Bin):
        return _wrapped(text, _PRECEDENCE.get(e.op, 0), parent, right)
    if isinstance(e, Sym):
        return operand(text, parent, right)  # an opaque operand kept as its source text (`c ? a : b`)
    return text


def operand(text: str, parent: str, right: bool = False) -> str:
    """Source or rendered ``text`` as an operand of ``parent`` (``%``, ``<``), parenthesised only
    where its loosest operator binds looser: ``(n - 1) % 4``, ``K * N % 4``, ``i < (c ? a : b)``."""
    return _wrapped(text, _text_precedence(text), parent, right)


def _wrapped(text: str, mine: int, parent: str, right: bool) -> str:
    theirs = _PRECEDENCE.get(parent, 0)
    if mine < theirs or (right and mine == theirs and parent in "-/%//"):
        return f"({text})"
    return text


def _text_precedence(text: str) -> int:
    """The precedence of source text's loosest operator outside brackets (that of a name when it
    has none): ``a % 16`` binds as ``%``, a comparison looser than any arithmetic, ``c ? a : b``
    looser still; ``p->n``, ``a::b`` and ``x[i + 1]`` are names."""
    depth, loosest, prev = 0, 99, ""
    for ch in text.replace("->", ".").replace("::", "."):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch in _TEXT_PRECEDENCE:
            shift = ch in "<>" and prev == ch
            loosest = min(loosest, _PRECEDENCE["<<"] if shift else _TEXT_PRECEDENCE[ch])
        prev = ch
    return loosest


# one character of each operator: comparisons and logic bind looser than all of _PRECEDENCE (a
# shift, `<<`, is told from a comparison by its doubled character), the conditional looser still
_TEXT_PRECEDENCE = {**{c: _PRECEDENCE[c] for c in "|^&+-*/%"}, **{c: 0 for c in "<>=!"}, "?": -1, ":": -1}


def syms(e: Expr) -> Iterator[Sym]:
    match e:
        case Sym():
            yield e
        case Bin(left=left, right=right):
            yield from syms(left)
            yield from syms(right)
        case Call(args=args):
            for a in args:
                yield from syms(a)
        case Axis(expr=inner):
            yield from syms(inner)


def tree_size(e: Expr, cap: int, memo: dict[int, tuple[Expr, int]] | None = None) -> int:
    """The nodes of ``e`` read as a tree (a subexpression shared by several parents counted for
    each), stopping past ``cap``: linear in the shared form, however large the tree. ``memo``
    (object id -> the object, kept alive so that its id is not reused, and its size) carries the
    sizes from one call to the next."""
    seen: dict[int, tuple[Expr, int]] = {} if memo is None else memo

    def size(x: Expr) -> int:
        key = id(x)
        if key not in seen:
            if isinstance(x, Bin):
                n = 1 + size(x.left) + size(x.right)
            elif isinstance(x, Call):
                n = 1 + sum(size(a) for a in x.args)
            elif isinstance(x, Axis):
                n = 1 + size(x.expr)
            else:
                n = 1
            seen[key] = (x, min(n, cap + 1))
        return seen[key][1]

    return size(e)


MAX_VALUE_NODES = 400  # a value larger as a tree is no index the rules could read


def oversized(e: Expr, memo: dict[int, tuple[Expr, int]] | None = None) -> bool:
    """``e`` is larger than any index as a tree: a value rebuilt from itself (``x = f(x, x)`` in a
    sorting network) doubles at every step, and every reading of it would walk that tree; the
    frontends bind such a value as an opaque name."""
    return isinstance(e, (Bin, Call)) and tree_size(e, MAX_VALUE_NODES, memo) > MAX_VALUE_NODES


def substitute(e: Expr, values: dict[str, Expr]) -> Expr:
    """``e`` with the names in ``values`` replaced by their expressions."""
    if isinstance(e, Sym):
        return values.get(e.name, e)
    if isinstance(e, Bin):
        return Bin(e.op, substitute(e.left, values), substitute(e.right, values))
    return e


def kinds(e: Expr) -> set[Kind]:
    return {s.kind for s in syms(e)}


def lanes(e: Expr, axis: int | None = None) -> set[tuple[str, int | None]]:
    """The lane symbols of ``e`` with the broadcast axis each lies on."""
    match e:
        case Sym(name=name, kind=Kind.LANE):
            return {(name, axis)}
        case Axis(expr=inner, axis=a):
            return lanes(inner, a if axis is None else axis)
        case Bin(left=left, right=right):
            return lanes(left, axis) | lanes(right, axis)
        case Call(args=args):
            return set().union(*(lanes(a, axis) for a in args)) if args else set()
    return set()


# --- sums of products ---------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """``coeff * f1 * f2 …``; factors are symbols or expressions the algebra does not open."""

    coeff: int | float
    factors: tuple[Expr, ...]


def expand(e: Expr) -> list[Term]:
    """Distribute ``+``, ``-`` and ``*`` (and shifts by constants) into a list of terms."""
    match e:
        case Num(value=v):
            return [Term(v, ())]
        case Axis(expr=inner, axis=a):
            return [Term(t.coeff, tuple(_on_axis(f, a) for f in t.factors)) for t in expand(inner)]
        case Bin(op="+", left=left, right=right):
            return expand(left) + expand(right)
        case Bin(op="-", left=left, right=right):
            return expand(left) + [Term(-t.coeff, t.factors) for t in expand(right)]
        case Bin(op="*", left=left, right=right):
            return [
                Term(a.coeff * b.coeff, a.factors + b.factors)
                for a in expand(left)
                for b in expand(right)
            ]
        case Bin(op="<<", left=left, right=Num(value=int(k))):
            return [Term(t.coeff * (1 << k), t.factors) for t in expand(left)]
    return [Term(1, (e,))]


def _on_axis(e: Expr, axis: int) -> Expr:
    return e if isinstance(e, Num) else Axis(e, axis)


def constant(terms: list[Term]) -> int | float:
    return sum(t.coeff for t in terms if not t.factors)


def variable(terms: list[Term]) -> list[Term]:
    return [t for t in terms if t.factors and t.coeff != 0]


def collect(terms: list[Term]) -> list[Term]:
    """Like terms added up, the ones that cancel dropped: ``i_b * T + T - i_b * T`` is ``T``."""
    sums: dict[tuple[str, ...], Term] = {}
    for t in terms:
        key = tuple(sorted(render(f) for f in t.factors))
        sums[key] = Term(sums[key].coeff + t.coeff, t.factors) if key in sums else t
    return [t for t in sums.values() if t.coeff != 0]


def sum_of(terms: list[Term]) -> Expr:
    """The expression ``terms`` add up to (``Num(0)`` for none)."""
    out: Expr | None = None
    for t in terms:
        part: Expr = Num(t.coeff)
        for f in t.factors:
            part = f if part == Num(1) else Bin("*", part, f)
        out = part if out is None else Bin("+", out, part)
    return out if out is not None else Num(0)


def lanes_cancelled(e: Expr) -> Expr:
    """``e`` summed up where lanes cancel in it (``i + n - i`` of an end taken from a lane's start
    is ``n``, the same for every lane); ``e`` itself otherwise."""
    if not lanes(e):
        return e
    terms = expand(e)
    kept = collect(terms)
    moving = sum(1 for t in terms if any(lanes(f) for f in t.factors))
    return e if moving == sum(1 for t in kept if any(lanes(f) for f in t.factors)) else sum_of(kept)


def is_loaded(e: Expr) -> bool:
    """A value read from memory (``tl.load(...)``, kept as its text): data, not a size or an id."""
    return isinstance(e, Sym) and e.kind is Kind.OTHER and e.name.startswith(("tl.load(", "load("))


def terms_text(terms: list[Term]) -> str:
    """Canonical text of a sum (order-independent), used to compare limits and tiles."""
    parts = []
    for t in sorted(terms, key=lambda t: sorted(render(f) for f in t.factors)):
        body = " * ".join(sorted(render(f) for f in t.factors))
        if not body:
            parts.append(str(t.coeff))
        elif t.coeff == 1:
            parts.append(body)
        elif t.coeff == -1:
            parts.append(f"-{body}")
        else:
            parts.append(f"{t.coeff} * {body}")
    return " + ".join(parts).replace("+ -", "- ") or "0"


# --- dimensions of an index ----------------------------------------------------------------


def _term_kinds(t: Term) -> set[Kind]:
    return set().union(*(kinds(f) for f in t.factors)) if t.factors else set()


def _stride_key(t: Term) -> frozenset[str]:
    return frozenset(render(f) for f in t.factors if not lanes(f))


def _tiling(ks: set[Kind]) -> Tiling:
    if Kind.PROGRAM in ks:
        return Tiling.PROGRAM
    if Kind.LOOP in ks:
        return Tiling.LOOP
    return Tiling.WHOLE


@dataclass(frozen=True)
class DimPart:
    """One dimension of an index and the protection it carries by construction."""

    dim: Dim
    intrinsic: Bound | None  # a wrap (``% M``) or clamp (``min(i, M - 1)``) bounding it
    offset_syms: frozenset[str] = frozenset()  # program / loop symbols of its tile offset
    whole_rows: bool = False  # the intrinsic bound is a row pitch of whole tiles (a layout fact)
    shift: int = 0  # constant steps of this dimension's stride in the index (``(o - 1) * s`` has -1)
    stride: tuple[str, ...] = ()  # the lane term's other factors, and its coefficient when not 1
    # program / loop terms whose longest lane stride is this one's, with that stride taken out,
    # whether or not they step by its tile: ``i_t * BT`` next to ``i_j * BC + arange(0, BC)`` (a chunk)
    outer: tuple[tuple[Expr, ...], ...] = ()


def dims_of(
    index: Expr, span: Span, loops: dict[str, Loop] | None = None, label: str = "",
    alias_of: Callable[[str], Expr | None] | None = None,
) -> list[DimPart]:
    """Split a flat index into its tile-varying dimensions.

    Each lane term ``lane * stride`` becomes a dimension; a term without lanes (``pid * B``,
    ``k * BLOCK``) is the tile offset of the lane term whose stride it extends, or of the unit-stride
    one. The dimension's tiling comes from the offsets' symbols (program id → PROGRAM, loop
    variable → LOOP). ``alias_of``: the value of a tile name written as a compile-time expression
    (``PAIRED: tl.constexpr = SPLIT * 2`` for ``arange(0, PAIRED)`` stepped by ``pid * PAIRED``).
    """
    loops = loops or {}
    every = expand(index)
    terms = variable(every)
    lane_terms = [t for t in terms if any(lanes(f) for f in t.factors)]
    if not lane_terms:
        return []
    groups: dict[int, list[Term]] = {i: [t] for i, t in enumerate(lane_terms)}
    offsets = [t for t in terms if t not in lane_terms and _term_kinds(t) & {Kind.PROGRAM, Kind.LOOP}]
    ids = [_ids(t) for t in offsets]
    for n, t in enumerate(offsets):
        key = _stride_key(t)
        # the same program / loop ids in another term: their stride is that sum (`i_qk * QKVZ` with
        # `QKVZ = 2 * HEAD + 2 * HV`), which steps by the tile only if every part of it is a multiple
        # of the tile (`i_i * BC * (H * BT)`, the same sub-chunk's row, is)
        siblings = [o for m, o in enumerate(offsets) if m != n and ids[m] == ids[n]]
        best, best_len = None, -1
        for i, lt in enumerate(lane_terms):
            s = _stride_key(lt)
            if s <= key and len(s) > best_len and _steps_by_tile(t, lt, alias_of) \
                    and all(_multiple_of_tile(o, lt) for o in siblings):
                best, best_len = i, len(s)
        if best is not None:
            groups[best].append(t)
    outer = _outer_offsets(terms, lane_terms)
    wrapped = any(isinstance(g := (f.expr if isinstance(f, Axis) else f), Bin) and g.op == "%"
                  for t in terms for f in t.factors)
    parts: dict[tuple[str, int | None], DimPart] = {}
    terms_of: dict[tuple[str, int | None], Term] = {}
    for i, lt in enumerate(lane_terms):
        for lane_name, axis in sorted(lanes(Call("", lt.factors)), key=str):
            ks = set().union(*(_term_kinds(t) for t in groups[i]))
            loop = next((loops[s.name] for t in groups[i] for f in t.factors for s in syms(f)
                         if s.kind is Kind.LOOP and s.name in loops), None)
            dim = Dim(
                source=lane_name, label=label or lane_name, tile=tile_of(lane_name),
                tiling=_tiling(ks), axis=axis, loop=loop, pitches=_pitches(terms, lt),
                contiguous=_innermost(lt),
            )
            key = (lane_name, axis)
            offset = frozenset(s.name for t in groups[i] for f in t.factors for s in syms(f)
                               if s.kind in (Kind.PROGRAM, Kind.LOOP))
            intrinsic = _intrinsic(lt, lane_name, axis, span) \
                or (_floor_wrapped_tile(every, lt, lane_name, axis, span) if wrapped else None)
            rows = None
            if intrinsic is None and dim.tiling is not Tiling.WHOLE:
                rows = intrinsic = _whole_tile_pitch(terms, lt, lane_name, axis, span)
            # a lane is in bounds by construction only where every term it reaches is: in
            # `b * T * C + (i / C % T) * C + i % C` (b = i / C / T) the wraps leave b unbounded
            if key not in parts or intrinsic is None and not _row_of_split(parts[key], terms_of[key], lt):
                terms_of[key] = lt
                parts[key] = DimPart(dim, intrinsic, offset, whole_rows=rows is not None,
                                     shift=_shift(every, lane_terms, lt, lane_name),
                                     stride=tuple(sorted(render(f) for f in lt.factors if not lanes(f)))
                                     + ((str(_int(lt.coeff)),) if lt.coeff != 1 else ()),
                                     outer=outer[i])
    return list(parts.values())


def _multiple_of_tile(term: Term, lane_term: Term) -> bool:
    """``term`` is the lane's tile times further factors: the tile a factor, or a literal tile
    dividing its coefficient. A thread index's tile (``blockDim.x``) is never written in the
    offsets that step by it (``i0 += warp_size``): no sum is judged against it."""
    tiles = {tile_of(n) for f in lane_term.factors for n, _ in lanes(f)} - {None}
    names = {render(f) for f in term.factors}
    return all(t.startswith("blockDim.") for t in tiles) or any(
        t in names or t.isdigit() and int(t) and abs(term.coeff) % int(t) == 0 for t in tiles)


def _ids(term: Term) -> tuple[str, ...]:
    """The program and loop ids a term multiplies, by name."""
    return tuple(sorted(render(f) for f in term.factors if kinds(f) & {Kind.PROGRAM, Kind.LOOP}))


def _innermost(term: Term) -> bool:
    """The lane steps one element at a time, or by one runtime stride (``offs * stride_x_d``, a
    tensor's own stride): the dimension a tensor's size along its rows describes. ``o_t * (H * BT)``
    steps whole rows of another dimension."""
    stride = [f for f in term.factors if not lanes(f)]
    return term.coeff == 1 and (not stride or len(stride) == 1 and isinstance(stride[0], Sym)
                                and stride[0].kind in (Kind.OTHER, Kind.EXTENT))


def _row_of_split(held: DimPart, held_term: Term, term: Term) -> bool:
    """A thread index split by a compile-time size into a row and a column keeps its row:
    ``(tid / (kThreads / Br)) * D + (tid % (kThreads / Br)) * C`` under ``blockIdx.x * Br * D`` is a
    program-tiled row and a column inside it; the row is what a guard must bound. (Literal and
    named divisors are split into two lane sources already, in the frontend.)"""
    if held.intrinsic is not None or held.dim.tiling is Tiling.WHOLE:
        return False
    quotients = {render(f.right) for f in held_term.factors if isinstance(f, Bin) and f.op == "/" and lanes(f.left)}
    return any(isinstance(f, Bin) and f.op == "%" and lanes(f.left) and render(f.right) in quotients
               for f in term.factors)


def _outer_offsets(terms: list[Term], lane_terms: list[Term]) -> list[tuple[tuple[Expr, ...], ...]]:
    """Per lane term, the program / loop terms whose longest contained lane stride is its own,
    each with that stride's factors taken out (``DimPart.outer``)."""
    strides = [sorted(render(f) for f in lt.factors if not lanes(f)) for lt in lane_terms]
    out: list[list[tuple[Expr, ...]]] = [[] for _ in lane_terms]
    for t in terms:
        if t in lane_terms or not (_term_kinds(t) & {Kind.PROGRAM, Kind.LOOP}):
            continue
        names = Counter(render(f) for f in t.factors)
        longest = max((st for st in strides if not Counter(st) - names), key=len, default=None)
        if longest is None:
            continue
        rest = list(t.factors)
        for name in longest:
            rest.remove(next(f for f in rest if render(f) == name))
        for i, st in enumerate(strides):
            if st == longest:
                out[i].append(tuple(rest))
    return [tuple(o) for o in out]


def _in_several_terms(terms: list[Term], lane_name: str) -> bool:
    """The lane appears in more than one term (``rk + ((rk + 1) % 2) * 2 - 1``, neighbours swapped):
    a constant beside it belongs to the other term as much as to the lane, so it is no offset."""
    return sum(any(n == lane_name for f in t.factors for n, _ in lanes(f)) for t in terms) > 1


def _shift(terms: list[Term], lane_terms: list[Term], lane_term: Term, lane_name: str) -> int:
    """The constant ``c`` in ``(lane + c) * stride``: terms that are the stride alone times a number
    (0 where another lane term has the same stride or the same lane, so the constant is ambiguous)."""
    stride = sorted(render(f) for f in lane_term.factors if not lanes(f))
    if sum(sorted(render(f) for f in t.factors if not lanes(f)) == stride for t in lane_terms) > 1 \
            or _in_several_terms(lane_terms, lane_name):
        return 0
    steps = sum(t.coeff for t in terms
                if not any(lanes(f) for f in t.factors) and sorted(render(f) for f in t.factors) == stride)
    # `2 * i + 1` is no whole step of i; a reversed lane (`2 * K - 1 - arange(0, K)`) keeps the
    # constant's sign, as a guard's lane offset does
    return _int(steps / abs(lane_term.coeff)) if lane_term.coeff else 0


def _pitches(terms: list[Term], lane_term: Term) -> tuple[str, ...]:
    """Single sizes by which another term steps past this lane's stride: ``off_hb * seqlen_q_rounded``
    next to ``offs_m`` makes ``seqlen_q_rounded`` the length of the rows ``offs_m`` runs along."""
    stride = _stride_key(lane_term)
    tile = {tile_of(n) for f in lane_term.factors for n, _ in lanes(f)}
    out = []
    for t in terms:
        if t is lane_term or any(lanes(f) for f in t.factors) \
                or not any(kinds(f) & {Kind.PROGRAM, Kind.LOOP} for f in t.factors):
            continue
        rest = {render(f) for f in t.factors if not (kinds(f) & {Kind.PROGRAM, Kind.LOOP})}
        if stride <= rest and len(rest - stride) == 1 and not (rest - stride) & tile:
            out.append(next(iter(rest - stride)))
    return tuple(sorted(set(out)))


def _whole_tile_pitch(terms: list[Term], lane_term: Term, lane_name: str, axis: int | None,
                      span: Span) -> Bound | None:
    """Another lane dimension's stride is the tile times a further size (``o_t * (H * BV)`` next
    to ``i_h * BV + arange(0, BV)``): a row holds a whole number of tiles, so no tile of this
    dimension is partial. Rows of ``n`` elements would have pitch ``n``, not ``H * BV``."""
    tile = tile_of(lane_name)
    if tile is None or tile.startswith("blockDim.") or not tile.isidentifier():
        return None
    stride = _stride_key(lane_term)
    for t in terms:
        if t is lane_term or not any(lanes(f) for f in t.factors):
            continue  # the next dimension is itself indexed by lanes: its stride is the pitch
        pitch = [render(f) for f in t.factors
                 if not lanes(f) and not (kinds(f) & {Kind.PROGRAM, Kind.LOOP})]
        if tile in pitch and stride <= set(pitch) and len(set(pitch) - stride - {tile}) >= 1:
            return Bound(lane_name, lane_name, "<", " * ".join(sorted(pitch)), True, span, wrap=True, axis=axis)
    return None


def without(factors: list[Expr] | tuple[Expr, ...], names: list[str]) -> list[Expr] | None:
    """``factors`` less one factor rendered as each of ``names`` (None where one is missing)."""
    rest = list(factors)
    for name in names:
        hit = next((f for f in rest if render(f) == name), None)
        if hit is None:
            return None
        rest.remove(hit)
    return rest


def _steps_by_tile(offset: Term, lane_term: Term, alias_of: Callable[[str], Expr | None] | None = None) -> bool:
    """``pid * BLOCK`` is the tile offset of ``arange(0, BLOCK)``; ``row * stride`` is not: a
    program or loop offset belongs to a lane dimension only when, past the lane's stride, it is
    the tile times program / loop symbols (and constants) alone."""
    tiles = {tile_of(n) for f in lane_term.factors for n, _ in lanes(f)} - {None}
    rest = without(offset.factors, [render(f) for f in lane_term.factors if not lanes(f)])
    if rest is None:
        return False
    known = {t for t in tiles if not t.startswith("blockDim.")}
    if known:
        tile_factor = next((f for f in rest if render(f) in known), None)
        if tile_factor is not None:
            rest.remove(tile_factor)
        elif not any((n := _tile_number(t, alias_of)) and float(offset.coeff).is_integer()
                     and abs(int(offset.coeff)) % n == 0 for t in known):
            product = next((left for t in known if (left := _past_alias(alias_of, t, offset, rest)) is not None), None)
            if product is None:
                return False
            rest = product
        # past the tile only program / loop ids remain: `(b * H + h) * K * V` is the start of a
        # [K, V] matrix (the other dimension's size is a factor), not a step of the V lane; a grid
        # stride (`t * NP * B` for `t in range(pid, n // B, NP)`) steps by whole grids of tiles
        return all(kinds(f) & {Kind.PROGRAM, Kind.LOOP} for f in rest) \
            or any(kinds(f) & {Kind.LOOP} for f in rest) and all(kinds(f) & {Kind.PROGRAM, Kind.LOOP}
                                                                   or _grid_size(f) for f in rest)
    if not (any(kinds(f) == {Kind.CONST} for f in rest) or abs(offset.coeff) > 1):
        return False
    return all(kinds(f) & {Kind.PROGRAM, Kind.LOOP} or kinds(f) <= {Kind.CONST} for f in rest)


def _grid_size(e: Expr) -> bool:
    """The number of programs in the grid (``tl.num_programs(0)``)."""
    return isinstance(e, Sym) and "num_programs(" in e.name


def _tile_number(tile: str, alias_of: Callable[[str], Expr | None] | None) -> int | None:
    """The positive number a tile is: written (``64``), or a name bound to one (``BLOCK_SIZE``, a
    helper's parameter its caller binds to 8192, under ``tile_id * 8192``)."""
    if tile.isdigit():
        return int(tile) or None
    value = alias_of(tile) if alias_of is not None else None
    return int(value.value) if isinstance(value, Num) and float(value.value).is_integer() and value.value > 0 else None


def _past_alias(alias_of: Callable[[str], Expr | None] | None, tile: str, offset: Term,
                rest: list[Expr]) -> list[Expr] | None:
    """``rest`` less the factors of the product the tile names (``PAIRED`` for ``SPLIT * 2``), where
    the offset holds them all. A quotient (``BN // 32``, a packed tile) is no product: whether its
    tiles are whole is the packed-tile reading's, which needs the divisor written."""
    value = alias_of(tile) if alias_of is not None else None
    terms = expand(value) if value is not None else []
    if len(terms) != 1 or not terms[0].factors or abs(offset.coeff) % abs(terms[0].coeff or 1) \
            or not all(isinstance(f, Sym) for f in terms[0].factors):
        return None
    return without(rest, [render(f) for f in terms[0].factors])


def tile_of(lane_name: str) -> str | None:
    """``tl.arange(0, BLOCK)`` → ``BLOCK``; ``threadIdx.x`` → ``blockDim.x``."""
    if lane_name.startswith("arange(") and "," in lane_name:
        return lane_name[len("arange("):-1].split(",", 1)[1].strip()
    if lane_name.startswith("threadIdx."):
        return "blockDim." + lane_name.rsplit(".", 1)[1]
    return None


def _intrinsic(t: Term, lane_name: str, axis: int | None, span: Span) -> Bound | None:
    """A factor ``(…lane…) % M`` or ``min(…lane…, M - 1)`` keeps the index in bounds."""
    for f in t.factors:
        inner = f.expr if isinstance(f, Axis) else f
        while isinstance(inner, Bin) and inner.op in ("//", ">>") and not lanes(inner.right):
            inner = inner.left  # (i % M) // g stays below M // g: still in bounds
            inner = inner.expr if isinstance(inner, Axis) else inner  # (offs % N)[None, :] // 2
        if isinstance(inner, Bin) and inner.op == "%" and any(n == lane_name for n, _ in lanes(inner.left)) \
                and not lanes(inner.right) and _wraps_by_size(inner.right, lane_name):
            return Bound(lane_name, render(inner.left), "<", render(inner.right), True, span,
                         wrap=True, axis=axis)
        if isinstance(inner, Call) and inner.fn == "min" and any(n == lane_name for n, _ in lanes(inner)):
            others = [a for a in inner.args if not lanes(a)]
            if others:
                return Bound(lane_name, render(inner), "<=", render(others[0]), True, span,
                             wrap=True, axis=axis)
    return None


def _floor_wrapped_tile(terms: list[Term], lane_term: Term, lane_name: str, axis: int | None,
                        span: Span) -> Bound | None:
    """A tile index wrapped by a floored count of tiles, ``(pid % (n // B)) * B + arange(0, B)``:
    the tile index is below ``n // B``, so its whole tile lies below ``n`` (the tail tile is never
    visited: a floored grid or loop count says so where it is written). Another step along the lane
    (``+ B``, ``+ 1``) leaves it unbounded."""
    tile = tile_of(lane_name)
    if tile is None or lane_term.coeff != 1:
        return None
    stride = [render(f) for f in lane_term.factors if not lanes(f)]
    found = None
    for t in terms:
        rest = without(t.factors, stride) if t is not lane_term and not any(lanes(f) for f in t.factors) else None
        if rest is None or rest and tile not in map(render, rest):
            continue  # the lane itself, or another dimension's term (`row * D`)
        wrapped = without(rest, [tile])
        wrap = wrapped[0].expr if wrapped and isinstance(wrapped[0], Axis) else wrapped[0] if wrapped else None
        if found is not None or t.coeff != 1 or len(wrapped or ()) != 1 or not isinstance(wrap, Bin) \
                or wrap.op != "%" or not isinstance(wrap.right, Bin) or wrap.right.op not in ("//", "/") \
                or render(wrap.right.right) != tile or lanes(wrap) or tile in {s.name for s in syms(wrap.right.left)}:
            return None  # `% ((n + B - 1) // B)` counts the partial tile too
        found = render(wrap.right.left)
    return Bound(lane_name, lane_name, "<", found, True, span, wrap=True, axis=axis) if found else None


def _wraps_by_size(modulus: Expr, lane_name: str) -> bool:
    """``% M`` by a size keeps the index below it; a literal (``threadIdx.x % 4``) splits lanes.
    A compile-time expression wraps a Triton lane (``% (head_size // 2)``, a ring of ``ratio * 2``
    rows); over CUDA threads it splits the block (``tid % (kThreads / Br)``)."""
    if kinds(modulus) - {Kind.CONST} or isinstance(modulus, Sym):
        return True
    return lane_name.startswith("arange(") and any(True for _ in syms(modulus))


# --- comparisons ----------------------------------------------------------------------------

FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}  # `n > x` is `x < n`
_NEGATE = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}


_NAME = re.compile(r"[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*(\s*\[[^\]]*\])?")


def comparison_bounds(c: Comparison) -> list[Bound]:
    """:func:`bounds_of` a mask's or guard's comparison, each bound marked where the comparison
    writes its limit as one name that sizes the extent (:func:`_sized_by_name`)."""
    return [_sized_by_name(b, c) for b in bounds_of(c.left, c.op, c.right, c.span)]


def _sized_by_name(bound: Bound, comparison: Comparison) -> Bound:
    """``bound`` marked when the limit side of ``comparison`` is written as one name, a member or
    an element (``myGLen``, ``p.n``, ``lens[b]``) whose value adds to the extent (see
    :attr:`Bound.sized_limit`); a name for the last index (``last = n - 1``, ``i <= last``) keeps
    its slack."""
    limit_text = comparison.right_text if lanes(comparison.left) else comparison.left_text
    if bound.limit_slack > 0 and limit_text and _NAME.fullmatch(limit_text.strip()):
        return replace(bound, sized_limit=True)
    return bound


def negate(op: str) -> str:
    return _NEGATE[op]


def bounds_of(left: Expr, op: str, right: Expr, span: Span) -> list[Bound]:
    """Normalise ``left OP right`` into upper bounds ``index <|<= limit`` on lane dimensions.

    Lower bounds (``i >= 0``), comparisons between two lane expressions (causal masks) and
    equality tests carry no upper bound and give nothing.
    """
    l_lanes, r_lanes = lanes(left), lanes(right)
    if bool(l_lanes) == bool(r_lanes):
        return []
    if r_lanes:
        left, right, op, l_lanes = right, left, FLIP[op], r_lanes
    left, op, right = upper_form(left, op, right)
    if op not in ("<", "<="):
        return []
    idx_terms, lim_terms = expand(left), expand(right)
    lim_var = variable(lim_terms)
    if not lim_var:
        return []  # i < 1024: a literal limit is a tile-internal bound, not an extent
    idx_kinds = set().union(*(_term_kinds(t) for t in variable(idx_terms)))
    lim_kinds = set().union(*(_term_kinds(t) for t in lim_var))
    local = not ({Kind.PROGRAM, Kind.LOOP} & (idx_kinds | lim_kinds))
    is_extent = (bool(lim_kinds - {Kind.CONST}) or _mentions_const_extent(lim_var)) and not _is_position(lim_var)
    if op == "<" and _within_own_tile(idx_terms, lim_terms):
        return []  # arange(0, C) < C holds for every lane: it bounds nothing
    # a descending index (`T - 1 - t`, `2 * K - 1 - arange(0, K)`) starts from a base whose
    # constant is no offset of the lane: only `<=` or a written `+ c` on the limit admits its end
    descending = any(t.coeff < 0 for t in idx_terms if any(lanes(f) for f in t.factors))
    # `(n - 1) / d + 1` is a ceiling of n / d, not a limit one past it
    ceiling = any(isinstance(f, Bin) and f.op in ("/", "//") and constant(expand(f.left)) < 0
                  for t in lim_var for f in t.factors)
    out = []
    for lane_name, axis in sorted(l_lanes, key=str):
        out.append(Bound(
            source=lane_name, index=render(left), op=op, limit=terms_text(lim_var),
            limit_is_extent=is_extent, span=span, limit_slack=_int(_added(right)),
            lane_offset=0 if descending or _in_several_terms(idx_terms, lane_name) else _lane_offset(idx_terms),
            local=local, axis=axis,
            index_tiled=bool({Kind.PROGRAM, Kind.LOOP} & idx_kinds), sized_limit=ceiling,
            shift=shift_factors(idx_terms, tile_of(lane_name)),
        ))
    return out


def shift_factors(terms: list[Term], tile: str | None) -> frozenset[str]:
    """The factors of the runtime terms a bounded index adds to its lanes that step by no
    compile-time size (``row_start`` of ``row_start + m_offs``, a varlen position; ``i_t * BT +
    o_i`` walks aligned chunks and has none)."""

    def aligned(t: Term) -> bool:
        if tile is not None and tile.isdigit() and t.coeff % int(tile) == 0:
            return True
        return any(kinds(f) == {Kind.CONST} for f in t.factors)

    return offset_factors([t for t in terms if not aligned(t)])


def offset_factors(terms: list[Term]) -> frozenset[str]:
    """The factors of the runtime terms of an index that hold no lane (``row_start`` and
    ``stride`` of ``(row_start + m_offs) * stride``)."""
    return frozenset(render(f) for t in variable(terms) if not any(lanes(f) for f in t.factors) for f in t.factors)


def descending_bounds(left: Expr, op: str, right: Expr, span: Span) -> list[Bound]:
    """``rows >= start`` where ``rows = end - (pid + 1) * BLOCK + arange(0, BLOCK)``: tiles laid
    down from an end, whose last (partial) tile is at the bottom. The top stays below ``end`` by
    construction, so the lower bound is the guard that tile needs; it bounds the lane."""
    if lanes(right) and not lanes(left):
        left, right, op = right, left, FLIP[op]
    if op not in (">=", ">") or lanes(right) or not lanes(left):
        return []
    terms = expand(left)
    out = []
    for lt in (t for t in terms if any(lanes(f) for f in t.factors)):
        if lt.coeff <= 0:
            continue
        downward = [t for t in terms if t is not lt and t.coeff < 0 and _term_kinds(t) & {Kind.PROGRAM, Kind.LOOP}
                    and _steps_by_tile(Term(-t.coeff, t.factors), lt)]
        tile = {tile_of(n) for f in lt.factors for n, _ in lanes(f)}
        stride = sorted(render(f) for f in lt.factors if not lanes(f))
        # `- (pid + 1) * BLOCK`: the first tile ends one below the end, not BLOCK - 1 past it
        below = sum(t.coeff for t in terms if sorted(render(f) for f in t.factors) in
                    ([*stride, x] for x in tile if x)) <= -1
        # `(cdiv(n, B) - 1 - i) * B`: laid down from the tiles' rounded-up end, whose top tile is partial
        rounded = any(tile_walk(f) is not None for t in terms if t is not lt and t not in downward for f in t.factors)
        if not downward or not below or rounded:
            continue
        for lane_name, axis in sorted(lanes(Call("", lt.factors)), key=str):
            out.append(Bound(lane_name, render(left), "<", f"the top of tiles laid down from {render(left)}",
                             True, span, axis=axis, index_tiled=True))
    return out


def upper_form(left: Expr, op: str, right: Expr) -> tuple[Expr, str, Expr]:
    """A comparison with its lane side first, and ``n - i > k`` (what is left past ``i`` exceeds
    ``k``, as halo loads write it) as the bound ``i + k < n`` it is."""
    if lanes(right) and not lanes(left):
        left, right, op = right, left, FLIP[op]
    moved = _past(left, right, lambda e: bool(lanes(e))) if op in (">", ">=") else None
    return (moved[0], FLIP[op], moved[1]) if moved else (left, op, right)


def _past(rest: Expr, k: Expr, moving: Callable[[Expr], bool]) -> tuple[Expr, Expr] | None:
    """``n - i`` compared with ``k`` (what is left past ``i``), ``i`` the moving part: the sides
    ``i + k`` and ``n`` of the same test; None where ``rest`` is no such difference."""
    if isinstance(rest, Bin) and rest.op == "-" and moving(rest.right) and not moving(rest.left) and not moving(k):
        return (rest.right if k == Num(0) else Bin("+", rest.right, k)), rest.left
    return None


def _within_own_tile(idx_terms: list[Term], lim_terms: list[Term]) -> bool:
    """``arange(0, C) < C``: the index is a bare lane of tile C, below C on every lane."""
    idx_var, lim_var = variable(idx_terms), variable(lim_terms)
    if len(idx_var) != 1 or constant(idx_terms) or constant(lim_terms) or not lim_var:
        return False
    only = idx_var[0]
    return only.coeff == 1 and len(only.factors) == 1 and tile_of(render(only.factors[0])) == terms_text(lim_var)


def always_true(left: Expr, op: str, right: Expr) -> bool:
    """A lane comparison that holds on every lane of the tile (``arange(0, C) < C``, either way
    round): a mask made of such tests bounds nothing, and hides nothing either."""
    if bool(lanes(left)) == bool(lanes(right)):
        return False
    if lanes(right):
        left, right, op = right, left, FLIP[op]
    return op == "<" and _within_own_tile(expand(left), expand(right))


def _is_position(lim: list[Term]) -> bool:
    """A limit every growing term of which moves with the program or a loop (``j <= own_pos``
    where ``own_pos = row % T`` of this block's row; ``tid < d`` for a tree reduction's stride d)
    is a position, as in a causal mask: reaching it is intended, and it is not the size of
    anything. ``M - pid * BLOCK`` and ``K - k * BLOCK_K`` still have the extents M and K."""
    grow = [t for t in lim if t.coeff > 0]
    return bool(grow) and all(_term_kinds(t) & {Kind.PROGRAM, Kind.LOOP} for t in grow)


def _mentions_const_extent(lim: list[Term]) -> bool:
    """A constexpr size such as ``HEAD_DIM`` or ``ROTARY_DIM // 2`` (not a bare literal) still
    names an extent."""
    return any(next(syms(f), None) is not None for t in lim for f in t.factors)


def _added(e: Expr) -> int | float:
    """The constant a sum adds at its top (``n + 1`` adds 1): one that distributing a product
    makes (``(1 + a) * (1 + b)``, a count of a * b bins rounded up) is part of the size, no slack."""
    match e:
        case Num(value=v):
            return v
        case Bin(op="+", left=left, right=right):
            return _added(left) + _added(right)
        case Bin(op="-", left=left, right=right):
            return _added(left) - _added(right)
    return 0


def _int(v: float) -> int:
    return int(v) if float(v).is_integer() else 0


def _lane_offset(idx_terms: list[Term]) -> int:
    """The constant an index adds to its lane: ``i + 3`` adds 3. In ``i + B - 1`` (the last of a
    run of B elements, B a compile-time size) the ``- 1`` is no step below the lane: each size term
    counts as at least 1, so the offset is at least 0."""
    offset = _int(constant(idx_terms))
    if offset < 0:
        offset += sum(int(t.coeff) for t in variable(idx_terms) if t.coeff >= 1 and float(t.coeff).is_integer()
                      and _term_kinds(t) == {Kind.CONST})
    return offset


# --- floor divisions ------------------------------------------------------------------------


def floor_division(e: Expr, span: Span, int_division_ops: tuple[str, ...] = ("//",)) -> FloorDiv | None:
    """``extent // tile`` at the top of ``e`` (through ``* tile``), not written as a ceiling.

    A ceiling is ``(a + b - 1) // b`` or anything whose numerator has a positive constant;
    ``cdiv`` calls never match. The extent must be a runtime value.
    """
    match e:
        case Bin(op="*", left=left, right=right):
            return floor_division(left, span, int_division_ops) or floor_division(right, span, int_division_ops)
        case Bin(op=op, left=num, right=Num(value=1)) if op in int_division_ops:
            # `M // 1` drops nothing, but a floor inside it still does (`n / 64 / 1`, generated code)
            return floor_division(num, span, int_division_ops)
        case Bin(op=op, left=Call(fn="where", args=choices), right=den) if op in int_division_ops:
            # a scalar choice of numerators (`where(n <= 0, 0, n + B - 1) // B`): a floor where one is
            return next((f for c in choices if not (isinstance(c, Num) and c.value == 0)
                         and (f := floor_division(Bin(op, c, den), span, int_division_ops)) is not None), None)
        case Bin(op=op, left=num, right=den) if op in int_division_ops:
            num_terms = expand(num)
            if constant(num_terms) > 0 and not lanes(num):
                inner = _floored_count(num, span, int_division_ops)
                return replace(inner, text=render(e)) if inner is not None else None
            if constant(num_terms) > 0 or lanes(num) or lanes(den):
                return None
            if not ({Kind.EXTENT, Kind.OTHER} & kinds(num)) or _chunk_position(num_terms):
                return None
            if not variable(expand(den)) and not isinstance(den, Num):
                return None
            if _is_ceiling_numerator(num_terms, den):
                # a ceiling of a count that a floor already cut short: `ceil_div(K / 32, B)`
                inner = _floored_count(num, span, int_division_ops)
                return replace(inner, text=render(e)) if inner is not None else None
            if _multiple_of(num_terms, den):
                return None  # `T // G * G // G`, `cdiv(n, 128) * 128 * c // 16`: nothing is dropped
            return FloorDiv(extent=render(num), tile=render(den), span=span, text=render(e))
    return None


def _multiple_of(num_terms: list[Term], den: Expr) -> bool:
    """Every term of the numerator holds the denominator as a factor, or a literal multiple of it."""
    return bool(num_terms) and divided(num_terms, den) is not None


def divided(terms: list[Term], den: Expr) -> list[Term] | None:
    """``terms`` each divided exactly by ``den``, a single term (``row * S * K + lane * 8 * K`` by
    ``K`` is ``row * S + lane * 8``); None where a term is not a multiple of it."""
    den_terms = expand(den)
    if len(den_terms) != 1 or not den_terms[0].coeff:
        return None
    d = den_terms[0]
    out = []
    for t in terms:
        rest = without(t.factors, [render(f) for f in d.factors])
        if rest is None or not float(t.coeff / d.coeff).is_integer():
            return None
        out.append(Term(int(t.coeff / d.coeff), tuple(rest)))
    return out


def _chunk_position(terms: list[Term]) -> bool:
    """``i_t * BT`` with ``i_t`` read from memory (a varlen kernel's chunk index): a count of whole
    chunks times the chunk's compile-time size is a position, as ``program_id * BT`` is, not a
    length whose floor drops a tail."""
    if len(terms) != 1 or not terms[0].factors:
        return False
    factors = terms[0].factors
    return any(is_loaded(f) for f in factors) and any(isinstance(f, Sym) and f.kind is Kind.CONST for f in factors) \
        and all(is_loaded(f) or isinstance(f, Sym) and f.kind is Kind.CONST for f in factors)


def _floored_count(num: Expr, span: Span, int_division_ops: tuple[str, ...]) -> FloorDiv | None:
    """A floor division added into a ceiling's numerator: ``(K / 32 + 3) / 4`` rounds up a count
    of 32-wide chunks that already dropped the last K % 32 elements."""
    match num:
        case Bin(op="+" | "-", left=left, right=right):
            return _floored_count(left, span, int_division_ops) or (
                _floored_count(right, span, int_division_ops) if num.op == "+" else None)
        case Bin(op=op) if op in int_division_ops:
            return floor_division(num, span, int_division_ops)
    return None


def tile_walk(stop: Expr, step: Expr | None = None, int_division_ops: tuple[str, ...] = ("//",)) -> TileWalk | None:
    """The extent a loop walks tile by tile: ``cdiv(E, T)`` or ``(E + T - 1) // T`` iterations,
    or, with a ``step`` T, a range up to E itself."""
    if step is not None:
        if not variable(expand(step)) and not isinstance(step, Num):
            return None
        return TileWalk(render(stop), render(step), stepped=True) if not lanes(stop) else None
    match stop:
        case Call(fn="cdiv", args=(extent, tile)):
            return TileWalk(render(extent), render(tile))
        case Bin(op=op, left=num, right=den) if op in int_division_ops:
            terms = expand(num)
            if _is_ceiling_numerator(terms, den) and constant(terms) < 0:
                den_text = terms_text(variable(expand(den)))
                rest = [t for t in variable(terms) if terms_text([t]) != den_text]
                return TileWalk(terms_text(rest), render(den)) if rest else None
    return None


def whole_multiple(extent: Expr, step: Expr) -> bool:
    """``extent`` is a whole number of ``step``s whatever its sizes: one product holding every
    factor of the step (``n * W * 128 / 4`` of ``32 * W``; a literal division is exact where it
    divides the product's coefficient)."""
    def product(e: Expr) -> Term | None:
        terms = expand(e)
        if len(terms) != 1:
            return None
        t = terms[0]
        opened = []
        coeff = t.coeff
        for f in t.factors:
            if isinstance(f, Bin) and f.op in ("/", "//") and isinstance(f.right, Num) and f.right.value > 0:
                inner = product(f.left)
                if inner is None or inner.coeff % f.right.value:
                    return None
                coeff *= inner.coeff // f.right.value
                opened += inner.factors
            else:
                opened.append(f)
        return Term(coeff, tuple(opened))

    a, b = product(extent), product(step)
    return a is not None and b is not None and bool(b.factors) and bool(b.coeff) and not a.coeff % b.coeff \
        and without(a.factors, [render(f) for f in b.factors]) is not None


def ceiling_divisors(e: Expr) -> set[str]:
    """The divisors of the ceiling divisions in ``e`` (``BLKQ`` of ``(L + BLKQ - 1) // BLKQ`` and of
    ``cdiv(L, BLKQ)``): the sizes it cuts an extent into."""
    match e:
        case Bin(op="//", left=left, right=right) if _is_ceiling_numerator(expand(left), right):
            return {render(right)} | ceiling_divisors(left)
        case Bin(left=left, right=right):
            return ceiling_divisors(left) | ceiling_divisors(right)
        case Call(fn="cdiv", args=(_, tile)):
            return {render(tile)}
        case Call(args=args):
            return {d for a in args for d in ceiling_divisors(a)}
    return set()


def _is_ceiling_numerator(num_terms: list[Term], den: Expr) -> bool:
    den_text = terms_text(variable(expand(den)))
    return any(terms_text([t]) == den_text for t in variable(num_terms) if len(num_terms) > 1)


def scalar_tests(conds: list[Comparison] | tuple[Comparison, ...]) -> tuple[Comparison, ...]:
    """The ordering comparisons of no lane (``base + 128 <= n``, ``(pid + 1) * BLOCK <= n``): tests of
    where a tile lies, for :func:`tile_test_bounds`."""
    return tuple(c for c in conds if c.op in ("<", "<=", ">", ">=") and not lanes(c.left) and not lanes(c.right))


def tile_test_bounds(tests: list[Comparison] | tuple[Comparison, ...], parts: list[DimPart]) -> list[Bound]:
    """The tiles a scalar test on the path proves whole: ``if (pid + 1) * BLOCK <= n:`` (Triton),
    ``if (base + 128 <= n)`` with ``base = blockIdx.x * 128`` (CUDA) bound every lane of the
    dimensions whose tile offset the test names; ``if pid * BLOCK < n:`` proves only the first
    lane (the tile may still be partial). In bounds by construction: ``wrap``."""
    out = []
    for g in tests:
        if g.op in ("<", "<="):
            left, op, right = g.left, g.op, g.right
        elif g.op in (">", ">="):
            left, op, right = g.right, FLIP[g.op], g.left
        else:
            continue
        left, right = _past(right, left, lambda e: bool(kinds(e) & {Kind.PROGRAM, Kind.LOOP})) or (left, right)
        names = {s.name for s in syms(left) if s.kind in (Kind.PROGRAM, Kind.LOOP)}
        if not names or kinds(right) & {Kind.PROGRAM, Kind.LOOP, Kind.LANE}:
            continue
        for p in parts:
            if p.offset_syms & names and _reaches_tile_end(left, op, p.dim.tile):
                out.append(Bound(p.dim.source, render(left), op, render(right), True, g.span, axis=p.dim.axis, wrap=True))
    return out


def _reaches_tile_end(start: Expr, op: str, tile: str | None) -> bool:
    """``start`` (a tile offset, perhaps minus the extent) reaches the tile's last lane: past its
    program / loop terms it adds the tile itself (``(pid + 1) * B``), or ``B - 1`` under ``<``; also
    inside a ``min`` / ``cdiv`` (``cdiv((pid + 1) * B - n, BN) <= 0``)."""
    if tile is None:
        return False
    for e in _subexpressions(start):
        terms = expand(e)
        offset = [t for t in variable(terms) if any(kinds(f) & {Kind.PROGRAM, Kind.LOOP} for f in t.factors)]
        rest = [t for t in variable(terms) if t not in offset]
        if not offset:
            continue
        if any(t.coeff >= 1 and len(t.factors) == 1 and render(t.factors[0]) == tile for t in rest):
            return True
        if tile.isdigit() and constant(terms) >= int(tile) - (1 if op == "<" else 0):
            return True
    return False


def _subexpressions(e: Expr) -> list[Expr]:
    match e:
        case Call(args=args):
            return [e, *(x for a in args for x in _subexpressions(a))]
        case Bin(op=op, left=left, right=right) if op not in ("+", "-", "*"):
            return [e, *_subexpressions(left), *_subexpressions(right)]
    return [e]


def rows_one_past(index: Expr) -> set[str]:
    """The n of each row pitch ``n + 1`` an address steps a lane-free row index by (``out + row *
    (K + 1) + col``: each row holds K + 1 entries, which ``col <= K`` walks to its end)."""
    out: set[str] = set()
    stack = [index]
    while stack:
        e = stack.pop()
        if isinstance(e, Bin):
            if e.op == "*":
                for pitch, row in ((e.left, e.right), (e.right, e.left)):
                    if isinstance(pitch, Bin) and pitch.op == "+" and pitch.right == Num(1) \
                            and not lanes(row) and variable(expand(pitch.left)):
                        out.add(render(pitch.left))
            stack += [e.left, e.right]
        elif isinstance(e, Call):
            stack += list(e.args)
    return out
