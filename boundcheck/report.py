"""The per-kernel boundary report (``boundcheck report FILE[::KERNEL]``).

The review skill asks, per kernel and per tiled dimension: the extent, the tile, the tile count and
the last partial tile, which tensors are read and written there and how each access is protected,
and the shapes the kernel does not support. The model holds all of it; this module groups it by
dimension (model → :class:`KernelReport` → text or JSON) and asks the default rules which shapes
break the kernel, so the report and ``boundcheck check`` never disagree.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from boundcheck import suppressions
from boundcheck.coverage import atom, contract_for, coverage, covers, extents_of, is_identity
from boundcheck.findings import Finding
from boundcheck.model import (
    Access,
    Bound,
    Dim,
    Divisibility,
    Kernel,
    Language,
    Loop,
    Module,
    Padding,
    Space,
    Span,
    Tiling,
    Use,
    format_value,
)
from boundcheck.settings import Settings

SCHEMA = "boundcheck-report/1"



@dataclass(frozen=True)
class Protection:
    kind: str
    text: str
    line: int


@dataclass
class UseReport:
    reduction: str
    identity: str
    padding: str
    via: list[str]
    line: int
    is_identity: bool | None


@dataclass
class AccessReport:
    buffer: str
    kind: str
    line: int
    axis: int | None  # the broadcast axis of the dimension in this access's tile
    status: str
    protection: list[Protection]
    padding: dict[str, object] | None
    uses: list[UseReport]


@dataclass
class DimensionReport:
    label: str
    source: str
    tiling: str
    loop_line: int | None
    tile: str | None
    extent: str | None
    extent_from: str | None
    other_extents: list[str]
    tile_count: str | None
    last_tile: str | None
    last_tile_full: bool
    accesses: list[AccessReport] = field(default_factory=list)


@dataclass
class ContractReport:
    extent: str
    tile: str
    origin: str
    text: str


@dataclass
class LoopReport:
    line: int
    end_line: int
    var: str | None
    header: str
    trip: str
    floor_division: str | None


@dataclass
class GridReport:
    text: str
    extent: str
    tile: str
    line: int
    contract: ContractReport | None


@dataclass
class LaunchReport:
    line: int
    text: str
    floor_grid: list[GridReport]


@dataclass
class ShapeReport:
    condition: str
    code: str
    name: str
    line: int
    message: str
    suppressed_by: str | None


@dataclass
class KernelReport:
    name: str
    line: int
    dimensions: list[DimensionReport]
    shared: list[AccessReport]
    loops: list[LoopReport]
    launches: list[LaunchReport]
    contracts: list[ContractReport]
    unsupported: list[ShapeReport]


def analyse(path: str, language: Language, source: str, settings: Settings) -> tuple[Module, list[Finding]]:
    """The module and the selected rules' findings on it, suppressions marked (as ``check`` runs
    them). A module with parse errors gets no findings: its report would be incomplete."""
    from boundcheck.engine import parse, selected_rules

    try:
        module = parse(path, language, source, settings)
    except Exception as exc:  # noqa: BLE001 - a frontend bug is a BC001, as in ``check``
        module = Module(path, language, source, errors=[(Span(1, 0, 1, 0), f"internal error: {exc!r}")])
    if module.errors:
        return module, []
    found = [f for rule in selected_rules(settings) for f in rule.check(module)]
    unique = list({(f.code, f.span, f.message): f for f in found}.values())
    return module, sorted(suppressions.apply(module, unique, settings), key=Finding.sort_key)


# --- model → report -----------------------------------------------------------------------------

def build(module: Module, findings: list[Finding], only: str | None = None) -> list[KernelReport]:
    """Reports for the module's kernels (or the one named ``only``); ``findings`` are the default
    rules' findings on the module, suppressions marked."""
    return [_kernel(module, k, findings) for k in module.kernels if only is None or k.name == only]


