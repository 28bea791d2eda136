"""The CUDA frontend: libclang's AST of one ``.cu`` file → the boundary model.

Parsing (stub header, missing includes, flags) lives in :mod:`cuda_parse`, expressions in
:mod:`cuda_expr`, kernels in :mod:`cuda_kernel`, launches in :mod:`cuda_host`. This module
finds the functions, joins host facts to the kernels they launch, and turns what could not be
read into BC001 errors. It never raises on input.
"""

from __future__ import annotations

import re
from dataclasses import replace

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import Converter, Scope, children, is_integer, params, strip
from boundcheck.frontends.cuda_fixed_rows import (
    block_scratch,
    columns_inside,
    drop_lane_dims,
    drop_thread_dims,
    rows_inside,
)
from boundcheck.frontends.cuda_helpers import Helpers
from boundcheck.frontends.cuda_host import (
    HostLaunch,
    Positional,
    calls_made,
    host_methods,
    keep_floors,
    launch_entries,
    launches_in,
)
from boundcheck.frontends.cuda_kernel import KernelBuilder, divisibility, padded_rows
from boundcheck.frontends.cuda_launch_rows import launch_rows
from boundcheck.frontends.cuda_parse import (
    Parsed,
    Source,
    binary_op,
    child_list,
    first,
    functions,
    in_main_file,
    is_device,
    is_kernel,
    kernels_elsewhere,
    last,
    parse,
    preorder,
    template_params,
)
from boundcheck.frontends.cuda_powers import host_summaries
from boundcheck.frontends.cuda_slots import drop_slot_dims, resolved
from boundcheck.frontends.cuda_wrappers import find_wrappers
from boundcheck.model import (
    LAUNCH_BINDING,
    Access,
    Divisibility,
    Exit,
    Kernel,
    Language,
    Module,
    Span,
    Tiling,
)
from boundcheck.symbolic import tile_factors

K = ci.CursorKind
# an object-like macro and its body, continuation lines included: one whose body holds a `;` is a
# run of statements (`#define LAUNCH … kernel<<<g, b>>>(…);`), never the whole of an expression
_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])((?:[^\n]*\\\r?\n)*[^\n]*)", re.MULTILINE)
_FRONTEND_BUGS = (AttributeError, IndexError, KeyError, TypeError, ValueError, ArithmeticError, RecursionError,
                  AssertionError, ci.LibclangError)


def parse_module(path: str, source: str, cuda_args: list[str] | None = None,
                 launched: dict[str, list[HostLaunch]] | None = None, elsewhere: dict[str, object] | None = None,
                 callers: dict[str, list[Positional]] | None = None) -> Module:
    """The file's model. ``launched``: launches of its kernels that other files of the run make
    (the engine's :attr:`Module.foreign_launches`), read as if they were written here;
    ``elsewhere``: summaries of host helpers it declares and other files define
    (:attr:`Module.helper_summaries`); ``callers``: what other files' calls of its functions
    hold of their arguments (:func:`calls_in`)."""
    module = Module(path, Language.CUDA, source)
    try:
        parsed = parse(path, source, [a for a in (cuda_args or []) if isinstance(a, str)])
    except (ci.TranslationUnitLoadError, OSError, ValueError, UnicodeError) as exc:  # nothing to model
        module.errors.append((Span(1, 0, 1, 0), f"libclang could not parse the file ({exc})"))
        return module
    try:
        _build(module, parsed, cuda_args or [], launched or {}, elsewhere or {}, callers or {})
    except _FRONTEND_BUGS as exc:  # report, never raise: the other files' results still count
        module.errors.append((Span(1, 0, 1, 0), f"internal error in the CUDA frontend: {exc!r}"))
    return module


def calls_in(path: str, source: str, cuda_args: list[str], names: set[str]) -> dict[str, list[Positional]]:
    """What the calls in this file of ``names`` (launchers other files define: a binding's
    ``TORCH_CHECK(x.size(2) % 2 == 0)`` before ``forward_cuda(x)``) hold of their arguments; none
    where the file cannot be read."""
    try:
        parsed = parse(path, source, [a for a in cuda_args if isinstance(a, str)])
        return calls_made(_host_converter(parsed, cuda_args, {}), names)
    except (ci.TranslationUnitLoadError, OSError, UnicodeError, *_FRONTEND_BUGS):
        return {}


