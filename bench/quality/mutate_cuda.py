"""Mutation operators for CUDA kernels, on libclang cursors and token extents.

Cursors say where a condition, branch or launch is; the change itself is made on the tokens of
the original text, so a mutant differs from the source only in the seeded bug. Each mutant is
re-parsed and kept only if it adds no error diagnostic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

import clang.cindex as ci

from bench.quality.divisible import stated_multiple
from bench.quality.mutant import Mutant, Mutations
from boundcheck.frontends.cuda_parse import Parsed, Token, binary_op, parse

K = ci.CursorKind
IDENT = re.compile(r"^[A-Za-z_]\w*$")
KEYWORDS = {"sizeof", "static_cast", "reinterpret_cast", "const_cast", "int", "float", "unsigned",
            "long", "size_t", "return", "if", "else", "for", "while", "true", "false"}
ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}
CEIL_NAMES = re.compile(r"(?i)^(ceil_?div|cdiv|div_?up|div_?round_?up|ceil_?divide)$")
RAISED = ("not a floor: the count is raised by a positive constant (C / T + c >= ceil_div(C, T)),"
          " so the tail tile still runs")
OVERWRITTEN = ("padding never read: the next statement overwrites the padded value wherever the padding"
               " is taken, without reading it")
NEG_INF = [["-", "INFINITY"], ["-", "CUDART_INF_F"], ["-", "CUDART_INF"], ["-", "FLT_MAX"],
           ["-", "HUGE_VALF"], ["-", "INFINITY", "f"]]
ZERO = re.compile(r"^0(\.0*)?[fF]?$|^0?\.0+[fF]?$")
VECTOR = re.compile(r"^(float[24]|int[24]|uint[24]|half2|__half2|double2|longlong2|uint4|int4|"
                    r"__nv_bfloat162|nv_bfloat162|reinterpret_cast|Packed\w*|Vec\w*)$")
FLOATING = {ci.TypeKind.FLOAT, ci.TypeKind.DOUBLE, ci.TypeKind.HALF, ci.TypeKind.LONGDOUBLE}
SAME_INDEX = "the change would leave the program as it was: the guarded name is threadIdx itself"
NEVER_BINDS = ("not a bug: the guarded index is a remainder by the limit divided by k, times k (`(i % (n / k))"
               " * k < n`), below the limit by construction: the guard never binds")
LOOP_IMPLIES = ("not a bug: all the guard protects sits in loops `for (v = i; v < n; ...)` that run no"
                " iteration once i reaches n, so the loops bound what the guard bounds")
CLAMPED = ("not a bound bug: every access the guard protects clamps the guarded index into the extent"
           " (`a[min(n - 1, i)]` under `i < n`): no lane leaves it")
FLOORED = ("not a bug: every launch of the kernel in the file floors its grid (`n / B` blocks of B threads)"
           " and passes that n as the guard's limit, so no thread reaches it and the guard never binds"
           " (the tail the floor skips is the launch's BC302)")


def unwrap(c: ci.Cursor) -> ci.Cursor:
    """``c`` without the parentheses and implicit conversions around it."""
    while c.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR) and len(kids := list(c.get_children())) == 1:
        c = kids[0]
    return c


def ident_texts(tokens: list[Token]) -> set[str]:
    return {t.text for t in tokens if IDENT.match(t.text) and t.text not in KEYWORDS}


@dataclass
class Kernel:
    cursor: ci.Cursor
    body: ci.Cursor
    pointers: set[str] = field(default_factory=set)
    shared: set[str] = field(default_factory=set)
    shared_params: set[str] = field(default_factory=set)  # pointer parameters every call binds to shared memory
    global_index: dict[str, str] = field(default_factory=dict)  # name -> threadIdx component
    local_index: set[str] = field(default_factory=set)
    local_axis: dict[str, str] = field(default_factory=dict)  # block-local name -> threadIdx component
    params: set[str] = field(default_factory=set)
    extents: set[str] = field(default_factory=set)  # parameters and locals computed from them only
    locals: set[str] = field(default_factory=set)
    defs: list[tuple[str, list[Token]]] = field(default_factory=list)  # (name, right-hand side tokens)

    @property
    def index(self) -> set[str]:
        return set(self.global_index) | self.local_index | {"threadIdx", "blockIdx"}


def _literal_value(texts: list[str], values: dict[str, int]) -> int | None:
    """The value of integer literal arithmetic (names from ``values``), or None."""
    out = []
    for t in texts:
        bare = re.sub(r"(?i)^(\d+)[ul]*$", r"\1", t)
        if bare.isdigit() or t in ("+", "*", "(", ")"):
            out.append(bare)
        elif t in values:
            out.append(str(values[t]))
        elif t == "/":
            out.append("//")
        else:
            return None
    try:
        v = eval("".join(out), {"__builtins__": {}}) if out else None  # digits and + * // ( ) only
    except (SyntaxError, ZeroDivisionError):
        return None
    return v if isinstance(v, int) and v >= 0 else None


def in_file(c: ci.Cursor, path: str) -> bool:
    f = c.location.file
    return f is not None and f.name == path


def merge_chevrons(tokens: list[Token]) -> list[Token]:
    """``<<`` ``<`` (and ``>>`` ``>``) written together as one ``<<<`` / ``>>>`` token, whichever
    way the lexer split a launch configuration."""
    out: list[Token] = []
    for t in tokens:
        prev = out[-1] if out else None
        if prev is not None and prev.end == t.offset and (prev.text, t.text) in (("<<", "<"), (">>", ">")):
            out[-1] = Token(prev.offset, t.end, prev.text + t.text, prev.line, prev.col)
        else:
            out.append(t)
    return out


class CudaMutator:
    def __init__(self, path: str, source: str, cuda_args: list[str] | None = None) -> None:
        self.path, self.text, self.args = path, source, cuda_args or []
        self.parsed: Parsed = parse(path, source, self.args)
        self.src = self.parsed.source
        self.baseline = self._errors(self.parsed)
        self.out = Mutations()
        self.seen: set[tuple[str, int]] = set()
        self.kernels: list[Kernel] = []
        self.hosts: list[ci.Cursor] = []
        for c in self.parsed.tu.cursor.walk_preorder():
            if c.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD) or not in_file(c, path):
                continue
            kids = list(c.get_children())
            body = next((k for k in kids if k.kind == K.COMPOUND_STMT), None)
            if body is None:
                continue
            if any(k.kind in (K.CUDAGLOBAL_ATTR, K.CUDADEVICE_ATTR) for k in kids):
                self.kernels.append(self._kernel(c, body, kids))
            else:
                self.hosts.append(body)
        self._bind_shared_params()

    def _bind_shared_params(self) -> None:
        """A device helper's pointer parameter that every call in the file passes a ``__shared__``
        array (``merge(s_key, s_key + STRIDE, ...)``) points into shared memory: a guard around its
        accesses protects no global memory, so dropping it is no BC101/BC102 mutant."""
        by_name = {k.cursor.spelling: k for k in self.kernels}
        calls: dict[str, list[tuple[Kernel, list[ci.Cursor]]]] = {}
        for caller in self.kernels:
            for c in caller.body.walk_preorder():
                if c.kind != K.CALL_EXPR:
                    continue
                name = c.spelling or self._base(c)  # `merge<dir>(…)` in a template has no spelling
                if name in by_name and by_name[name] is not caller:
                    calls.setdefault(name, []).append((caller, list(c.get_arguments())))
        for name, sites in calls.items():
            k = by_name[name]
            params = [p.spelling for p in k.cursor.get_children() if p.kind == K.PARM_DECL]
            for i, param in enumerate(params):
                if param in k.pointers and all(i < len(args) and self._base(args[i]) in caller.shared
                                               for caller, args in sites):
                    k.shared_params.add(param)

    def _base(self, arg: ci.Cursor) -> str:
        """The array an argument points into: the first name of ``s_key + STRIDE`` or ``&s[i]``."""
        return next((t.text for t in self.toks(arg) if IDENT.match(t.text)), "")

    @staticmethod
    def _errors(parsed: Parsed) -> int:
        return sum(1 for d in parsed.diagnostics if d[0] >= ci.Diagnostic.Error)

    # -- tokens --------------------------------------------------------------------------------

    def toks(self, c: ci.Cursor) -> list[Token]:
        return self.src.tokens_between(c.extent.start.offset, c.extent.end.offset)

    def between(self, a: int, b: int) -> list[Token]:
        return self.src.tokens_between(a, b)

    def tok_after(self, offset: int) -> Token | None:
        rest = self.src.tokens_between(offset, len(self.src.data))
        return rest[0] if rest else None

    def slice(self, a: int, b: int) -> str:
        return self.src.data[a:b].decode("utf-8", errors="replace")

    def line_of(self, offset: int) -> int:
        return self.src.data.count(b"\n", 0, offset) + 1

    # -- facts about a kernel --------------------------------------------------------------------

    def _kernel(self, c: ci.Cursor, body: ci.Cursor, kids: list[ci.Cursor]) -> Kernel:
        k = Kernel(c, body)
        for p in kids:
            if p.kind == K.PARM_DECL:
                k.params.add(p.spelling)
                if p.type.get_canonical().kind == ci.TypeKind.POINTER:
                    k.pointers.add(p.spelling)
        defs: list[tuple[str, list[Token]]] = []
        for d in body.walk_preorder():
            if d.kind == K.VAR_DECL:
                k.locals.add(d.spelling)
                tokens = self.toks(d)
                names = [t.text for t in tokens]
                if "__shared__" in names or "__shared__" in self._decl_prefix(d):
                    k.shared.add(d.spelling)
                elif d.type.get_canonical().kind == ci.TypeKind.POINTER and ident_texts(tokens) & k.pointers:
                    k.pointers.add(d.spelling)
                if d.spelling in names:
                    defs.append((d.spelling, tokens[names.index(d.spelling) + 1:]))
            elif d.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
                parts = list(d.get_children())
                if len(parts) == 2 and parts[0].kind == K.DECL_REF_EXPR and binary_op(d) in ASSIGN | {"?"}:
                    defs.append((parts[0].spelling, self.toks(parts[1])))
        for _ in range(4):
            for name, rhs in defs:
                texts = [t.text for t in rhs]
                ids = set(texts)
                # the threadIdx component the name is built from, directly or through a block-local
                # name (`ty = threadIdx.y; m = bx * blockDim.y + ty`): the mutant's guard must use it
                comp = next((texts[i + 2] for i, t in enumerate(texts[:-2])
                             if t == "threadIdx" and texts[i + 1] == "."), None)
                comp = comp or next((k.local_axis[n] for n in texts if n in k.local_axis), None)
                if "blockIdx" in ids or ids & set(k.global_index):
                    comp = comp or next((k.global_index[n] for n in texts if n in k.global_index), "x")
                    k.global_index.setdefault(name, comp)
                elif "threadIdx" in ids or ids & k.local_index:
                    k.local_index.add(name)
                    if comp:
                        k.local_axis.setdefault(name, comp)
        k.local_index -= set(k.global_index)
        k.defs = defs
        k.extents = set(k.params) - k.pointers
        for _ in range(2):
            for name, rhs in defs:
                ids = ident_texts(rhs)
                if ids & k.extents and not ids & k.index and name not in k.index:
                    k.extents.add(name)
        return k

    def _decl_prefix(self, d: ci.Cursor) -> str:
        line_start = self.src.data.rfind(b"\n", 0, d.extent.start.offset) + 1
        return self.slice(line_start, d.extent.start.offset)

    def subscripts(self, kernel: Kernel, within: ci.Cursor | None = None,
                   after: int | None = None) -> list[tuple[ci.Cursor, str, bool]]:
        """Outermost ``a[...]`` with an index-derived subscript: (cursor, buffer, is_store)."""
        root = within or kernel.body
        found: dict[int, tuple[ci.Cursor, str, bool]] = {}
        for c in root.walk_preorder():
            if c.kind != K.ARRAY_SUBSCRIPT_EXPR or not in_file(c, self.path):
                continue
            if after is not None and c.extent.start.offset < after:
                continue
            tokens = self.toks(c)
            ids = ident_texts(tokens)
            if not ids & kernel.index:
                continue
            base_end = list(c.get_children())[0].extent.end.offset
            named = [t.text for t in tokens if t.offset < base_end and IDENT.match(t.text)]
            base = next((n for n in named if n in kernel.pointers | kernel.shared), named[0] if named else "")
            nxt = self.tok_after(c.extent.end.offset)
            store = nxt is not None and nxt.text in ASSIGN
            start = c.extent.start.offset
            if start not in found or found[start][0].extent.end.offset < c.extent.end.offset:
                found[start] = (c, base, store)
        return list(found.values())

    # -- emitting ------------------------------------------------------------------------------

    def emit(self, operator: str, rule: str, edits: list[tuple[int, int, str]], description: str,
             targets: list[tuple[int, int]]) -> None:
        first = min(a for a, _, _ in edits)
        key = (operator, first)
        if key in self.seen:
            return
        self.seen.add(key)
        data = self.src.data
        for a, b, text in sorted(edits, reverse=True):
            data = data[:a] + text.encode() + data[b:]
        mutated = data.decode("utf-8", errors="replace")
        if mutated == self.text:
            self.out.skip(operator, rule, "the change would leave the text as it was")
            return
        if self._errors(parse(self.path, mutated, self.args)) > self.baseline:
            self.out.skip(operator, rule, "the mutant does not parse cleanly")
            return
        self.out.mutants.append(Mutant(operator, rule, self.path, self.line_of(first), description,
                                       mutated, tuple(sorted(set(targets)))))

    def lines(self, c: ci.Cursor) -> tuple[int, int]:
        return c.extent.start.line, c.extent.end.line

    # -- comparisons ---------------------------------------------------------------------------

    def comparisons(self, kernel: Kernel, cond: ci.Cursor) -> Iterator[tuple[ci.Cursor, Token, bool]]:
        """Bound comparisons in ``cond``: (cursor, operator token, index is on the left)."""
        for c in cond.walk_preorder():
            if c.kind != K.BINARY_OPERATOR or binary_op(c) not in ("<", ">", "<=", ">="):
                continue
            parts = list(c.get_children())
            if len(parts) != 2 or any(p.type.get_canonical().kind in FLOATING for p in parts):
                continue  # `iou > threshold` compares data: no bound
            left, right = (ident_texts(self.toks(p)) for p in parts)
            op = next((t for t in self.between(parts[0].extent.end.offset, parts[1].extent.start.offset)
                       if t.text == binary_op(c)), None)
            if op is None:
                continue
            counters = kernel.locals - kernel.extents  # loop counters and the like: not an extent
            if left & kernel.index and right & kernel.extents and not right & (kernel.index | counters):
                yield c, op, True
            elif right & kernel.index and left & kernel.extents and not left & (kernel.index | counters):
                yield c, op, False

    def ifs(self, kernel: Kernel) -> Iterator[tuple[ci.Cursor, ci.Cursor, ci.Cursor, ci.Cursor | None]]:
        for c in kernel.body.walk_preorder():
            if c.kind == K.IF_STMT and in_file(c, self.path):
                kids = list(c.get_children())
                if len(kids) >= 2:
                    yield c, kids[0], kids[1], kids[2] if len(kids) > 2 else None

    @staticmethod
    def is_exit(stmt: ci.Cursor) -> bool:
        exits = (K.RETURN_STMT, K.CONTINUE_STMT, K.BREAK_STMT)
        if stmt.kind in exits:
            return True
        kids = list(stmt.get_children()) if stmt.kind == K.COMPOUND_STMT else []
        return len(kids) == 1 and kids[0].kind in exits

    def guards_global(self, kernel: Kernel, cond: ci.Cursor, exit_: bool, guarded: ci.Cursor) -> bool:
        """Whether the condition protects a global-memory access (after it, for an exit)."""
        region, after = (None, cond.extent.end.offset) if exit_ else (guarded, None)
        return any(base in kernel.pointers for _, base, _ in self.subscripts(kernel, region, after))

    def conditions(self, kernel: Kernel) -> Iterator[tuple[ci.Cursor, bool, ci.Cursor]]:
        """Guard conditions with whether they exit and what they guard: if / ternary / for."""
        for _, cond, then, _ in self.ifs(kernel):
            yield cond, self.is_exit(then), then
        for c in kernel.body.walk_preorder():
            if c.kind == K.CONDITIONAL_OPERATOR and in_file(c, self.path):
                yield next(c.get_children()), False, c
            elif c.kind == K.FOR_STMT and in_file(c, self.path):
                cond = self.for_condition(c)
                if cond is not None:
                    yield cond, False, c

    def for_condition(self, loop: ci.Cursor) -> ci.Cursor | None:
        a, b = self.for_header(loop)
        for kid in loop.get_children():
            if a <= kid.extent.start.offset and kid.extent.end.offset <= b and kid.kind in (
                    K.BINARY_OPERATOR, K.UNEXPOSED_EXPR, K.PAREN_EXPR):
                return kid
        return None

    def for_header(self, loop: ci.Cursor) -> tuple[int, int]:
        """Byte range of the condition: between the header's two top-level semicolons."""
        semis, depth = [], 0
        for t in self.toks(loop):
            depth += t.text == "("
            depth -= t.text == ")"
            if t.text == ";" and depth == 1:
                semis.append(t.offset)
            if depth == 0 and t.text == ")":
                break
        return (semis[0] + 1, semis[1]) if len(semis) >= 2 else (0, 0)

    # -- operators -----------------------------------------------------------------------------

    def off_by_one(self, kernel: Kernel) -> None:
        flip = {("<", True): "<=", (">", False): ">=", (">=", True): ">", ("<=", False): "<"}
        for cond, exit_, guarded in self.conditions(kernel):
            if not self.guards_global(kernel, cond, exit_, guarded):
                continue
            for cmp, op, left in self.comparisons(kernel, cond):
                want = {"<", ">"} if not exit_ else {">=", "<="}
                if op.text in want and (op.text, left) in flip:
                    if self.off_by_one_implied(kernel, cond, exit_, guarded):
                        self.out.skip("off-by-one", "BC104", LOOP_IMPLIES)
                        break
                    new = flip[(op.text, left)]
                    # `i + 3 <= n` over a 4-wide access lets its last lane reach n: the guard was
                    # written for the last lane, so this is the off-by-one, not a first-lane guard
                    self.emit("off-by-one", "BC104", [(op.offset, op.end, new)],
                              f"`{self.src.text_of(cmp)}` now admits the extent (`{op.text}` -> `{new}`)",
                              [self.lines(cmp)])
                    break

    def off_by_one_implied(self, kernel: Kernel, cond: ci.Cursor, exit_: bool, guarded: ci.Cursor) -> bool:
        """An if-guard ``i < n`` (exit ``i >= n``) whose region's accesses all lie in loops
        ``for (v = i; v < n; ...)``: where the guard admits ``i == n`` those loops run no
        iteration, so the off-by-one reaches no memory (``guard_loops_imply``)."""
        if guarded.kind in (K.CONDITIONAL_OPERATOR, K.FOR_STMT):
            return False
        region = (guarded.extent.end.offset, kernel.body.extent.end.offset) if exit_ else \
            (guarded.extent.start.offset, guarded.extent.end.offset)
        return self.guard_loops_imply(kernel, cond, exit_, region)

    def thread_guard(self, kernel: Kernel) -> None:
        for _, cond, then, other in self.ifs(kernel):
            if not self.guards_global(kernel, cond, self.is_exit(then), then):
                continue
            for cmp, op, left in self.comparisons(kernel, cond):
                side = list(cmp.get_children())[0 if left else 1]
                tokens = self.toks(side)
                if len(tokens) != 1 or tokens[0].text not in kernel.global_index:
                    continue
                tok = tokens[0]
                comp = kernel.global_index[tok.text]
                why = self.no_thread_bug(kernel, cmp, op.text, left, then if other is None else None)
                if why:
                    self.out.skip("thread-index-guard", "BC105", why)
                    continue  # another comparison of the condition may still be the guard
                self.emit("thread-index-guard", "BC105", [(tok.offset, tok.end, f"threadIdx.{comp}")],
                          f"guard on `{tok.text}` now compares `threadIdx.{comp}`", [self.lines(cmp)])
                break

    def no_thread_bug(self, kernel: Kernel, cmp: ci.Cursor, op: str, left: bool, then: ci.Cursor | None) -> str | None:
        """Why comparing ``threadIdx`` in ``cmp`` instead of its global index is no bug, or None.
        ``then`` is the guarded statement of an if without else (None otherwise): only there can
        loops inside it make the guard redundant (an else would run for the dropped lanes)."""
        side, limit = list(cmp.get_children())[::1 if left else -1]
        name = self.toks(side)[0].text
        if self.is_thread_index(kernel, name, kernel.global_index[name]):
            return SAME_INDEX
        if self.floored_limit(kernel, cmp):
            return FLOORED
        if then is None or ((op in ("<", "<=")) == left) == self.is_exit(then):
            return None  # not a guard that lets the lanes below the extent through
        extent = self.src.text_of(limit).strip()
        exit_ = self.is_exit(then)
        region = (then.extent.end.offset, kernel.body.extent.end.offset) if exit_ else \
            (then.extent.start.offset, then.extent.end.offset)
        if exit_ and "return" not in {t.text for t in self.toks(then)}:
            return None  # a `break` / `continue` leaves the rest of the body reachable
        return LOOP_IMPLIES if self.loops_imply(kernel, name, extent, region, {name, extent}) else None

    def is_thread_index(self, kernel: Kernel, name: str, comp: str) -> bool:
        """``name`` is only ever ``threadIdx.<comp>`` itself (``int tid = threadIdx.x;``)."""
        value = self.sole_value(kernel, name)
        return value is not None and [t.text for t in self.toks(value) if t.text not in ("(", ")")] == \
            ["threadIdx", ".", comp]

    def sole_value(self, kernel: Kernel, name: str) -> ci.Cursor | None:
        """The initialiser of ``name`` where it is declared once and never assigned again."""
        decls = [d for d in kernel.body.walk_preorder() if d.kind == K.VAR_DECL and d.spelling == name]
        kids = list(decls[0].get_children()) if len(decls) == 1 else []
        return unwrap(kids[-1]) if kids and name not in self.assigned(kernel) else None

    def assigned(self, kernel: Kernel) -> set[str]:
        """Names that an assignment or increment in the kernel changes after their declaration."""
        out = set()
        for c in kernel.body.walk_preorder():
            if c.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and binary_op(c) in ASSIGN:
                target = unwrap(next(c.get_children()))
            elif c.kind == K.UNARY_OPERATOR and {"++", "--"} & {t.text for t in self.toks(c)}:
                target = unwrap(next(c.get_children()))
            else:
                continue
            if target.kind == K.DECL_REF_EXPR:
                out.add(target.spelling)
        return out

    def guard_accesses(self, kernel: Kernel, region: ci.Cursor | None, after: int | None,
                       cond: ci.Cursor | None = None) -> tuple[str, list]:
        """The rule and lines a dropped guard exposes: its stores, else its reads, among the accesses
        whose index carries the index the guard compares (all of them where none does)."""
        stores, chosen = self.exposed(kernel, region, after, cond)
        return ("BC102" if stores else "BC101"), [self.lines(c) for c, _, _ in chosen]

    def exposed(self, kernel: Kernel, region: ci.Cursor | None, after: int | None,
                cond: ci.Cursor | None) -> tuple[bool, list]:
        """Whether a dropped guard exposes stores, and the accesses it exposes (``guard_accesses``)."""
        subs = [s for s in self.subscripts(kernel, region, after)
                if s[1] in kernel.pointers and s[1] not in kernel.shared_params]
        if cond is not None:
            names = self.guarded_names(kernel, cond)
            subs = [s for s in subs if self.carries(kernel, s[0], names)] or subs
        stores = [s for s in subs if s[2]]
        return bool(stores), stores or subs

    def guarded_names(self, kernel: Kernel, cond: ci.Cursor) -> set[str]:
        """The index names on the index side of the guard's bound comparisons."""
        names: set[str] = set()
        for cmp, _, left in self.comparisons(kernel, cond):
            side = list(cmp.get_children())[0 if left else 1]
            names |= ident_texts(self.toks(side)) & kernel.index
        return names

    def carries(self, kernel: Kernel, access: ci.Cursor, names: set[str]) -> bool:
        """Whether the access's base or subscript moves with the guarded index: it is built from a
        name the guard compares, or both are built from one tiled index (a block part and a thread
        part), as `y[i]` is where the guard compares `col = i * 4 / n`. A loaded value (`a[data[i]]`)
        is data, and a term wrapped by `%` stays below its modulus whatever the index: neither
        carries the guarded index past its extent."""
        depth, base, index = 0, [], []
        start: set[str] = set()
        for t in self.toks(access):  # the base (a local pointer may be offset) and each `[...]`
            depth -= t.text == "]"
            if depth:
                index.append(t)
            elif index:
                start |= self.index_terms(index)
                index = []
            elif t.text not in ("[", "]"):
                base.append(t)
            depth += t.text == "["
        mine = self.reach(kernel, start | self.index_terms(base), True)
        shared = mine & self.reach(kernel, names, False)
        return bool(mine & names) or any({"blockIdx", "threadIdx"} <= self.reach(kernel, {n}, False)
                                         for n in shared)

    def reach(self, kernel: Kernel, names: set[str], wrap: bool) -> set[str]:
        """``names`` and every name their local definitions are built from (``wrap``: not through
        `%`-wrapped terms)."""
        seen: set[str] = set()
        todo = set(names)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for lhs, rhs in kernel.defs:
                if lhs == name:
                    todo |= self.index_terms(rhs, wrap)
        return seen

    @staticmethod
    def index_terms(tokens: list[Token], wrap: bool = True) -> set[str]:
        """Names of an index expression outside brackets and (``wrap``) outside `%`-wrapped terms
        (the terms split at `+` / `-` outside parentheses)."""
        names: set[str] = set()
        term: list[str] = []
        parens = brackets = 0
        prev = ""
        for t in [*tokens, Token(0, 0, "+", 0, 0)]:
            parens += (t.text == "(") - (t.text == ")")
            brackets += (t.text == "[") - (t.text == "]")
            if brackets or t.text == "]":
                continue
            if parens == 0 and t.text in ("+", "-", ";", ","):
                if not wrap or "%" not in term:
                    names |= {x for x in term if IDENT.match(x) and x not in KEYWORDS}
                term = []
            elif prev not in (".", "->") and (parens == 0 or t.text != "%"):  # not `threadIdx.x`'s `x`
                term.append(t.text)
            prev = t.text
        return names

    def drop_guard(self, kernel: Kernel) -> None:
        for stmt, cond, then, other in self.ifs(kernel):
            if other is not None or not any(True for _ in self.comparisons(kernel, cond)):
                continue
            if self.is_exit(then):
                rule, targets = self.guard_accesses(kernel, None, stmt.extent.end.offset, cond)
                edit = (stmt.extent.start.offset, then.extent.end.offset, "")
                what = "dropped the early exit"
            else:
                rule, targets = self.guard_accesses(kernel, then, None, cond)
                edit = (stmt.extent.start.offset, then.extent.start.offset, "")
                what = "dropped the if-guard"
            if not targets:
                continue
            region = (then.extent.start.offset, then.extent.end.offset) if not self.is_exit(then) else \
                (stmt.extent.end.offset, kernel.body.extent.end.offset)
            if self.guard_loops_imply(kernel, cond, self.is_exit(then), region):
                self.out.skip("drop-guard", rule, LOOP_IMPLIES)
                continue
            if self.never_binds(kernel, cond, self.is_exit(then)):
                self.out.skip("drop-guard", rule, NEVER_BINDS)
                continue
            if self.floored_limit(kernel, cond):
                self.out.skip("drop-guard", rule, FLOORED)
                continue
            if self.clamps_guarded(kernel, cond, self.is_exit(then), *((None, stmt.extent.end.offset)
                                                                     if self.is_exit(then) else (then, None))):
                self.out.skip("drop-guard", rule, CLAMPED)
                continue
            self.emit("drop-guard", rule, [edit], f"{what} `{self.src.text_of(cond)}`", targets)

    def clamps_guarded(self, kernel: Kernel, cond: ci.Cursor, exit_: bool, region: ci.Cursor | None,
                       after: int | None) -> bool:
        """Whether the guard is one comparison ``i < n`` (``i >= n`` for an exit) and every access it
        exposes is subscripted ``min(n - 1, i)`` (or ``min(i, n - 1)``): the index stays inside the
        extent without the guard, so dropping it reaches no memory past it (only which in-bounds
        element a lane past n reads or writes changes, as with a clamped Triton load)."""
        bound = self.sole_bound(kernel, cond, exit_)
        if bound is None:
            return False
        index, limit, _ = bound
        _, chosen = self.exposed(kernel, region, after, cond)
        clamps = {f"min({limit}-1,{index})", f"min({index},{limit}-1)"}
        return bool(chosen) and all(self.join_text(self.toks(list(c.get_children())[-1])) in clamps
                                    for c, _, _ in chosen)

    def sole_bound(self, kernel: Kernel, cond: ci.Cursor, exit_: bool) -> tuple[str, str, ci.Cursor] | None:
        """The index and limit texts of a guard that is one comparison ``i < n`` (``i >= n`` for an
        exit), and that comparison; None for any other condition."""
        cmps = list(self.comparisons(kernel, cond))
        if len(cmps) != 1 or self.join_text(self.toks(cmps[0][0])) != self.join_text(self.toks(cond)).strip("()"):
            return None
        cmp, op, left = cmps[0]
        if (op.text, left) not in ({("<", True), (">", False)} if not exit_ else {(">=", True), ("<=", False)}):
            return None
        index, limit = (self.join_text(self.toks(p)) for p in list(cmp.get_children())[::1 if left else -1])
        return index, limit, cmp

    def guard_loops_imply(self, kernel: Kernel, cond: ci.Cursor, exit_: bool, region: tuple[int, int]) -> bool:
        """Whether the guard is one comparison ``i < n`` that loops in its region make redundant
        (``loops_imply``)."""
        bound = self.sole_bound(kernel, cond, exit_)
        return bound is not None and self.loops_imply(kernel, bound[0], bound[1], region,
                                                      ident_texts(self.toks(bound[2])))

    def never_binds(self, kernel: Kernel, cond: ci.Cursor, exit_: bool) -> bool:
        """Whether the guard is one comparison ``i < n`` whose index is below n by its definitions
        alone: ``i = r * k``, ``r = x % m``, ``m = n / k`` (a thread's pack of k in a row of n,
        ``pack_idx = idx % (n / k)``), so r * k <= (m - 1) * k < n."""
        bound = self.sole_bound(kernel, cond, exit_)
        if bound is None:
            return False
        index, limit, _ = bound
        scaled = self.definition(kernel, index).split("*")
        if len(scaled) != 2:
            return False
        for r, k in (scaled, scaled[::-1]):
            rem = self.definition(kernel, r).rsplit("%", 1)
            # `x % m` of a name x (not `a + b % m`), with m = n / k
            if len(rem) == 2 and IDENT.match(rem[0]) and self.definition(kernel, rem[1]) == f"{limit}/{k}":
                return True
        return False

    def definition(self, kernel: Kernel, name: str) -> str:
        """The text of ``name``'s one initialiser (no spaces), or "" where it has none or is
        assigned again."""
        value = self.sole_value(kernel, name) if IDENT.match(name) else None
        return self.join_text(self.toks(value)) if value is not None else ""

    def loops_imply(self, kernel: Kernel, index: str, limit: str, region: tuple[int, int], names: set[str]) -> bool:
        """Whether every use of memory in the guarded region lies in a loop ``for (t = i; t < n; t++)``
        that starts at the guard's index ``i`` and stops at its limit ``n``, with none of the guard's
        ``names`` written there: that loop does not run where the guard would have stopped the
        thread, so the guard changes nothing."""
        loops = [self.toks(c) for c in kernel.body.walk_preorder() if c.kind == K.FOR_STMT
                 and region[0] <= c.extent.start.offset < region[1] and self.walks_from(c, index, limit)]
        inside = {t.offset for loop in loops for t in loop}
        memory = kernel.pointers | kernel.shared
        tokens = self.between(*region)
        uses = [t for t in tokens if t.text in memory]
        written = {a.text for a, b in pairwise(tokens) if b.text in ASSIGN | {"++", "--"}} | \
            {b.text for a, b in pairwise(tokens) if a.text in ("++", "--")}
        return bool(loops) and not names & written and all(t.offset in inside for t in uses)

    def walks_from(self, loop: ci.Cursor, index: str, limit: str) -> bool:
        """``for (int t = index; t < limit; t++)`` (or ``++t``, ``t += step``)."""
        a, b = self.for_header(loop)
        head = [t.text for t in self.toks(loop) if t.offset < b]
        if not a or "=" not in head:
            return False
        var = head[head.index("=") - 1]
        init = self.join_text([t for t in self.toks(loop) if t.offset < a - 1][head.index("=") + 1:])
        step = [t.text for t in self.toks(loop) if b < t.offset][:3]
        increasing = step[:2] in ([var, "++"], ["++", var], [var, "+="])
        return init == index and self.join_text(self.between(a, b)) == f"{var}<{limit}" and increasing

    @staticmethod
    def join_text(tokens: list[Token]) -> str:
        return "".join(t.text for t in tokens)

    def shared_store(self, kernel: Kernel, stmt: ci.Cursor) -> ci.Cursor | None:
        """The assignment ``tile[...] = ...`` that ``stmt`` is (or holds alone), if to shared memory."""
        if stmt.kind == K.COMPOUND_STMT:
            kids = list(stmt.get_children())
            if len(kids) != 1:
                return None
            stmt = kids[0]
        if stmt.kind != K.BINARY_OPERATOR or binary_op(stmt) != "=":
            return None
        lhs = next(stmt.get_children())
        base = next((t.text for t in self.toks(lhs) if IDENT.match(t.text)), "")
        return stmt if base in kernel.shared and lhs.kind == K.ARRAY_SUBSCRIPT_EXPR else None

    def is_zero(self, c: ci.Cursor) -> bool:
        texts = [t.text for t in self.toks(c) if t.text not in ("(", ")")]
        return len(texts) == 1 and bool(ZERO.match(texts[0])) or (
            len(texts) >= 2 and bool(ZERO.match(texts[-1])) and texts[0] in ("static_cast", "T", "float"))

    def drop_zero_fill(self, kernel: Kernel) -> None:
        for stmt, cond, then, other in self.ifs(kernel):
            if other is None or other.kind == K.IF_STMT:
                continue
            store, fill = self.shared_store(kernel, then), self.shared_store(kernel, other)
            if store is None or fill is None or not self.is_zero(list(fill.get_children())[1]):
                continue
            else_tok = next((t for t in self.between(then.extent.end.offset, other.extent.start.offset)
                             if t.text == "else"), None)
            if else_tok is None:
                self.out.skip("drop-zero-fill", "BC201", "no else token")
                continue
            end = other.extent.end.offset
            nxt = self.tok_after(end)
            if other.kind != K.COMPOUND_STMT and nxt is not None and nxt.text == ";":
                end = nxt.end
            self.emit("drop-zero-fill", "BC201", [(else_tok.offset, end, "")],
                      "dropped the else zero fill of a shared tile", [self.lines(store)])
        for c in kernel.body.walk_preorder():
            if c.kind != K.BINARY_OPERATOR or binary_op(c) != "=" or not in_file(c, self.path):
                continue
            store = self.shared_store(kernel, c)
            rhs = list(c.get_children())[1] if store is not None else None
            while rhs is not None and rhs.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR):
                kids = list(rhs.get_children())
                rhs = kids[0] if len(kids) == 1 else None
            if rhs is None or rhs.kind != K.CONDITIONAL_OPERATOR:
                continue
            cond, yes, no = list(rhs.get_children())
            if not self.is_zero(no):
                continue
            nxt = self.tok_after(c.extent.end.offset)
            if nxt is None or nxt.text != ";":
                self.out.skip("drop-zero-fill", "BC201", "ternary fill is not a statement of its own")
                continue
            lhs = next(c.get_children())
            text = f"if ({self.src.text_of(cond)}) {self.src.text_of(lhs)} = {self.src.text_of(yes)}"
            self.emit("drop-zero-fill", "BC201", [(c.extent.start.offset, c.extent.end.offset, text)],
                      "the ternary zero fill of a shared tile became an if without else", [self.lines(c)])

    def ceil_sites(self, tokens: list[Token]) -> list[tuple[int, int, str]]:
        """(start, end, floor text) for each ceiling division among ``tokens``."""
        out = []
        texts = [t.text for t in tokens]
        for i, t in enumerate(tokens):
            if t.text == "(" and i > 0 and CEIL_NAMES.match(texts[i - 1]):
                close, args = self.group(texts, i)
                if close is not None and len(args) == 2:
                    a, b = (self.join(tokens, lo, hi) for lo, hi in args)
                    out.append((tokens[i - 1].offset, tokens[close].end, f"{self.paren(a)} / {self.paren(b)}"))
            elif t.text == "(":
                close, args = self.group(texts, i)
                if close is None or close + 2 >= len(tokens) or texts[close + 1] != "/" or len(args) != 1:
                    continue
                inner = texts[i + 1:close]
                plus = [j for j, x in enumerate(inner) if x == "+"]
                if not plus:
                    continue
                j = plus[-1]
                if len(inner) >= 5 and inner[-2:] == ["-", "1"]:
                    tile = "".join(inner[j + 1:-2])  # (a + b - 1) / b
                elif j == len(inner) - 2 and inner[-1].isdigit():
                    tile = str(int(inner[-1]) + 1)  # (a + 255) / 256
                else:
                    continue
                div_end = close + 2
                if texts[close + 2] == "(":
                    div_close, _ = self.group(texts, close + 2)
                    if div_close is None:
                        continue
                    div_end = div_close
                divisor = "".join(texts[close + 2:div_end + 1])
                if divisor.strip("()") != tile.strip("()"):
                    continue
                extent = self.join(tokens, i + 1, i + 1 + j)
                out.append((t.offset, tokens[div_end].end,
                            f"{self.paren(extent)} / {self.slice(tokens[close + 2].offset, tokens[div_end].end)}"))
        return out

    @staticmethod
    def group(texts: list[str], i: int) -> tuple[int | None, list[tuple[int, int]]]:
        """Matching ``)`` of the ``(`` at ``i`` and the top-level comma-separated argument ranges."""
        depth, start, args = 0, i + 1, []
        for j in range(i, len(texts)):
            if texts[j] in ("(", "[", "{"):
                depth += 1
            elif texts[j] in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    args.append((start, j))
                    return j, args
            elif texts[j] == "," and depth == 1:
                args.append((start, j))
                start = j + 1
        return None, []

    def join(self, tokens: list[Token], lo: int, hi: int) -> str:
        return self.slice(tokens[lo].offset, tokens[hi - 1].end) if hi > lo else ""

    @staticmethod
    def paren(text: str) -> str:
        return text if IDENT.match(text) or re.match(r"^[\w.]+$", text) else f"({text})"

    def floor_trip(self, kernel: Kernel) -> None:
        for loop in kernel.body.walk_preorder():
            if loop.kind != K.FOR_STMT or not in_file(loop, self.path):
                continue
            a, b = self.for_header(loop)
            if a == b:
                continue
            header = (loop.extent.start.line, self.line_of(b))
            cond = self.between(a, b)
            sites = self.ceil_sites(cond)
            for name in ident_texts(cond):
                for d in kernel.body.walk_preorder():
                    if (d.kind == K.VAR_DECL and d.spelling == name and d.extent.start.offset < loop.extent.start.offset
                            and "constexpr" not in {t.text for t in self.toks(d)}):
                        sites += [(s, e, t, self.lines(d)) for s, e, t in self.ceil_sites(self.toks(d))]
            for site in sites:
                s, e, text = site[:3]
                if not ident_texts(self.between(s, e)) & (kernel.params | kernel.locals):
                    continue  # a compile-time trip count: flooring it is no tail bug
                exact = stated_multiple(self.text, *text.rsplit(" / ", 1))
                if exact:
                    self.out.skip("floor-trip", "BC301", f"exact division: {exact}")
                    continue
                if not self.walks_tiles(loop, text):
                    self.out.skip("floor-trip", "BC301", "not a tile loop: the body indexes nothing by the tile")
                    continue
                if self.raised_count(s, e):
                    if ("floor-trip", s) not in self.seen:  # once per site, as emit counts it
                        self.seen.add(("floor-trip", s))
                        self.out.skip("floor-trip", "BC301", RAISED)
                    continue
                extra = [site[3]] if len(site) > 3 else []
                self.emit("floor-trip", "BC301", [(s, e, text)],
                          f"`{self.slice(s, e)}` became `{text}` in a loop trip count", [header, *extra])

    def raised_count(self, s: int, e: int) -> bool:
        """Whether the count at ``s:e`` is a whole addend of ``+ c`` (``ceil_div(C, T) + 2``) for a
        literal c >= 1: then ``C / T + c`` >= ``ceil_div(C, T)``, so flooring drops at most one
        trailing iteration over a tile that starts past C, and the tail tile still runs."""
        before = self.between(max(0, s - 256), s)
        after = self.between(e, min(len(self.src.data), e + 256))[:3]
        texts = [t.text for t in after]
        return (len(texts) >= 2 and texts[0] == "+" and texts[1].isdigit() and int(texts[1]) >= 1
                and (len(texts) == 2 or texts[2] in (";", ")", ",", "+"))
                and (not before or before[-1].text in ("=", "(", "<", "<=", ",", "return", "+")))

    def walks_tiles(self, loop: ci.Cursor, floor_text: str) -> bool:
        """Whether the loop steps through tiles: its body indexes memory (``a[...]``) and names the
        tile of the division (``bk * BK``), a literal tile (``ceil_div(V, 4)``: float4 steps) aside."""
        body = list(loop.get_children())[-1]
        tokens = self.toks(body)
        divisor = floor_text.rsplit(" / ", 1)[-1]
        names = set(re.findall(r"[A-Za-z_]\w*", divisor)) - KEYWORDS
        texts = {t.text for t in tokens}
        return "[" in texts and (not names or bool(names & texts))

    def floor_grid(self) -> None:
        for body in self.hosts:
            tokens = merge_chevrons(self.toks(body))
            texts = [t.text for t in tokens]
            for i, t in enumerate(texts):
                if t != "<<<":
                    continue
                end = next((j for j in range(i, len(texts)) if texts[j] == ">>>"), None)
                if end is None:
                    continue
                depth, stop = 0, end
                for j in range(i + 1, end):
                    depth += texts[j] in ("(", "[", "{")
                    depth -= texts[j] in (")", "]", "}")
                    if texts[j] == "," and depth == 0:
                        stop = j
                        break
                launch_line = tokens[i].line
                grid = tokens[i + 1:stop]
                pieces = [(grid, (grid[0].line, grid[-1].line) if grid else (launch_line, launch_line))]
                names, seen = ident_texts(grid), set()
                for _ in range(2):
                    more: set[str] = set()
                    for d in body.walk_preorder():
                        if d.kind == K.VAR_DECL and d.spelling in names - seen and d.extent.start.offset < tokens[i].offset:
                            dt = self.toks(d)
                            pieces.append((dt, self.lines(d)))
                            more |= ident_texts(dt)
                    seen |= names
                    names = more
                for piece, lines in pieces:
                    for s, e, text in self.ceil_sites(piece):
                        exact = stated_multiple(self.text, *text.rsplit(" / ", 1))
                        if exact:
                            self.out.skip("floor-grid", "BC302", f"exact division: {exact}")
                            continue
                        fixed = self.compile_time_multiple(body, *text.rsplit(" / ", 1))
                        if fixed and ("floor-grid", s) not in self.seen:
                            self.seen.add(("floor-grid", s))  # once per site, as emit counts it
                            self.out.skip("floor-grid", "BC302", f"exact division: {fixed}")
                        if fixed:
                            continue
                        self.emit("floor-grid", "BC302", [(s, e, text)],
                                  f"`{self.slice(s, e)}` became `{text}` in a launch grid",
                                  [lines, (launch_line, launch_line)])

    def compile_time_multiple(self, body: ci.Cursor, extent: str, tile: str) -> str | None:
        """Why ``extent / tile`` is exact, or None: both are fixed at compile time (literals and
        ``const`` / ``constexpr`` integers set from literals, ``constexpr int N = 4096 * 4096``)
        and the tile divides the extent."""
        values: dict[str, int] = {}
        for d in body.walk_preorder():
            if d.kind != K.VAR_DECL:
                continue
            texts = [t.text for t in self.toks(d)]
            if not {"const", "constexpr"} & set(texts) or "=" not in texts or "*" in texts[:texts.index("=")]:
                continue
            v = _literal_value(texts[texts.index("=") + 1:], values)
            if v is not None:
                values[d.spelling] = v
        e, t = (_literal_value(re.findall(r"\w+|\S", x), values) for x in (extent, tile))
        if e is None or not t or e % t:
            return None
        return "compile-time sizes: the extent is a multiple of the tile"

    def vector_tail(self, kernel: Kernel) -> None:
        for stmt, cond, then, _ in self.ifs(kernel):
            if not any(VECTOR.match(t.text) for t in self.toks(then)):
                continue
            for cmp, op, left in self.comparisons(kernel, cond):
                side = list(cmp.get_children())[0 if left else 1]
                texts = [t.text for t in self.toks(side)]
                tokens = self.toks(side)
                if not left or op.text not in ("<", "<="):
                    continue
                # i + W < n, i + W - 1 < n, i + W <= n  ->  i < n
                plus = [j for j, x in enumerate(texts) if x == "+"]
                if not plus or not re.match(r"^\d+$", texts[plus[-1] + 1] if plus[-1] + 1 < len(texts) else ""):
                    continue
                j = plus[-1]
                if j + 2 < len(texts) and texts[j + 2:] != ["-", "1"]:
                    continue
                index = self.join(tokens, 0, j)
                self.emit("vector-tail", "BC106", [(side.extent.start.offset, op.end, f"{index} <")],
                          f"`{self.src.text_of(cmp)}` now guards only the first lane",
                          [self.lines(then)])
                break

    def exit_before_barrier(self, kernel: Kernel) -> None:
        barriers = [t for t in self.toks(kernel.body) if t.text.startswith("__syncthreads")]
        for stmt, cond, then, other in self.ifs(kernel):
            if other is not None or self.is_exit(then) or not any(True for _ in self.comparisons(kernel, cond)):
                continue
            if any(t.text in ("return", "break", "continue", "goto", "__syncthreads") for t in self.toks(then)):
                continue
            if not any(b.offset > stmt.extent.end.offset for b in barriers):
                continue
            text = f"if (!({self.src.text_of(cond)})) return;\n{self.indent(stmt)}"
            self.emit("exit-before-barrier", "BC303", [(stmt.extent.start.offset, then.extent.start.offset, text)],
                      "the guarded block became an early return before a __syncthreads()",
                      [(stmt.extent.start.line, stmt.extent.start.line)])

    def move_exit_above_barrier(self, kernel: Kernel) -> None:
        """``__syncthreads(); if (i >= n) return;`` -> the exit first, then the barrier."""
        for block in kernel.body.walk_preorder():
            if block.kind != K.COMPOUND_STMT:
                continue
            kids = list(block.get_children())
            for barrier, stmt in zip(kids, kids[1:]):
                if not (barrier.kind == K.CALL_EXPR and barrier.spelling.startswith("__syncthreads")
                        and stmt.kind == K.IF_STMT):
                    continue
                cond, then = list(stmt.get_children())[:2]
                if not self.is_exit(then) or not any(True for _ in self.comparisons(kernel, cond)):
                    continue
                end = stmt.extent.end.offset
                nxt = self.tok_after(end)
                if nxt is not None and nxt.text == ";":
                    end = nxt.end
                text = (f"{self.slice(stmt.extent.start.offset, end)}\n{self.indent(barrier)}"
                        f"{self.slice(barrier.extent.start.offset, barrier.extent.end.offset)};")
                self.emit("exit-before-barrier", "BC303", [(barrier.extent.start.offset, end, text)],
                          "moved the boundary return above the __syncthreads() before it",
                          [(barrier.extent.start.line, barrier.extent.start.line)])

    def indent(self, c: ci.Cursor) -> str:
        line_start = self.src.data.rfind(b"\n", 0, c.extent.start.offset) + 1
        prefix = self.slice(line_start, c.extent.start.offset)
        return prefix if not prefix.strip() else ""

    def padding(self, kernel: Kernel) -> None:
        if not any("max" in t.text.lower() for t in self.toks(kernel.body)):
            return
        for c in kernel.body.walk_preorder():
            if c.kind != K.CONDITIONAL_OPERATOR or not in_file(c, self.path):
                continue
            cond, yes, no = list(c.get_children())
            if not any(True for _ in self.comparisons(kernel, cond)):
                continue
            for branch in (no, yes):
                texts = [t.text for t in self.toks(branch) if t.text not in ("(", ")")]
                if texts in NEG_INF and branch is no and self.padding_overwritten(kernel, c, cond):
                    self.out.skip("padding-neginf-to-zero", "BC202", OVERWRITTEN)
                elif texts in NEG_INF:
                    self.emit("padding-neginf-to-zero", "BC202",
                              [(branch.extent.start.offset, branch.extent.end.offset, "0.0f")],
                              "-INFINITY padding became 0.0f before a max", [self.lines(c)])
        for stmt, cond, then, other in self.ifs(kernel):
            if other is None or not any(True for _ in self.comparisons(kernel, cond)):
                continue
            body = list(other.get_children()) if other.kind == K.COMPOUND_STMT else [other]
            if len(body) != 1 or body[0].kind != K.BINARY_OPERATOR or binary_op(body[0]) != "=":
                continue
            rhs = list(body[0].get_children())[1]
            if [t.text for t in self.toks(rhs) if t.text not in ("(", ")")] in NEG_INF:
                self.emit("padding-neginf-to-zero", "BC202", [(rhs.extent.start.offset, rhs.extent.end.offset, "0.0f")],
                          "-INFINITY padding in the else branch became 0.0f before a max", [self.lines(then)])

    def padding_overwritten(self, kernel: Kernel, ternary: ci.Cursor, cond: ci.Cursor) -> bool:
        """Whether ``v = i + a < n ? ... : -INF;`` is followed at once by ``v = i + b < n ? ... : w;``
        with b >= a and a ``w`` that does not read v: wherever the padding is taken the next
        statement takes its own else branch and overwrites v unread, so no reduction sees it."""
        for block in kernel.body.walk_preorder():
            if block.kind != K.COMPOUND_STMT:
                continue
            kids = list(block.get_children())
            for first, second in zip(kids, kids[1:]):
                name = self.set_to(first, ternary)
                if name is None or second.kind != K.BINARY_OPERATOR or binary_op(second) != "=":
                    continue
                lhs, rhs = list(second.get_children())
                if self.src.text_of(lhs) != name:
                    return False
                nxt = next((k for k in rhs.walk_preorder() if k.kind == K.CONDITIONAL_OPERATOR), None)
                if nxt is None or not self.wraps(rhs, nxt):
                    return False
                cond2, _, no2 = list(nxt.get_children())
                a, b = self.lane_limit(cond), self.lane_limit(cond2)
                return (a is not None and b is not None and a[0] == b[0] and a[2] == b[2] and b[1] >= a[1]
                        and name not in ident_texts(self.toks(no2)))
        return False

    def set_to(self, stmt: ci.Cursor, value: ci.Cursor) -> str | None:
        """The variable ``stmt`` sets to exactly ``value`` (``v = value``, ``float v = value``)."""
        if stmt.kind == K.BINARY_OPERATOR and binary_op(stmt) == "=":
            lhs, rhs = list(stmt.get_children())
            target, init = self.src.text_of(lhs), rhs
        elif stmt.kind == K.DECL_STMT and len(decls := list(stmt.get_children())) == 1:
            inits = [k for k in decls[0].get_children() if k.kind.is_expression()]
            target, init = decls[0].spelling, inits[-1] if inits else None
        else:
            return None
        return target if init is not None and IDENT.match(target or "") and self.wraps(init, value) else None

    def wraps(self, outer: ci.Cursor, inner: ci.Cursor) -> bool:
        """``outer`` is ``inner`` in nothing but parentheses."""
        a, b = outer.extent.start.offset, outer.extent.end.offset
        c, d = inner.extent.start.offset, inner.extent.end.offset
        return a <= c and d <= b and not (self.slice(a, c) + self.slice(d, b)).strip("() \n\t")

    def lane_limit(self, cond: ci.Cursor) -> tuple[str, int, str] | None:
        """``i + k < n`` (parentheses aside) as (``i``, k, ``n``); ``i < n`` has k = 0."""
        texts = [t.text for t in self.toks(cond) if t.text not in ("(", ")")]
        if texts.count("<") != 1:
            return None
        left, right = texts[:texts.index("<")], texts[texts.index("<") + 1:]
        k = 0
        if len(left) >= 3 and left[-2] == "+" and left[-1].isdigit():
            left, k = left[:-2], int(left[-1])
        if not left or not right or any(t in ("+", "-", "?", ":", "&&", "||") for t in left):
            return None
        return " ".join(left), k, " ".join(right)

    def floored_limit(self, kernel: Kernel, cond: ci.Cursor) -> bool:
        """Whether ``cond`` is one comparison ``i < n`` (``i >= n``) of the thread's global index
        ``blockIdx.x * blockDim.x + threadIdx.x`` with a parameter n that every launch of the kernel
        in the file passes as the numerator of a floored grid ``n / B`` of B-thread blocks: then
        i < (n / B) * B <= n for every launched thread."""
        cmps = list(self.comparisons(kernel, cond))
        if len(cmps) != 1 or self.join_text(self.toks(cmps[0][0])) != self.join_text(self.toks(cond)).strip("()"):
            return False
        cmp, _, left = cmps[0]
        side, limit = list(cmp.get_children())[::1 if left else -1]
        names = [t.text for t in self.toks(side)]
        value = self.sole_value(kernel, names[0]) if len(names) == 1 else None
        spelled = self.join_text([t for t in self.toks(value) if t.text not in ("(", ")")]) if value is not None else ""
        params = [p.spelling for p in kernel.cursor.get_children() if p.kind == K.PARM_DECL]
        n = self.join_text(self.toks(limit))
        if spelled not in ("blockIdx.x*blockDim.x+threadIdx.x", "threadIdx.x+blockIdx.x*blockDim.x") or n not in params:
            return False
        launches = self.launches_of(kernel.cursor.spelling)
        return bool(launches) and all(_floors(grid, block, args, params.index(n)) for grid, block, args in launches)

    def launches_of(self, name: str) -> list[tuple[str, str, list[str]]]:
        """(grid, block, arguments) of every ``name<<<grid, block, ...>>>(arguments)`` in the file's
        host code, as joined texts; a launch whose pieces cannot be read gives empty texts."""
        out = []
        for body in self.hosts:
            tokens = merge_chevrons(self.toks(body))
            texts = [t.text for t in tokens]
            for i, t in enumerate(texts):
                if t != "<<<" or _launched_name(texts[:i]) != name:
                    continue
                end = next((j for j in range(i, len(texts)) if texts[j] == ">>>"), None)
                if end is None or end + 1 >= len(texts) or texts[end + 1] != "(":
                    out.append(("", "", []))
                    continue
                config = _top_level_split(texts[i + 1:end])
                close = _closing(texts, end + 1)
                args = _top_level_split(texts[end + 2:close]) if close is not None else []
                out.append((config[0] if config else "", config[1] if len(config) > 1 else "", args))
        return out

    def run(self) -> Mutations:
        for k in self.kernels:
            self.off_by_one(k)
            self.thread_guard(k)
            self.drop_guard(k)
            self.drop_zero_fill(k)
            self.floor_trip(k)
            self.vector_tail(k)
            self.exit_before_barrier(k)
            self.move_exit_above_barrier(k)
            self.padding(k)
        self.floor_grid()
        return self.out