def _kernel(module: Module, kernel: Kernel, findings: list[Finding]) -> KernelReport:
    launches = [la for la in module.launches if la.kernel == kernel.name]
    dims = _dimensions(module, kernel)
    shared = [_access(kernel, a, None) for a in kernel.accesses if a.space is Space.SHARED and a.padding]
    facts = [*kernel.contracts, *(f for a in kernel.accesses for f in a.facts),
             *(f for la in launches for f in la.facts)]
    contracts = list({(c.extent, c.tile, c.origin): c for c in map(_contract, facts)}.values())
    return KernelReport(
        name=kernel.name, line=kernel.span.line, dimensions=dims, shared=shared,
        loops=[_loop(module, lp) for lp in kernel.loops],
        launches=[LaunchReport(la.span.line, _span_text(module, la.span),
                               [GridReport(d.text, d.extent, d.tile, d.span.line,
                                           next((_contract(f) for f in la.facts if f.tile == d.tile
                                                 or f.extent == d.extent), None))
                                for d in la.grid]) for la in launches],
        contracts=contracts,
        unsupported=_unsupported(module, kernel, findings, dims),
    )


def _key(dim: Dim) -> tuple[str, str, str, int | None]:
    """A dimension is a lane source under one name, moving the same way: CUDA's ``threadIdx.x``
    walks K in one load (moved by the loop) and N in another (moved by the block), two dimensions.
    The broadcast axis is left out: ``offs_k`` is axis 1 of A's tile and axis 0 of B's."""
    return dim.source, dim.label, dim.tiling.value, dim.loop.span.line if dim.loop else None


def _dimensions(module: Module, kernel: Kernel) -> list[DimensionReport]:
    groups: dict[tuple[str, str, str, int | None], list[tuple[Access, Dim]]] = {}
    for access in kernel.accesses:
        if access.space is Space.GLOBAL:
            for dim in access.dims:
                groups.setdefault(_key(dim), []).append((access, dim))
    out = []
    for members in groups.values():
        dim = members[0][1]
        extents, origin = _extents(module, kernel, members)
        facts = [*kernel.contracts, *(f for a, _ in members for f in a.facts)]
        full = contract_for(dim, facts, extents_of(kernel, dim)) is not None
        extent = extents[0] if extents else None
        count, last = _tiles(extent, dim.tile, dim.tiling, full)
        out.append(DimensionReport(
            label=dim.label, source=dim.source, tiling=dim.tiling.value,
            loop_line=dim.loop.span.line if dim.loop else None, tile=dim.tile, extent=extent,
            extent_from=origin, other_extents=extents[1:], tile_count=count, last_tile=last,
            last_tile_full=full, accesses=[_access(kernel, a, d) for a, d in members],
        ))
    return out


def _matches(bound: Bound, dim: Dim) -> bool:
    return bound.source == dim.source and (bound.axis is None or dim.axis is None or bound.axis == dim.axis)


def _extents(module: Module, kernel: Kernel, members: list[tuple[Access, Dim]]) -> tuple[list[str], str | None]:
    """What the kernel bounds the dimension by: its guards' limits, else the extent of a contract on
    its tile, else the extent the tile loop's header divides."""
    limits = [_limit(b, a) for a, d in members for b in a.guards if _matches(b, d)]
    if limits:
        return list(dict.fromkeys(limits)), "guard"
    dim = members[0][1]
    facts = [*kernel.contracts, *(f for a, _ in members for f in a.facts)]
    fact = contract_for(dim, facts)
    if fact is not None:
        return [fact.extent], "contract"
    if dim.loop is not None and dim.tile:
        found = _loop_extent(dim.loop, dim.tile)
        if found:
            return [found], "loop header"
    return [], None


def _limit(bound: Bound, access: Access) -> str:
    if bound.source in access.checked_dims:
        return f"shape[{bound.axis}]" if bound.axis is not None else "shape"
    return bound.limit


def _loop_extent(loop: Loop, tile: str) -> str | None:
    if loop.trip is not None:
        return loop.trip.extent
    if loop.walks is not None and loop.walks.tile == tile:
        return loop.walks.extent
    return None


def _tiles(extent: str | None, tile: str | None, tiling: Tiling, full: bool) -> tuple[str | None, str | None]:
    """The tile count and the last tile's size, as expressions in the kernel's own names."""
    if tiling is Tiling.WHOLE:
        return "1", extent
    if extent is None or tile is None:
        return None, None
    e, t = atom(extent), atom(tile)
    if full:
        return f"{e} / {t}", tile
    return f"cdiv({extent}, {tile})", f"{e} - (cdiv({extent}, {tile}) - 1) * {t}"


