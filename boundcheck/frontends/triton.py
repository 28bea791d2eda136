"""The Triton frontend: find ``@triton.jit`` kernels and their launch sites, and model them.

Files are parsed with the standard library's ``ast``: measured on Liger-Kernel's 30k kernel
lines, libcst's parse plus position metadata cost 10.2 s against 0.56 s for ``ast``, and the
analysis needs positions and structure only, never formatting (fixes are text edits on spans).
libcst remains the tool for rewriting code (the mutation benchmark).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator

from boundcheck.frontends.pysource import Source, decorator_names, jit_aliases, nested_statements
from boundcheck.frontends.triton_foreign import called_helpers
from boundcheck.frontends.triton_host import analyse_host
from boundcheck.frontends.triton_imports import exported, imported_kernels, merge
from boundcheck.frontends.triton_kernel import KernelAnalyser, ModuleContext
from boundcheck.model import Language, Module, Span

_ASSUME = re.compile(r"#\s*boundcheck:\s*assume\s+(.+?)\s*$")


def _function_defs(body: list[ast.stmt]) -> Iterator[ast.FunctionDef]:
    """Function definitions at any depth of statements."""
    return (s for s in nested_statements(body) if isinstance(s, ast.FunctionDef))


def _by_name(fns: Iterable[ast.FunctionDef]) -> dict[str, list[ast.FunctionDef]]:
    out: dict[str, list[ast.FunctionDef]] = {}
    for f in fns:
        out.setdefault(f.name, []).append(f)
    return out


def _called_jit(jit: list[ast.FunctionDef], src: Source) -> set[str]:
    """Jit functions another jit function calls by name (helpers), found in the source text."""
    bodies = {f.name: "\n".join(src.lines[f.lineno - 1:f.end_lineno]) for f in jit}
    called = set()
    for name in bodies:
        pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")
        if any(other != name and pattern.search(text) for other, text in bodies.items()):
            called.add(name)
    return called


def _lines_naming(source: str, names: set[str]) -> list[int]:
    """The lines (1-based, sorted) on which any of ``names`` occurs as a word: one scan of the text."""
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
    starts = [m.end() for m in re.finditer("\n", source)]
    return [bisect_right(starts, m.start()) + 1 for m in pattern.finditer(source)]


def parse_module(path: str, source: str, launched: dict[str, list[object]] | None = None,
                 inlined: set[int] | frozenset[int] = frozenset()) -> Module:
    """The file's model. ``launched``: launches of its kernels that other files of the run make
    (the engine's :attr:`Module.foreign_launches`), read as if they were written here;
    ``inlined``: the lines of its jit functions that other files' kernels inline (helpers,
    checked there under their callers' values, not here as kernels)."""
    module = Module(path, Language.TRITON, source)
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        line = exc.lineno or 1
        module.errors.append((Span(line, max((exc.offset or 1) - 1, 0), line, max(exc.offset or 1, 1)),
                              f"syntax error: {exc.msg}"))
        return module
    except (ValueError, RecursionError, MemoryError) as exc:
        module.errors.append((Span(1, 0, 1, 0), f"cannot parse: {type(exc).__name__}"))
        return module
    aliases = jit_aliases(tree)
    functions = list(_function_defs(tree.body))
    jit = [f for f in functions if decorator_names(f) & aliases]
    jit_names = {f.name for f in jit}
    imported = imported_kernels(tree, path, source, jit_names) if "[" in source else {}
    if not jit and not imported:
        return module
    src = Source(source)
    context = ModuleContext(
        src=src,
        tree=tree,
        assumes={i: m.group(1) for i, text in enumerate(src.lines, start=1)
                 if "boundcheck" in text and (m := _ASSUME.search(text))},
        functions={f.name: f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name not in jit_names},
        definitions=_by_name(f for f in functions if f.name not in jit_names),
        jit={**{name: imp.fn for name, imp in imported.items()}, **{f.name: f for f in jit}},
        path=path,
    )
    jit_ids = {id(f) for f in jit}
    # host code that names no kernel launches none (directly, through a launcher or an alias)
    mentions = _lines_naming(source, set(context.jit))
    for fn in functions:
        if id(fn) not in jit_ids and bisect_right(mentions, fn.end_lineno or fn.lineno) > bisect_left(mentions, fn.lineno):
            module.launches.extend(analyse_host(fn, context, jit_ids))
    module.launches.extend(analyse_host(tree, context, jit_ids))
    module.foreign_launches = exported(context, imported)
    context.foreign = called_helpers(tree, path, src.lines, jit)
    merge(context, launched or {})
    for name, per_launch in context.branch_contracts.items():  # a fact only some launches have is no contract
        shared = frozenset.intersection(*per_launch)
        context.host_contracts.setdefault(name, []).extend(sorted(shared, key=lambda f: (f.extent, f.tile)))
    helpers = _called_jit(jit, src) | {h.fn.name for h in context.foreign.values() if h.path == context.real_path}
    for fn in jit:
        if fn.name in helpers or fn.lineno in inlined:
            continue  # a jit helper is analysed inlined, with its caller's masks and offsets
        try:
            module.kernels.append(KernelAnalyser(context, fn).run())
        except RecursionError:
            module.errors.append((src.span(fn), f"kernel `{fn.name}` is too deeply nested to analyse"))
    module.inlined_helpers = context.inlined
    return module
