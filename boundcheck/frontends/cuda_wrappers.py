"""Launch wrappers: host functions that launch the kernel they are given.

``ggml_cuda_kernel_launch(kernel, params, args...)`` runs ``kernel<<<params.block_nums,
params.block_dims, …>>>(std::forward<Args>(args)...)``; ``launch(kernel, grid, block, args...)``
runs ``kernel<<<grid, block>>>(args...)``. A call of such a function is a launch of the kernel it
passes, whose grid and block are the arguments the wrapper's ``<<<`` reads: a parameter itself, or
a member of a struct parameter, which the call site builds with a constructor (its initialiser list
says which argument each member takes) or as an aggregate (members in declaration order).

A wrapper is found by its body, wherever the translation unit defines it (a project header): its
``<<<`` callee is one of its parameters, the launch configuration names its parameters, and the
kernel arguments are its trailing parameter pack forwarded, or its own parameters one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import params, strip
from boundcheck.frontends.cuda_parse import (
    Source,
    Token,
    child_list,
    definitions,
    is_device,
    is_kernel,
    split_groups,
)

K = ci.CursorKind
_IDENT = re.compile(r"[A-Za-z_]\w*")
_CALLEE = re.compile(rb"([A-Za-z_]\w*)\s*$")  # the name just before ``<<<``
_TOKEN = re.compile(rb"<<<|>>>|\.\.\.|->|::|[A-Za-z_]\w*|\d\w*|\S")
Operand = tuple[int, str]  # (parameter position, member read from it, or "")


@dataclass(frozen=True)
class Wrapper:
    kernel: int  # the parameter holding the kernel
    grid: Operand
    block: Operand
    args: tuple[int, ...]  # the parameters forwarded as the kernel's arguments, in order
    pack: bool  # ``args`` is one trailing pack: every call argument from there on


def find_wrappers(src: Source) -> dict[str, Wrapper]:
    """The launch wrappers the translation unit of ``src`` defines, by name (a name defined twice
    with different launches is left out: which one a call reaches is not known)."""
    found: dict[str, Wrapper | None] = {}
    texts: dict[str, bytes] = {src.path: src.data}  # the file as given, which need not be on disk
    for fn in definitions(src.root) if src.root is not None else ():
        w = _wrapper(fn, texts)
        if w is not None:
            found[fn.spelling] = w if found.get(fn.spelling, w) == w else None
    return {name: w for name, w in found.items() if w is not None}


def _wrapper(fn: ci.Cursor, texts: dict[str, bytes]) -> Wrapper | None:
    start, end = fn.extent.start, fn.extent.end
    if start.file is None:
        return None
    path = start.file.name
    if path not in texts:
        try:
            with open(path, "rb") as f:
                texts[path] = f.read()
        except OSError:
            texts[path] = b""
    text = texts[path][start.offset:end.offset]
    at = text.find(b"<<<")
    if at < 0 or is_kernel(fn) or is_device(fn):
        return None
    callee = _CALLEE.search(text[:at])
    names = [p.spelling for p in params(fn)]
    if callee is None or callee.group(1).decode() not in names:
        return None
    toks = [Token(m.start(), m.end(), m.group().decode(), 0, 0) for m in _TOKEN.finditer(text, at)]
    config, rest = split_groups(toks, ">>>")
    if len(config) < 2 or len(rest) < 2 or rest[1].text != "(":
        return None
    grid, block = _operand(_texts(config[0]), names), _operand(_texts(config[1]), names)
    args, _ = split_groups(rest[1:], ")")
    forwarded = _forwarded([_texts(a) for a in args], names)
    if grid is None or block is None or forwarded is None:
        return None
    return Wrapper(names.index(callee.group(1).decode()), grid, block, *forwarded)


def _texts(toks: list[Token]) -> list[str]:
    return [t.text for t in toks]


def _operand(group: list[str], names: list[str]) -> Operand | None:
    """``p`` or ``p.member`` of a parameter ``p``."""
    if len(group) == 1 and group[0] in names:
        return names.index(group[0]), ""
    if len(group) == 3 and group[0] in names and group[1] in (".", "->") and _IDENT.fullmatch(group[2]):
        return names.index(group[0]), group[2]
    return None


def _forwarded(args: list[list[str]], names: list[str]) -> tuple[tuple[int, ...], bool] | None:
    """The parameters the launch passes on: a trailing pack (``args...``,
    ``std::forward<Args>(args)...``), or parameters one by one."""
    if len(args) == 1 and args[0] and args[0][-1] == "...":
        idents = [t for t in args[0][:-1] if t in names]
        if len(set(idents)) == 1 and names.index(idents[0]) == len(names) - 1:
            return (len(names) - 1,), True
        return None
    if all(len(a) == 1 and a[0] in names for a in args):
        return tuple(names.index(a[0]) for a in args), False
    return None


def launch_operand(arg: ci.Cursor, member: str) -> ci.Cursor | None:
    """The call-site expression a wrapper's ``p.member`` reads: the argument itself, or the one
    its struct's construction gives the member (``const P params = {grid, block, 0, stream};``)."""
    if not member:
        return arg
    s = strip(arg)
    decl = s.referenced if s.kind == K.DECL_REF_EXPR else None
    if decl is None or decl.kind != K.VAR_DECL:
        return None
    init = next((strip(k) for k in child_list(decl) if k.kind.is_expression()), None)
    while init is not None and init.kind in (K.CXX_FUNCTIONAL_CAST_EXPR, K.UNEXPOSED_EXPR) and child_list(init):
        inner = [k for k in child_list(init) if k.kind != K.TYPE_REF]
        init = strip(inner[-1]) if inner else None
    if init is None or init.kind not in (K.CALL_EXPR, K.INIT_LIST_EXPR):
        return None
    given = [k for k in child_list(init) if k.kind.is_expression()]
    at = _member_position(decl.type.get_canonical().get_declaration(), member, len(given))
    return given[at] if at is not None and at < len(given) else None


def _member_position(struct: ci.Cursor, member: str, count: int) -> int | None:
    """Which of ``count`` construction arguments sets ``member``: through a constructor of that
    many parameters whose initialiser list sets the member from one of them, or, with no
    constructor, the member's place among the fields (aggregate initialisation)."""
    kids = child_list(struct)
    ctors = [k for k in kids if k.kind == K.CONSTRUCTOR and len(params(k)) == count]
    if not any(k.kind == K.CONSTRUCTOR for k in kids):
        fields = [k.spelling for k in kids if k.kind == K.FIELD_DECL]
        return fields.index(member) if member in fields else None
    positions = {_initialised_from(ctor, member) for ctor in ctors} - {None}
    return positions.pop() if len(positions) == 1 else None


def _initialised_from(ctor: ci.Cursor, member: str) -> int | None:
    """The parameter a constructor's ``member(param)`` initialiser copies."""
    names = [p.spelling for p in params(ctor)]
    kids = child_list(ctor)
    for i, k in enumerate(kids[:-1]):
        if k.kind == K.MEMBER_REF and k.spelling == member:
            refs = [n.spelling for n in kids[i + 1].walk_preorder() if n.kind == K.DECL_REF_EXPR]
            return names.index(refs[0]) if len(refs) == 1 and refs[0] in names else None
    return None