def _access(kernel: Kernel, access: Access, dim: Dim | None) -> AccessReport:
    protection = _protection(kernel, access, dim) if dim is not None else \
        [Protection(_guard_kind(kernel), _bound_text(b), b.span.line) for b in access.guards]
    if access.opaque:
        status = "unknown"
    elif any(p.kind not in ("local_guard", "opaque") for p in protection):
        status = "protected"
    else:
        status = "UNPROTECTED"
    show_padding = dim is None or any(p.kind in ("mask", "guard", "boundary_check") for p in protection)
    padding = access.padding if show_padding else None
    return AccessReport(
        buffer=access.buffer, kind=access.kind.value, line=access.span.line,
        axis=dim.axis if dim is not None else None, status=status,
        protection=protection, padding=_padding(padding) if padding else None,
        uses=[_use(u) for u in access.uses] if padding else [],
    )


def _guard_kind(kernel: Kernel) -> str:
    return "mask" if kernel.language is Language.TRITON else "guard"


def _bound_text(b: Bound) -> str:
    slack = f" + {b.limit_slack}" if b.limit_slack else ""
    return f"{b.index} {b.op} {b.limit}{slack}"


def _protection(kernel: Kernel, access: Access, dim: Dim) -> list[Protection]:
    """Everything that keeps the access in bounds along ``dim``, as the guard rules see it."""
    line = access.span.line
    out: list[Protection] = []
    if access.opaque:
        out.append(Protection("opaque", "the guard or the index could not be read", line))
    if dim.source in access.checked_dims:
        out.append(Protection("boundary_check", f"boundary_check on axis {dim.axis}", line))
    for b in access.guards:
        if dim.source in access.checked_dims or not covers(b, dim):
            continue
        if not b.wrap:
            out.append(Protection(_guard_kind(kernel), _bound_text(b), b.span.line))
        elif b.span != access.span:
            out.append(Protection("guard", f"{_bound_text(b)} (whole tile)", b.span.line))
        elif b.index.startswith("min("):
            out.append(Protection("clamp", f"{b.index} <= {b.limit}", line))
        else:
            out.append(Protection("wrap", f"{atom(b.index)} % {b.limit}", line))
    fact = contract_for(dim, [*kernel.contracts, *access.facts], extents_of(kernel, dim))
    if fact is not None:
        out.append(Protection("contract", f"{_divides(fact)} ({fact.origin})", line))
    cov = coverage(kernel, access)
    if cov is not None and dim not in cov.needed and not out:
        if dim.loop is not None:
            kind, text = ("full_tiles", "the loop stops before the partial tile") if dim.loop.full_tiles else \
                ("fixed_region", "the loop walks a compile-time size in whole steps") if dim.loop.fixed else \
                ("peeled_tail", "the partial tile is handled outside the loop")
            out.append(Protection(kind, f"{text} (loop at line {dim.loop.span.line})", dim.loop.span.line))
        elif dim.tiling is Tiling.WHOLE:
            out.append(Protection("single_tile", "one tile spans the dimension; the kernel never bounds it", line))
    if cov is not None:
        for d, b in cov.local_only:
            if d == dim:
                out.append(Protection("local_guard", f"{_bound_text(b)} bounds the block-local index only",
                                      b.span.line))
    return out


def _divides(fact: Divisibility) -> str:
    return f"{atom(fact.extent)} % {atom(fact.tile)} == 0"


def _contract(fact: Divisibility) -> ContractReport:
    return ContractReport(fact.extent, fact.tile, fact.origin, f"assumes {_divides(fact)} ({fact.origin})")


def _padding(p: Padding) -> dict[str, object]:
    return {"value": None if p.value is None or p.stale else format_value(p.value),
            "undefined": p.undefined, "stale": p.stale}