def _host_converter(parsed: Parsed, cuda_args: list[str], elsewhere: dict[str, object],
                    fns: list[ci.Cursor] | None = None) -> Converter:
    """The converter of the file's host code, which knows the file's value macros (those the
    source defines, the build's ``-D`` and the placeholders of build-time macros)."""
    src = parsed.source
    written = {name for name, body in _MACRO.findall(src.text) if body.strip(" \t\\\r\n") and ";" not in body}
    given = {a[2:].split("=", 1)[0] for a in cuda_args if isinstance(a, str) and a.startswith("-D")}
    conv = Converter(src, written | given | parsed.assumed,
                     Helpers(functions(src.root) if fns is None else fns, elsewhere))
    conv.host_code = True
    return conv


def _build(module: Module, parsed: Parsed, cuda_args: list[str], launched: dict[str, list[HostLaunch]],
           elsewhere: dict[str, object], callers: dict[str, list[Positional]]) -> None:
    src = parsed.source
    fns = functions(parsed.source.root)
    module.helper_summaries = host_summaries(fns, src.data)
    conv = _host_converter(parsed, cuda_args, elsewhere, fns)
    conv.foreign_callers = callers
    macros, helpers = conv.macros, conv.helpers
    file_contracts: list[Divisibility] = []
    for c in child_list(parsed.source.root):
        if c.kind == K.STATIC_ASSERT and in_main_file(c):
            kids = list(child_list(c))
            if kids:
                file_contracts += divisibility(conv, kids[0], Scope(), "static_assert")
    kernels: dict[str, list[tuple[ci.Cursor, Kernel]]] = {}  # overloads share a name
    builders: dict[str, list[KernelBuilder]] = {}  # what each kernel's walk found beside its model
    orphans = _entry_device_functions(fns, parsed)
    for fn in fns:
        if is_kernel(fn) or fn in orphans:
            builder = KernelBuilder(fn, src, macros, helpers, file_contracts)
            kernel = builder.build()
            module.kernels.append(kernel)
            kernels.setdefault(fn.spelling, []).append((fn, kernel))
            builders.setdefault(fn.spelling, []).append(builder)
            if fn in orphans:
                drop_thread_dims(kernel, block_scratch(builder.recs, builder.has_barrier, builder.loop_ranges))

    by_kernel: dict[tuple[str, int], list[HostLaunch]] = {}

    def assign(hl: HostLaunch) -> HostLaunch | None:
        """Hand a launch to the definitions of its name that may run it: those taking as many
        arguments as it passes (every one where none does: default arguments; in a template,
        where the types are open, each overload of that arity). The launch as the last of them
        runs it, or None where the name has no definition here."""
        found = kernels.get(hl.launch.kernel, [])
        fitting = [i for i, (fn, _) in enumerate(found) if len(params(fn)) == len(hl.kernel_args)]
        run = None
        for i in fitting or range(len(found)):
            run = _as_run(hl, builders[hl.launch.kernel][i])
            by_kernel.setdefault((hl.launch.kernel, i), []).append(run)
        return run

    foreign: list[HostLaunch] = []
    wrappers = find_wrappers(parsed.source)
    for hl in [hl for fn in fns + host_methods(parsed.source.root) if not is_kernel(fn)
               for hl in launches_in(fn, conv, wrappers)]:
        run = assign(hl)
        if run is None:
            foreign.append(hl)
        hl = run or hl
        # a floor whose tail the host runs apart (`numHot = size / T * T`, a launch for the rest)
        # drops nothing; the kernel launched on the whole blocks still sees full tiles
        module.launches.append(replace(hl.launch, grid=tuple(d for d in hl.launch.grid if (d.extent, d.tile) not in hl.tails))
                               if hl.tails else hl.launch)
    for hls in launched.values():  # launches in other files of the run (no BC302 here: theirs)
        for hl in hls:
            assign(hl)
    if foreign:
        where = kernels_elsewhere(parsed.source.root, {hl.launch.kernel for hl in foreign})
        for hl in foreign:  # in this file's numbers: the other file may not know its names
            hl = replace(hl, rooms=tuple(resolved(r, conv.values) for r in hl.rooms))
            # a kernel only declared here ("" as its file) may be defined in another file of the run
            module.foreign_launches.setdefault((where.get(hl.launch.kernel, ""), hl.launch.kernel), []).append(hl)
    for (name, which), hls in by_kernel.items():
        fn, kernel = kernels[name][which]
        builder = builders[name][which]
        bound = _block_params(hls, fn, conv.values)
        if bound:  # read again with those parameters as the block's size
            kernel.accesses[:] = _loop_tiled(kernel.accesses, builder.block_sized(bound))
        for hl in hls:
            _host_contracts(hl, fn, kernel)
        kernel.contracts += sorted(set.intersection(*(_block_bindings(hl, fn) for hl in hls)) - set(kernel.contracts),
                                   key=lambda d: (d.extent, d.tile))
        _floor_grid_contracts(hls, kernel)
        _unit_block_axes(hls, kernel, conv.values)
        _block_uniform_exits(hls, kernel, builder.exit_quotients, conv.values)
        if builder.ceiling_accesses is not None and any(hl.ceil_axes for hl in hls):
            kernel.accesses[:] = builder.ceiling_accesses  # the rounded-up grid runs warps past the rows
        drop_slot_dims(kernel, fn, builder.slots, [list(hl.rooms) for hl in hls], builder.conv.values, conv.values)
        _fixed_rows(fn, kernel, builder, hls)
    for name, defined in kernels.items():  # the kernels no launch was handed to
        for which, (fn, kernel) in enumerate(defined):
            if (name, which) not in by_kernel:
                _fixed_rows(fn, kernel, builders[name][which], [])
    for kernel in module.kernels:
        padded_rows(kernel)
    module.wanted_helpers = helpers.wanted
    module.launch_entries = set(launch_entries(conv))
    _errors(module, parsed, kernels)


