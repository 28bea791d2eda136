"""Host code: ``kernel<<<grid, block>>>(…)`` launches, their grid expressions and the host
``assert(n % 256 == 0)`` facts that precede them in the same function."""

from __future__ import annotations

import re
from dataclasses import dataclass

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import Converter, Scope, children, is_integer, params, strip
from boundcheck.frontends.cuda_kernel import assume_comments, divisibility
from boundcheck.frontends.cuda_parse import Token, binary_op, child_list, first, last, preorder
from boundcheck.model import Divisibility, FloorDiv, Launch, Span
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
    walk = _Walk(conv, scope, first(body).offset)
    walk.facts += assume_comments(conv.src, fn)  # `// boundcheck: assume n % 256 == 0` in the host function
    # `<<<` tokens in source order: one that no launch call has claimed by the time the walk
    # passes it lies in a statement libclang dropped (a template argument it could not resolve)
    pending = [t for t in conv.src.tokens_between(first(body).offset, last(body).offset) if t.text == "<<<"]
    for c in _launch_paths(body, conv):
        start = first(c).offset
        while pending and pending[0].offset < start:
            walk.written(pending.pop(0))
        if walk.launch(c):
            pending = [t for t in pending if not start <= t.offset < last(c).offset]
        else:
            walk.visit(c)
    for tok in pending:
        walk.written(tok)
    return walk.out


class _Walk:
    """Host statements in source order: the locals, ``dim3`` members and asserts a launch sees."""

    def __init__(self, conv: Converter, scope: Scope, start: int) -> None:
        self.conv, self.scope, self.start = conv, scope, start
        self.facts: list[Divisibility] = []
        self.out: list[HostLaunch] = []
        self.decls: dict[str, ci.Cursor] = {}  # local name -> its declaration
        self.members: dict[str, dict[int, ci.Cursor]] = {}  # dim3 local -> axis -> assigned value

    def visit(self, c: ci.Cursor) -> None:
        conv, scope = self.conv, self.scope
        if c.kind == K.VAR_DECL:
            self.decls[c.spelling] = c
            self.members.pop(c.spelling, None)
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
                self.facts += divisibility(conv, args[0], scope, "host assert")
        elif c.kind == K.BINARY_OPERATOR and binary_op(c) == "=":
            self._member_assignment(c)

    def _member_assignment(self, c: ci.Cursor) -> None:
        """``grid.x = n / 256``: the value of one axis of a ``dim3`` local."""
        kids = child_list(c)
        if len(kids) != 2:
            return
        lhs = strip(kids[0])
        base = strip(child_list(lhs)[0]) if lhs.kind == K.MEMBER_REF_EXPR and child_list(lhs) else None
        if base is not None and base.kind == K.DECL_REF_EXPR and lhs.spelling in _AXES \
                and base.type.get_canonical().spelling.endswith("dim3"):
            self.members.setdefault(base.spelling, {})[_AXES.index(lhs.spelling)] = kids[1]

    def launch(self, c: ci.Cursor) -> bool:
        """A ``kernel<<<grid, block>>>(…)`` call libclang kept; False for any other call."""
        if c.kind != K.CALL_EXPR:
            return False
        conv, scope = self.conv, self.scope
        kids = children(c)
        config = next((k for k in kids[1:2] if k.kind == K.CALL_EXPR and k.spelling in _CONFIG), None)
        if config is None:
            return False
        cargs = [a for a in config.get_arguments() if first(a).line > 0]
        grid = [pair for a in cargs[:1] for pair in self._dims(a)]
        block = [render(conv.expr(d, scope)) for a in cargs[1:2] for _, d in self._dims(a)]
        call_args = kids[2:]
        names = [strip(a).spelling if strip(a).kind == K.DECL_REF_EXPR else None for a in call_args]
        targs = [render(conv.expr(k, scope)) for k in (preorder(kids[0]) if kids else [])
                 if k.kind == K.INTEGER_LITERAL]
        block_var = next((_var_name(a) for a in cargs[1:2]), "")
        self._add(_kernel_name(c, kids, conv), conv.src.span(c), grid, names, targs, block, block_var)
        return True

    def written(self, tok: Token) -> None:
        """A launch read from its tokens: ``name<…><<<grid, block, …>>>(args)``. Only a grid or
        block held in a local can be followed (its declaration is still in the tree)."""
        src = self.conv.src
        config, rest = _split(src.tokens_between(tok.offset, len(src.data)), ">>>")
        if not config or len(rest) < 2 or rest[1].text != "(":
            return
        args, tail = _split(rest[1:], ")")
        callee, targs = _callee(src.tokens_between(self.start, tok.offset))
        if callee is None or not tail:
            return
        grid = self._named_dims(config[0])
        block_arg = config[1] if len(config) > 1 else []
        block = [render(self.conv.expr(d, self.scope)) for _, d in self._named_dims(block_arg)] \
            or ([" ".join(t.text for t in block_arg)] if block_arg else [])
        names = [a[0].text if len(a) == 1 and _IDENT.fullmatch(a[0].text) else None for a in args]
        start, end = src.token_span(callee), src.token_span(tail[0])
        block_var = block_arg[0].text if len(block_arg) == 1 else ""
        self._add(callee.text, Span(start.line, start.col, end.end_line, end.end_col), grid, names, targs, block,
                  block_var)

    def _named_dims(self, arg: list[Token]) -> list[tuple[int, ci.Cursor]]:
        if len(arg) != 1 or arg[0].text not in self.decls:
            return []
        return self._var_dims(self.decls[arg[0].text])

    def _add(self, kernel: str, span: Span, grid: list[tuple[int, ci.Cursor]], names: list[str | None],
             targs: list[str], block: list[str], block_var: str) -> None:
        floored = [(axis, div) for axis, d in grid if (div := _floor(d, self.conv, self.scope)) is not None]
        self.out.append(HostLaunch(Launch(kernel, span, tuple(d for _, d in floored), tuple(self.facts)), names,
                                   targs, block[0] if block else "", tuple(block), tuple(a for a, _ in floored),
                                   block_var))

    def _dims(self, c: ci.Cursor) -> list[tuple[int, ci.Cursor]]:
        """The written dimension expressions of a ``dim3`` argument (or of an integer), by axis."""
        s = strip(c)
        if s.kind == K.CALL_EXPR and s.spelling == "dim3":
            args = [a for a in s.get_arguments() if first(a).line > 0]
            if len(args) == 1 and strip(args[0]).type.get_canonical().spelling.endswith("dim3"):
                return self._dims(args[0])
            return list(enumerate(args))
        if s.kind == K.DECL_REF_EXPR and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
            return self._var_dims(s.referenced, c)
        return [(0, c)]

    def _var_dims(self, decl: ci.Cursor, use: ci.Cursor | None = None) -> list[tuple[int, ci.Cursor]]:
        init = next((k for k in child_list(decl) if k.kind.is_expression()), None)
        if decl.type.get_canonical().spelling.endswith("dim3"):
            dims = dict(self._dims(init)) if init is not None else {}
            dims.update(self.members.get(decl.spelling, {}) if self.decls.get(decl.spelling, decl) == decl else {})
            if dims or use is None:
                return sorted(dims.items())
        if init is not None and first(decl).file is not None:
            return [(0, init)]
        return [(0, use)] if use is not None else []