def _use(u: Use) -> UseReport:
    identity = u.reduction.identity
    if u.padding.stale:
        same: bool | None = False
    elif u.padding.value is None:
        same = None
    else:
        same = is_identity(u.padding.value, identity)
    return UseReport(u.reduction.value, format_value(identity), u.padding.describe(), list(u.via),
                     u.span.line, same)


def _loop(module: Module, loop: Loop) -> LoopReport:
    header = _span_text(module, loop.span)
    if loop.trip is not None:
        trip = "floor"
    elif loop.full_tiles:
        trip = "full_tiles"
    elif loop.walks is not None:
        trip = "stepped" if loop.walks.stepped else "ceil"
    else:
        trip = "other"
    return LoopReport(loop.span.line, loop.end_line, loop.var, header, trip,
                      loop.trip.text if loop.trip else None)


def _span_text(module: Module, span: Span) -> str:
    lines = module.lines()[span.line - 1:span.end_line]
    return " ".join(s.strip() for s in lines)


# --- the shapes a kernel does not support ------------------------------------------------------

def _unsupported(module: Module, kernel: Kernel, findings: list[Finding],
                 dims: list[DimensionReport]) -> list[ShapeReport]:
    grid_spans = {d.span for la in module.launches if la.kernel == kernel.name for d in la.grid}
    mine = [f for f in findings if f.kernel == kernel.name or (f.kernel is None and f.span in grid_spans)]
    return [ShapeReport(_condition(module, kernel, f, dims), f.code, f.name, f.span.line,
                        f.message, f.suppressed_by) for f in mine]


def _condition(module: Module, kernel: Kernel, f: Finding, dims: list[DimensionReport]) -> str:
    """The shapes that trigger the finding, in the kernel's names: ``K % BLOCK_K != 0``."""
    if f.code in ("BC301", "BC302"):
        divs = [lp.trip for lp in kernel.loops if lp.trip] + [d for la in module.launches for d in la.grid]
        div = next((d for d in divs if d.span == f.span or d.span.line == f.span.line), None)
        if div is not None:
            return f"{atom(div.extent)} % {atom(div.tile)} != 0"
    if f.code == "BC303":
        exit_ = next((e for e in kernel.exits if e.span == f.span), None)
        if exit_ is not None:
            return f"a partial tile (`{exit_.guard}` for some threads of a block)"
    accesses = sorted((a for a in kernel.accesses if a.span.line == f.span.line),
                      key=lambda a: (a.space is not Space.GLOBAL, a.span != f.span))
    if f.code in ("BC104", "BC105"):
        for a in kernel.accesses:
            for b in a.guards:
                d = next((d for d in a.dims if d.source == b.source), None)
                if b.span == f.span and d is not None:
                    return f"{atom(b.limit)} % {atom(d.tile or 'TILE')} != 0"
    for access in accesses[:1]:
        if f.code == "BC106":
            bound = next((b for b in access.guards if not b.wrap), None)
            if bound is not None:
                return f"{atom(bound.limit)} % {access.width} != 0"
        if f.code in ("BC201", "BC202"):
            return _or(_padded_dims(access), kernel, access, dims)
        cov = coverage(kernel, access)
        if cov is not None and cov.uncovered:
            return _or(list(cov.uncovered), kernel, access, dims)
    return "see the finding"


def _padded_dims(access: Access) -> list[Dim]:
    """The guarded dimensions whose padding reaches a reduction (the reduced axes, when known)."""
    axes = {ax for u in access.uses if u.axes is not None for ax in u.axes}
    reduced_everywhere = any(u.axes is None for u in access.uses)
    return [d for d in access.dims if any(covers(b, d) for b in access.guards)
            and (reduced_everywhere or d.axis is None or d.axis in axes)]


def _or(chosen: list[Dim], kernel: Kernel, access: Access, dims: list[DimensionReport]) -> str:
    parts = []
    for dim in chosen:
        report = next((r for r in dims if (r.source, r.label, r.tiling, r.loop_line) == _key(dim)), None)
        extent = atom(report.extent) if report and report.extent else f"extent({dim.label})"
        tile = atom(dim.tile or "TILE")
        parts.append(f"{extent} != {tile}" if dim.tiling is Tiling.WHOLE else f"{extent} % {tile} != 0")
    return " or ".join(dict.fromkeys(parts)) or "see the finding"