def _as_run(hl: HostLaunch, builder: KernelBuilder | None) -> HostLaunch:
    """A launch of a grid-stride kernel covers its extent with any grid (one sized from the
    hardware, say): a floored grid drops nothing, so it has none. So does a grid axis the kernel
    strides over (``for (idx = blockIdx.y * B + threadIdx.y; idx < n; idx += gridDim.y * B)``),
    and a count of blocks the launch passes the kernel, which splits its extent by it
    (``grid(b, splits)``, ``k<<<grid, …>>>(…, splits)``, ``s_begin = S * part / splits``)."""
    if builder is None:
        return hl
    if builder.grid_stride:
        return replace(hl, launch=replace(hl.launch, grid=()), grid_axes=(), grid_names=())
    passed = [n for n in hl.grid_names if n and n in hl.kernel_args]
    divisors = _divisor_params(builder.fn) if passed else set()  # read the kernel only where it can matter
    names = [p.spelling for p in params(builder.fn)] if passed else []

    def splits(local: str) -> bool:
        at = hl.kernel_args.index(local) if local in passed else len(names)
        return at < len(names) and names[at] in divisors

    return keep_floors(hl, lambda axis, _, local: "xyz"[axis] not in builder.grid_stride_axes and not splits(local))


def _divisor_params(fn: ci.Cursor) -> set[str]:
    """The parameters ``fn`` divides by (``S * part / splits``)."""
    out = set()
    for c in preorder(fn):
        kids = children(c) if c.kind == K.BINARY_OPERATOR and binary_op(c) == "/" else []
        if len(kids) == 2 and strip(kids[1]).kind == K.DECL_REF_EXPR:
            out.add(strip(kids[1]).spelling)
    return out


