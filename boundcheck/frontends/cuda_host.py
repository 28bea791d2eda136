"""Host code: ``kernel<<<grid, block>>>(…)`` launches, their grid expressions and the host
``assert(n % 256 == 0)`` facts that precede them in the same function."""

from __future__ import annotations

import re
from dataclasses import dataclass

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import Converter, Scope, children, is_integer, params, strip
from boundcheck.frontends.cuda_kernel import divisibility
from boundcheck.frontends.cuda_parse import child_list, first, last, preorder
from boundcheck.model import Divisibility, FloorDiv, Launch
from boundcheck.symbolic import Call, Expr, Kind, render, syms

K = ci.CursorKind
_CONFIG = {"cudaConfigureCall", "__cudaPushCallConfiguration"}
_ASSERTS = {"__bc_assert", "__assert_fail", "__assert_rtn", "_assert"}
_IDENT = re.compile(r"[A-Za-z_]\w*")


@dataclass
class HostLaunch:
    launch: Launch
    kernel_args: list[str | None]  # host names passed, by kernel parameter position
    template_args: list[str]  # literal template arguments, rendered
    block: str  # the block size's x expression, rendered
    blocks: tuple[str, ...] = ()  # the block size per axis (x, y, z), rendered
    grid_axes: tuple[int, ...] = ()  # the grid axis of each floored dimension in ``launch.grid``
    block_var: str = ""  # the block argument's variable (``dimBlock``), whose ``.x`` a grid may divide by


def launches_in(fn: ci.Cursor, conv: Converter) -> list[HostLaunch]:
    if b"<<<" not in conv.src.data[first(fn).offset:last(fn).offset]:
        return []  # no launch written here: skip walking what may be most of a file's host code
    body = next((k for k in child_list(fn) if k.kind == K.COMPOUND_STMT), None)
    if body is None:
        return []
    scope = Scope()
    for p in params(fn):
        scope.kinds[p.spelling] = Kind.EXTENT if is_integer(p) else Kind.OTHER
    facts: list[Divisibility] = []
    out = []
    for c in _launch_paths(body, conv):
        if c.kind == K.VAR_DECL and is_integer(c):
            init = next((k for k in child_list(c) if k.kind.is_expression()), None)
            if c.type.is_const_qualified() and init is not None and strip(init).kind == K.INTEGER_LITERAL:
                scope.kinds = {**scope.kinds, c.spelling: Kind.CONST}
            elif init is not None:
                value = conv.expr(init, scope)
                if _opaque_call(value):
                    scope.kinds = {**scope.kinds, c.spelling: Kind.EXTENT}
                else:
                    scope.env[c.spelling] = value
        elif c.kind == K.CALL_EXPR and c.spelling in _ASSERTS:
            args = list(c.get_arguments())
            if args:
                facts += divisibility(conv, args[0], scope, "host assert")
        elif c.kind == K.CALL_EXPR:
            kids = children(c)
            config = next((k for k in kids[1:2] if k.kind == K.CALL_EXPR and k.spelling in _CONFIG), None)
            if config is None:
                continue
            cargs = [a for a in config.get_arguments() if first(a).line > 0]
            floored = [(axis, d) for a in cargs[:1] for axis, d in _grid_dims(a, conv, scope)]
            grid = [d for _, d in floored]
            block = [render(conv.expr(d, scope)) for a in cargs[1:2] for d in _dims(a)]
            call_args = kids[2:]
            names = [strip(a).spelling if strip(a).kind == K.DECL_REF_EXPR else None for a in call_args]
            targs = [render(conv.expr(k, scope)) for k in (preorder(kids[0]) if kids else [])
                     if k.kind == K.INTEGER_LITERAL]
            block_var = next((_var_name(a) for a in cargs[1:2]), "")
            out.append(HostLaunch(Launch(_kernel_name(c, kids, conv), conv.src.span(c), tuple(grid), tuple(facts)), names, targs,
                                  block[0] if block else "", tuple(block), tuple(a for a, _ in floored), block_var))
    return out


def _opaque_call(e: Expr) -> bool:
    """A value only a call can give at run time, with no name in it (``a.size(0)``, ``numel()``):
    the host local holding it is a runtime extent, not the constant its arguments are."""
    return isinstance(e, Call) and e.fn not in _FOLDABLE and not any(True for _ in syms(e))


_FOLDABLE = {"min", "max", "cdiv"}
_BLOCKS = {K.COMPOUND_STMT, K.IF_STMT, K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.SWITCH_STMT, K.CXX_FOR_RANGE_STMT,
           K.CXX_TRY_STMT}


def _launch_paths(body: ci.Cursor, conv: Converter):
    """Pre-order over ``body``, not entering nested blocks that hold no launch: what they declare
    is out of scope at every launch, and what they assert holds only on their own path."""
    stack = [body]
    while stack:
        node = stack.pop()
        yield node
        for k in reversed(child_list(node)):
            if k.kind in _BLOCKS and b"<<<" not in conv.src.data[first(k).offset:last(k).offset]:
                continue
            stack.append(k)


def _kernel_name(call: ci.Cursor, kids: list[ci.Cursor], conv: Converter) -> str:
    """The launched kernel: the call's name, or, where the call depends on a template parameter
    (libclang leaves it unnamed), the last identifier of its callee as written
    (``ns::kernel<T>`` → ``kernel``)."""
    if call.spelling or not kids:
        return call.spelling
    names = _IDENT.findall(conv.src.text_of(kids[0]).split("<", 1)[0])
    return names[-1] if names else ""


def _var_name(c: ci.Cursor) -> str:
    """The variable a ``dim3`` argument copies (through the implicit copy construction)."""
    s = strip(c)
    while s.kind == K.CALL_EXPR and s.spelling == "dim3" and len(child_list(s)) == 1:
        s = strip(child_list(s)[0])
    return s.spelling if s.kind == K.DECL_REF_EXPR else ""


def _dims(c: ci.Cursor) -> list[ci.Cursor]:
    """The written dimension expressions of a ``dim3`` argument (or of an integer)."""
    s = strip(c)
    if s.kind == K.CALL_EXPR and s.spelling == "dim3":
        args = [a for a in s.get_arguments() if first(a).line > 0]
        if len(args) == 1 and strip(args[0]).type.get_canonical().spelling.endswith("dim3"):
            return _dims(args[0])
        return args
    if s.kind == K.DECL_REF_EXPR and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
        init = next((k for k in child_list(s.referenced) if k.kind.is_expression()), None)
        if init is not None and s.referenced.type.get_canonical().spelling.endswith("dim3"):
            return _dims(init)
        if init is not None and first(s.referenced).file is not None:
            return [init]
    return [c]


def _grid_dims(c: ci.Cursor, conv: Converter, scope: Scope) -> list[tuple[int, FloorDiv]]:
    out = []
    for axis, d in enumerate(_dims(c)):
        div = _floor(d, conv, scope)
        if div is not None:
            out.append((axis, div))
    return out


def _floor(c: ci.Cursor, conv: Converter, scope: Scope, depth: int = 0) -> FloorDiv | None:
    from boundcheck.symbolic import floor_division
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR and depth < 4 and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
        init = next((k for k in child_list(s.referenced) if k.kind.is_expression()), None)
        if init is not None:
            return _floor(init, conv, scope, depth + 1)
    return floor_division(conv.expr(s, scope), conv.src.span(s), ("/",))