_AXES = ("x", "y", "z")


def _split(toks: list[Token], close: str) -> tuple[list[list[Token]], list[Token]]:
    """The comma-separated groups after ``toks[0]`` (an opening token) up to the ``close`` token at
    depth 0, and the tokens from ``close`` on; nothing where the statement ends first."""
    groups: list[list[Token]] = [[]]
    depth = 0
    for i in range(1, len(toks)):
        t = toks[i].text
        if depth == 0 and t == close:
            return ([] if groups == [[]] else groups), toks[i:]
        if t == ";":
            break
        depth += 1 if t in ("(", "[", "{") else -1 if t in (")", "]", "}") else 0
        if depth < 0:
            break
        if depth == 0 and t == ",":
            groups.append([])
        else:
            groups[-1].append(toks[i])
    return [], []


def _callee(before: list[Token]) -> tuple[Token | None, list[str]]:
    """The kernel's name before ``<<<`` (``ns::kernel<T, 128>``: ``kernel``) and its template
    arguments that are integer literals."""
    i = len(before) - 1
    targs: list[str] = []
    if i >= 0 and before[i].text in (">", ">>"):
        depth, j = 0, i
        while j >= 0:
            t = before[j].text
            depth += 2 if t == ">>" else 1 if t == ">" else -1 if t == "<" else 0
            if depth <= 0:
                break
            j -= 1
        if j < 0:
            return None, []
        arg: list[Token] = []
        level = 0
        for t in before[j + 1:i] + [before[i]]:
            if level == 0 and t.text in (",", ">", ">>"):
                targs += [arg[0].text] if len(arg) == 1 and arg[0].text.isdigit() else []
                arg = []
                continue
            level += 1 if t.text in ("<", "(") else -1 if t.text in (">", ")") else -2 if t.text == ">>" else 0
            arg.append(t)
        i = j - 1
    if i < 0 or not _IDENT.fullmatch(before[i].text):
        return None, []
    return before[i], targs


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


def _floor(c: ci.Cursor, conv: Converter, scope: Scope, depth: int = 0) -> FloorDiv | None:
    from boundcheck.symbolic import floor_division
    s = strip(c)
    if s.kind == K.DECL_REF_EXPR and depth < 4 and s.referenced is not None and s.referenced.kind == K.VAR_DECL:
        init = next((k for k in child_list(s.referenced) if k.kind.is_expression()), None)
        if init is not None:
            return _floor(init, conv, scope, depth + 1)
    return floor_division(conv.expr(s, scope), conv.src.span(s), ("/",))