def _fixed_rows(fn: ci.Cursor, model: Kernel, builder: KernelBuilder, hls: list[HostLaunch]) -> None:
    """Drop the thread dimension of accesses that stay inside a row of compile-time length under
    every launch's compile-time block size, or, for a warp's lane, under any (:mod:`cuda_fixed_rows`);
    template parameters take the literal each launch gives. Then the x lanes of those inside a row
    the launches cover by names alone (:mod:`cuda_launch_rows`)."""
    recs, loops, values = builder.recs, builder.loop_ranges_at, builder.conv.values
    tparams = template_params(fn)
    bound = launch_bound(builder.src, fn, values)
    inside: set | None = None
    for hl in hls:
        block = hl.block_x_value if hl.block_x_value is not None else values.get(hl.block)
        block = block if block is not None and block > 0 else bound
        given = {p: int(v) for p, v in zip(tparams, hl.template_args) if v.isdigit()}
        found = rows_inside(recs, block, loops, {**values, **given}, bool(set(hl.ceil_axes) & {1, 2}))
        inside = found if inside is None else inside & found
    if inside is None:  # launched from no file of the run: a warp's lane, or a block the kernel caps, still has its reach
        inside = rows_inside(recs, bound, loops, values)
    drop_thread_dims(model, inside)
    # rows the launches cover by names alone (`h * N + i` under `<<<dim3(H, B), N>>>`): the x lanes
    drop_thread_dims(model, launch_rows(recs, fn, hls, loops), "x")
    # the column lanes of a 2-D layout inside a whole column tile under every launch's block
    blocks = [{f"blockDim.{a}": v for a, b in zip("xyz", hl.blocks)
               if isinstance(v := int(b) if b.isdigit() else values.get(b), int) and v > 0} for hl in hls]
    multiples = {(d.extent, int(d.tile)) for d in model.contracts if d.tile.isdigit()}
    drop_lane_dims(model, columns_inside(recs, blocks, loops, values, multiples))


_LAUNCH_BOUNDS = re.compile(r"\b(?:__launch_bounds__|C10_LAUNCH_BOUNDS_[12])\s*\(\s*(\w+)")


def launch_bound(src: Source, fn: ci.Cursor, values: dict[str, int | None]) -> int | None:
    """The most threads a block of ``fn`` may have, from its ``__launch_bounds__(N)`` (a literal,
    a known constant or a macro the file defines): a launch with more fails, so no thread index
    reaches N."""
    head = " ".join(src.lines[first(fn).line - 1:fn.location.line])
    m = _LAUNCH_BOUNDS.search(head)
    if m is None:
        return None
    name = m.group(1)
    n = int(name) if name.isdigit() else values.get(name)
    if n is None and not name.isdigit():  # a macro the kernel's body never reads: its #define
        d = re.search(rf"^[ \t]*#[ \t]*define[ \t]+{name}[ \t]+\(?(\d+)\)?[ \t]*(?://.*)?$", src.text, re.MULTILINE)
        n = int(d[1]) if d else None
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def _entry_device_functions(fns: list[ci.Cursor], parsed: Parsed) -> list[ci.Cursor]:
    """In a file of device code with no kernel (a helper library the kernels of another file
    include), the device functions no other function of the file calls: each is a kernel's body
    as much as an inlined helper is, so its accesses are checked as written. Only those parsed
    cleanly: a helper is no kernel the file declares, so what it loses is not reported (BC001)."""
    if any(is_kernel(f) for f in fns):
        return []
    called = {c.spelling for f in fns for c in f.walk_preorder() if c.kind == K.CALL_EXPR}
    errors = [line for _, line, _, _ in parsed.diagnostics]
    return [f for f in fns if is_device(f) and f.spelling not in called
            and not any(first(f).line <= line <= last(f).line for line in errors)]