# --- rendering ---------------------------------------------------------------------------------

def to_json(path: str, language: Language, reports: list[KernelReport]) -> str:
    return json.dumps({"schema": SCHEMA, "file": path, "language": language.value,
                       "kernels": [asdict(r) for r in reports]}, indent=2)


def to_text(path: str, reports: list[KernelReport]) -> str:
    out: list[str] = []
    for r in reports:
        out += [f"{path}:{r.line}: kernel {r.name}", ""]
        if not r.dimensions:
            out.append("  no tiled dimensions")
        for d in r.dimensions:
            out += _text_dimension(d)
        if r.shared:
            out.append("  shared-memory staging:")
            out += [line for a in r.shared for line in _text_access(a, "    ")]
        if r.loops:
            out.append("  loops:")
            for lp in r.loops:
                floor = f" ({lp.floor_division})" if lp.floor_division else ""
                out.append(f"    line {lp.line}: trip {lp.trip}{floor}: {lp.header}")
        if r.launches:
            out.append("  launches:")
            for la in r.launches:
                out.append(f"    line {la.line}: {la.text}")
                for g in la.floor_grid:
                    why = f"covered: {g.contract.text}" if g.contract else "drops the tail"
                    out.append(f"      floor-divided grid `{g.text}` at line {g.line} ({why})")
        out.append("  contracts:")
        out += [f"    {c.text}" for c in r.contracts] or ["    none"]
        out.append("  unsupported shapes:")
        out += [f"    {s.condition} ({s.code} at line {s.line}: {_short(s.message)})"
                + (f" [suppressed by {s.suppressed_by}]" if s.suppressed_by else "")
                for s in r.unsupported] or ["    none found"]
        out.append("")
    return "\n".join(out).rstrip("\n")


def _text_dimension(d: DimensionReport) -> list[str]:
    how = {"program": "one tile per program", "loop": f"tiles walked by the loop at line {d.loop_line}",
           "whole": "one tile spans it"}[d.tiling]
    extent = d.extent or "unknown"
    if d.extent_from and d.extent_from != "guard":
        extent += f" (from the {d.extent_from})"
    if d.other_extents:
        extent += f"; also bounded by {', '.join(d.other_extents)}"
    lines = [f"  dimension {d.label} (tile {d.tile or 'unknown'}, {d.tiling}: {how})",
             f"    extent:     {extent}",
             f"    tiles:      {d.tile_count or 'unknown'}"]
    if d.last_tile is None:
        lines.append("    last tile:  unknown")
    elif d.tiling == "whole" or d.last_tile_full:
        lines.append(f"    last tile:  {d.last_tile}" + (" (full: by contract)" if d.last_tile_full else ""))
    else:
        lines.append(f"    last tile:  {d.last_tile} = {atom(d.extent or '')} % {atom(d.tile or '')}"
                     f", or {d.tile} when that is 0")
    for a in d.accesses:
        lines += _text_access(a, "    ")
    return lines + [""]


def _text_access(a: AccessReport, indent: str) -> list[str]:
    how = "; ".join(f"{p.kind} `{p.text}`" if p.kind in ("mask", "guard", "wrap", "clamp", "local_guard")
                    else f"{p.kind}: {p.text}" for p in a.protection)
    status = "" if a.status == "protected" else f"{a.status}" + (f" ({how})" if how else "")
    lines = [f"{indent}{a.kind:<6} {a.buffer} (line {a.line}): {status or how}"]
    if a.padding is not None:
        pad = "stale shared-memory contents" if a.padding["stale"] else \
            "undefined (zero on current backends)" if a.padding["undefined"] else str(a.padding["value"])
        feeds = ", ".join(
            f"{' then '.join([*u.via, u.reduction])} at line {u.line}"
            + ("" if u.is_identity or u.is_identity is None else f" [NOT the identity {u.identity}]")
            for u in a.uses)
        lines.append(f"{indent}       padding {pad}" + (f" -> {feeds}" if feeds else ""))
    return lines


def _short(message: str) -> str:
    return message.split(": ")[0].replace("`", "")