def _launched_name(before: list[str]) -> str | None:
    """The kernel named just before ``<<<`` (past a template argument list ``k<T, 4>``)."""
    j = len(before) - 1
    if j >= 0 and before[j] == ">":
        depth = 0
        while j >= 0:
            depth += (before[j] == ">") - (before[j] == "<")
            j -= 1
            if depth == 0:
                break
    return before[j] if j >= 0 and IDENT.match(before[j]) else None


def _closing(texts: list[str], open_at: int) -> int | None:
    depth = 0
    for j in range(open_at, len(texts)):
        depth += (texts[j] == "(") - (texts[j] == ")")
        if depth == 0:
            return j
    return None


def _top_level_split(texts: list[str]) -> list[str]:
    """The comma-separated pieces of a token run, each joined without spaces."""
    pieces, cur, depth = [], [], 0
    for t in texts:
        depth += (t in ("(", "[", "{")) - (t in (")", "]", "}"))
        if t == "," and depth == 0:
            pieces.append("".join(cur))
            cur = []
        else:
            cur.append(t)
    pieces.append("".join(cur))
    return pieces


def _floors(grid: str, block: str, args: list[str], position: int) -> bool:
    """``n / B`` blocks of ``B`` threads with n passed at ``position``."""
    if grid.count("/") != 1 or position >= len(args):
        return False
    n, b = grid.split("/")
    return bool(n) and b == block and args[position] == n and (IDENT.match(b) is not None or b.isdigit())


def mutate(path: str, source: str, cuda_args: list[str] | None = None) -> Mutations:
    """Every mutant of one CUDA file."""
    return CudaMutator(path, source, cuda_args).run()