def _floor_grid_contracts(hls: list[HostLaunch], kernel: Kernel) -> None:
    """A grid of ``n / T`` blocks never runs past n: where every launch in the file floors an
    axis, the kernel's tiles along it are full, and the skipped tail is the launch's defect
    (BC302, reported there once) rather than one finding per access."""
    axes = set.intersection(*(set(hl.grid_axes) for hl in hls))
    for hl in hls:
        for axis, div in zip(hl.grid_axes, hl.launch.grid):
            if axis not in axes:
                continue
            tiles = {div.tile}
            # the block's size along an axis divides the grid's tile (`n / (STEPS * BX)` blocks of
            # BX threads, each taking STEPS tiles): the blockDim tiles are full as well, also those
            # of another axis (`n / threads_y` blocks along x, row `blockIdx.x * blockDim.y + threadIdx.y`)
            for d, block in enumerate(hl.blocks):
                if block == div.tile or block in tile_factors(div.tile) or _divides(block, div.tile) or \
                        hl.block_var and div.tile == f"{hl.block_var}.{'xyz'[d]}":
                    tiles.add("blockDim." + "xyz"[d])
            for tile in sorted(tiles):
                d = Divisibility(div.extent, tile, "floor grid")
                if d not in kernel.contracts:
                    kernel.contracts.append(d)


def _unit_block_axes(hls: list[HostLaunch], kernel: Kernel, values: dict[str, int | None]) -> None:
    """A block one thread wide along an axis at every launch (``dim3 block(1, 256)``, a row per
    block along x): ``threadIdx`` is 0 there, so its dimensions are tiles of 1, never partial."""
    def one(block: str) -> bool:
        return block == "1" or values.get(block) == 1

    axes = [a for d, a in enumerate("xyz") if all(d < len(hl.blocks) and one(hl.blocks[d]) for hl in hls)]
    if not axes:
        return
    kernel.accesses[:] = [replace(a, dims=tuple(
        replace(d, tile="1") if any(d.source == f"threadIdx.{x}" for x in axes) else d for d in a.dims))
        for a in kernel.accesses]


_THREAD_AXIS = re.compile(r"threadIdx\.([xyz])")


def _block_uniform_exits(hls: list[HostLaunch], kernel: Kernel, quotients: dict[Span, dict[str, int]],
                         values: dict[str, int | None]) -> None:
    """An exit whose lanes enter its test only as ``threadIdx.x / D``, under blocks of at most D
    threads along that axis at every launch (``tile_id = blockIdx.x * blockDim.x / 256 + warp / 8``
    in blocks of 256): the quotient is 0 in every thread, so the whole block exits together and
    no barrier after it waits for the threads that left."""
    def at_most(block: str, bound: int) -> bool:
        size = int(block) if block.isdigit() else values.get(block)
        return size is not None and 0 < size <= bound

    def uniform(ex: Exit) -> bool:
        q = quotients.get(ex.span)
        axes = {src: "xyz".index(m[1]) for src in q or () if (m := _THREAD_AXIS.fullmatch(src))}
        return q is not None and len(axes) == len(q) and all(
            all(len(hl.blocks) > axes[src] and at_most(hl.blocks[axes[src]], d) for hl in hls) for src, d in q.items())

    if hls:
        kernel.exits[:] = [ex for ex in kernel.exits if not uniform(ex)]


def _divides(block: str, tile: str) -> bool:
    """``n / 512`` blocks of 256 threads: each thread takes two elements of its block's tile."""
    return block.isdigit() and tile.isdigit() and int(block) > 0 and int(tile) % int(block) == 0


def _loop_tiled(accesses: list[Access], walked: list[Access]) -> list[Access]:
    """Each access as ``walked`` reads it where that reading has a lane a loop tiles and the first
    reading had none: ``m[i * Br + tx]`` walks tiles of the block once Br is its size. A block
    index times that size (``row * dim + d`` under ``<<<rows, dim>>>``) keeps its first reading,
    one block spanning its row."""
    def tiled(a: Access) -> bool:
        return any(d.tiling is Tiling.LOOP for d in a.dims)

    if len(accesses) != len(walked):
        return accesses
    return [b if (a.span, a.buffer, a.kind) == (b.span, b.buffer, b.kind) and tiled(b) and not tiled(a) else a
            for a, b in zip(accesses, walked)]


def _block_params(hls: list[HostLaunch], fn: ci.Cursor, values: dict[str, int | None]) -> dict[str, int | None]:
    """The integer parameters every launch passes the block's x size for (the same name, or the
    same number: `fwd<<<grid, Bc>>>(…, Br)` with `const int Bc = 32, Br = 32;`), with that number
    where every launch gives the same one. Such a parameter is the tile a loop steps by
    (`m[i * Br + threadIdx.x]` walks tiles of the block), not a runtime extent."""
    def number(name: str | None) -> int | None:
        if not name:
            return None
        return int(name) if name.isdigit() else values.get(name)

    names = [p.spelling if is_integer(p) else "" for p in params(fn)]
    out: dict[str, int | None] | None = None
    for hl in hls:
        block = hl.block_x_value if hl.block_x_value is not None else number(hl.block)
        mine = {p: block for h, p in zip(hl.kernel_args, names) if h and p
                and (h == hl.block or block is not None and block > 0 and number(h) == block)}
        out = mine if out is None else {p: v if out[p] == v else None for p, v in mine.items() if p in out}
    return out or {}


def _block_bindings(hl: HostLaunch, fn: ci.Cursor) -> set[Divisibility]:
    """``dim3 threads(vector_dim)`` with ``vector_dim`` also passed to the kernel: one thread per
    element of a row of that many, so ``threadIdx.x`` alone spans the row (every launch must)."""
    names = [p.spelling for p in params(fn)]
    return {Divisibility(p, "blockDim.x", LAUNCH_BINDING, spans=True) for h, p in zip(hl.kernel_args, names)
            if h and h == hl.block and not h.isdigit()}


def _host_contracts(hl: HostLaunch, fn: ci.Cursor, kernel: Kernel) -> None:
    """Host asserts on the arguments become contracts on the kernel's parameters."""
    names = [p.spelling for p in params(fn)]
    tparams = template_params(fn)
    rename: dict[str, list[str]] = {}
    for h, p in zip(hl.kernel_args, names):
        if h:
            rename.setdefault(h, []).append(p)  # `k(…, w, h, w)`: both parameters get w's facts
    for v, t in zip(hl.template_args, tparams):
        rename[v] = [t]
    for fact in hl.launch.facts:
        if any(g.extent == fact.extent and g.tile == fact.tile for g in hl.launch.grid):
            # `assert(n % T == 0)` and a grid of n / T blocks: the blocks tile n exactly, so the
            # kernel's T-tiles are full even where it is not passed n at all
            d = Divisibility(fact.extent, fact.tile, "host assert")
            if d not in kernel.contracts:
                kernel.contracts.append(d)
        if fact.extent not in rename:
            continue
        tiles = {rename.get(fact.tile, [fact.tile])[0]}
        if fact.tile.isdigit():  # `k<32, 4><<<…>>>` under `n % 4 == 0`: n % N_LOOP, and still n % 4
            tiles.add(fact.tile)
        if hl.block and fact.tile == hl.block:
            tiles.add("blockDim.x")
        for extent in rename[fact.extent]:
            for tile in sorted(tiles):
                d = Divisibility(extent, tile, "host assert")
                if d not in kernel.contracts:
                    kernel.contracts.append(d)


def _errors(module: Module, parsed: Parsed, kernels: dict[str, list[tuple[ci.Cursor, Kernel]]]) -> None:
    """BC001 for what was lost: errors inside a kernel, and fatal errors anywhere."""
    ranges = [(first(fn).line, last(fn).line, name) for name, found in kernels.items() for fn, _ in found]
    reported: set[str] = set()
    for severity, line, col, text in parsed.diagnostics:
        inside = next((name for a, b, name in ranges if a <= line <= b), None)
        if inside is not None and inside not in reported:
            reported.add(inside)
            module.errors.append((Span(line, max(col - 1, 0), line, max(col - 1, 0)),
                                  f"kernel `{inside}` is only partly understood: {text}"))
        elif inside is None and severity >= ci.Diagnostic.Fatal:
            module.errors.append((Span(line, max(col - 1, 0), line, max(col - 1, 0)),
                                  f"{text}; code after line {line} was not analysed"))
