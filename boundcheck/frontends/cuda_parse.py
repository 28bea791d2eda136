"""libclang parsing for the CUDA frontend: one shared Index, in-memory stub and empty headers for
what cannot be found, flags from ``cuda_args`` and ``compile_commands.json``, and the operator
kinds the 18.x bindings do not wrap."""

from __future__ import annotations

import ctypes
import json
import multiprocessing.util
import os
import re
import shlex
import shutil
import tempfile
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

import clang.cindex as ci

from boundcheck.frontends.cuda_cub import cub_header
from boundcheck.frontends.cuda_glm import glm_header
from boundcheck.frontends.cuda_stubs import KNOWN_HEADERS, STUB_HEADER, STUB_NAME, VIRTUAL_DIR
from boundcheck.frontends.cuda_torch import torch_header
from boundcheck.model import Span

MISSING_DIR = f"{VIRTUAL_DIR}/missing"
BASE_ARGS = [
    "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
    "--cuda-path=/nonexistent", "-nostdinc", "-w", "-ferror-limit=0",
    "-fgpu-rdc",  # `extern __shared__ float s[32][32]`: nvcc accepts a sized extern tile, as clang does here
]
MAX_REPARSES = 6
MAX_SCANNED = 64
_ROOT_LEVELS = 6  # ancestors past the third searched for a root-relative include
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
_NOT_FOUND = re.compile(r"'([^']+)' file not found")
_NO_CUB = "use of undeclared identifier 'cub'"
# `__shared__ alignas(128) T tile[...]`: nvcc takes `alignas` after a CUDA memory-space keyword,
# clang (whose keywords are GNU attributes) only before it; swapped, the text keeps its length
_LATE_ALIGNAS = re.compile(r"\b((?:(?:static|extern)[ \t]+)?__(?:shared|device|constant|managed)__)([ \t]+)"
                           r"(alignas[ \t]*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))")

_BINARY = {3: "*", 4: "/", 5: "%", 6: "+", 7: "-", 8: "<<", 9: ">>", 11: "<", 12: ">", 13: "<=",
           14: ">=", 15: "==", 16: "!=", 17: "&", 18: "^", 19: "|", 20: "&&", 21: "||", 22: "=",
           23: "*=", 24: "/=", 25: "%=", 26: "+=", 27: "-=", 28: "<<=", 29: ">>=", 30: "&=",
           31: "^=", 32: "|=", 33: ","}
_UNARY = {1: "post++", 2: "post--", 3: "++", 4: "--", 5: "&", 6: "*", 7: "+", 8: "-", 9: "~", 10: "!"}
# type kinds libclang returns that the 18.x bindings do not list (Index.h): asking a `_Float16`
# expression for its type kind raised, and the file gave BC001 (an internal error)
_UNLISTED_TYPE_KINDS = {32: "FLOAT16", 33: "SHORTACCUM", 34: "ACCUM", 35: "LONGACCUM", 36: "USHORTACCUM",
                        37: "UACCUM", 38: "ULONGACCUM", 39: "BFLOAT16", 178: "BTFTAGATTRIBUTED"}


def _list_type_kinds() -> None:
    for value, name in _UNLISTED_TYPE_KINDS.items():
        kinds = ci.TypeKind._kinds  # the bindings' own registry of kinds
        if value >= len(kinds) or kinds[value] is None:
            setattr(ci.TypeKind, name, ci.TypeKind(value))


_list_type_kinds()


@lru_cache(maxsize=1)
def _index() -> ci.Index:
    return ci.Index.create(excludeDecls=True)


@lru_cache(maxsize=1)
def _op_functions() -> tuple[object, object]:
    lib = ci.conf.lib
    binary, unary = lib.clang_getCursorBinaryOperatorKind, lib.clang_getCursorUnaryOperatorKind
    for fn in (binary, unary):
        fn.argtypes, fn.restype = [ci.Cursor], ctypes.c_int
    return binary, unary


@lru_cache(maxsize=1)
def _eval_functions() -> tuple[object, object, object, object, object]:
    lib = ci.conf.lib
    fns = (lib.clang_Cursor_Evaluate, lib.clang_EvalResult_getKind, lib.clang_EvalResult_getAsLongLong,
           lib.clang_EvalResult_getAsDouble, lib.clang_EvalResult_dispose)
    fns[0].argtypes, fns[0].restype = [ci.Cursor], ctypes.c_void_p
    fns[1].argtypes, fns[1].restype = [ctypes.c_void_p], ctypes.c_int
    fns[2].argtypes, fns[2].restype = [ctypes.c_void_p], ctypes.c_longlong
    fns[3].argtypes, fns[3].restype = [ctypes.c_void_p], ctypes.c_double
    fns[4].argtypes, fns[4].restype = [ctypes.c_void_p], None
    return fns


def reads_placeholder(cursor: ci.Cursor) -> bool:
    """Whether ``cursor`` reads a build-time macro the parse gave a placeholder value (see
    :func:`_build_macros`): what libclang computes from it is no value of the program's."""
    placeholders = getattr(getattr(cursor, "_tu", None), "_bc_placeholders", None)
    if placeholders is None:
        return False
    main, data, pattern = placeholders
    start, end = first(cursor), last(cursor)
    return start.file == main and pattern.search(data, start.offset, max(end.offset, start.offset + 1)) is not None


def evaluate(cursor: ci.Cursor) -> int | float | None:
    """A constant expression's value (literals inside function-like macro arguments, whose
    tokens libclang places at the macro name)."""
    if reads_placeholder(cursor):
        return None  # a build-time macro's placeholder is no value (see _build_macros)
    run, kind, as_int, as_float, dispose = _eval_functions()
    result = run(cursor)
    if not result:
        return None
    try:
        k = kind(result)
        return as_int(result) if k == 1 else as_float(result) if k == 2 else None
    finally:
        dispose(result)


class _Once:
    """A value computed on first use and kept in the instance (no lock, unlike
    ``functools.cached_property`` on Python 3.11)."""

    def __init__(self, fn) -> None:
        self.fn, self.name = fn, fn.__name__

    def __get__(self, obj: object, owner: type | None = None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class Node(ci.Cursor):
    """A cursor met as some cursor's child, with its kind and spelling read once: the bindings
    look the kind up anew on every use (a class method and a bounds check), and the walkers ask
    for it millions of times per corpus."""

    @_Once
    def kind(self) -> ci.CursorKind:
        return ci.CursorKind.from_id(self._kind_id)

    @_Once
    def spelling(self) -> str | None:
        get, text, dispose = _spelling_functions()
        s = get(self)
        try:
            value = text(s)
            return None if value is None else value.decode("utf8")
        finally:
            dispose(s)


class _String(ctypes.Structure):
    """libclang's CXString, freed by the caller at once (the bindings' one is freed in ``__del__``,
    a Python-level finaliser per string)."""

    _fields_ = [("data", ctypes.c_void_p), ("flags", ctypes.c_uint)]


@lru_cache(maxsize=1)
def _spelling_functions() -> tuple[object, object, object]:
    # their own function objects (the bindings' ones convert through CXString objects), without
    # argument types: each takes one structure by value
    lib = ci.conf.lib
    get, text, dispose = (lib["clang_getCursorSpelling"], lib["clang_getCString"], lib["clang_disposeString"])
    get.restype, text.restype, dispose.restype = _String, ctypes.c_char_p, None
    return get, text, dispose


def _collect(child: Node, _parent: ci.Cursor, out: list[Node]) -> int:
    out.append(child)
    return 1  # CXChildVisit_Continue


_VISITOR = ctypes.CFUNCTYPE(ctypes.c_int, Node, ci.Cursor, ctypes.py_object)
_COLLECT = _VISITOR(_collect)  # one callback for every visit: making one per call cost a third


@lru_cache(maxsize=1)
def _visit_children() -> object:
    # its own function object (the bindings' one takes their callback type), without argument
    # types, whose checks cost more than the call: child_list passes (cursor, _COLLECT, py_object)
    fn = ci.conf.lib["clang_visitChildren"]
    fn.restype = ctypes.c_uint
    return fn


def child_list(c: ci.Cursor) -> list[Node]:
    """A cursor's children, computed once per cursor object: the walkers ask for the same
    children many times, and each libclang visit costs a ctypes callback per child. The list is
    shared; do not mutate it."""
    kids = getattr(c, "_bc_kids", None)  # not try/except: a raised AttributeError costs 15 times more
    if kids is not None:
        return kids
    out: list[Node] = []
    _visit_children()(c, _COLLECT, ctypes.py_object(out))
    tu = c._tu
    for child in out:
        child._tu = tu
        if child.kind == ci.CursorKind.CALL_EXPR:
            _as_operator(child)
    c._bc_kids = out
    return out


COMPARISONS = frozenset({"<", ">", "<=", ">=", "==", "!=", "&&", "||"})  # tests, and their combinations


def operator_call(call: ci.Cursor) -> str:
    """The operator of an unresolved binary operator call (``a < b`` or ``p + off`` on operands of a
    template's dependent type: to libclang, a call of ``operator<``); "" for any other call."""
    if call.spelling:
        return ""
    kids = child_list(call)
    if len(kids) != 3 or kids[1].kind != ci.CursorKind.DECL_REF_EXPR:
        return ""
    refs = child_list(kids[1])
    name = refs[0].spelling if len(refs) == 1 and refs[0].kind == ci.CursorKind.OVERLOADED_DECL_REF else ""
    return name[len("operator"):] if name and name.startswith("operator") else ""


def _as_operator(call: Node) -> None:
    """An unresolved comparison (:func:`operator_call`) made the binary operator it is, so every
    walker reads it as one. Comparisons and logical operators only: arithmetic on a dependent
    pointer (``p + off``) is read as the call it is where the pointer is resolved."""
    op = operator_call(call)
    if op in COMPARISONS:
        kids = child_list(call)
        call.__dict__["kind"] = ci.CursorKind.BINARY_OPERATOR
        call._bc_binary = op
        call._bc_kids = [kids[0], kids[2]]


@lru_cache(maxsize=1)
def _from_main_file() -> object:
    fn = ci.conf.lib.clang_Location_isFromMainFile
    fn.argtypes, fn.restype = [ci.SourceLocation], ctypes.c_int
    return fn


def in_main_file(c: ci.Cursor) -> bool:
    """Whether ``c`` is declared in the parsed file itself: one libclang call, where asking for
    the location's file name costs a file object and a string per top-level declaration of the
    stub and every header."""
    return bool(_from_main_file()(c.location))

_SCOPES = {ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL}
_FUNCTIONS = (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.FUNCTION_TEMPLATE)


_CLASSES = {ci.CursorKind.STRUCT_DECL, ci.CursorKind.CLASS_DECL, ci.CursorKind.CLASS_TEMPLATE,
            ci.CursorKind.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION}
_METHODS = (ci.CursorKind.CXX_METHOD, ci.CursorKind.FUNCTION_TEMPLATE)


def functions(cursor: ci.Cursor) -> list[ci.Cursor]:
    """The function definitions of the main file, inside namespaces and ``extern "C"`` too, and
    its functors' ``__device__ operator()``: the body a generic kernel of another file runs (as
    apex's ``multi_tensor_apply`` runs its functors). Other methods are helpers of a class."""
    out = []
    for c in child_list(cursor):
        if c.kind in _SCOPES and in_main_file(c):
            out += functions(c)
        elif c.kind in _FUNCTIONS and c.is_definition() and in_main_file(c):
            out.append(c)
        elif c.kind in _CLASSES and in_main_file(c):
            out += [m for m in child_list(c) if m.kind in _METHODS and m.spelling == "operator()"
                    and m.is_definition() and is_device(m)]
    return out


def definitions(cursor: ci.Cursor):
    """The function definitions of the whole translation unit (any file), inside namespaces and
    ``extern "C"`` too."""
    for c in child_list(cursor):
        if c.kind in _SCOPES:
            yield from definitions(c)
        elif c.kind in _FUNCTIONS and c.is_definition():
            yield c


def kernels_elsewhere(cursor: ci.Cursor, names: set[str]) -> dict[str, str]:
    """The files on disk, other than the main file, that define the kernels ``names`` (a header
    the main file includes, whose kernels its host code launches), by kernel name. A name two
    files define is left out: which one a launch reaches is not known."""
    found: dict[str, set[str]] = {}
    for c in definitions(cursor):
        if c.spelling in names and is_kernel(c) and not in_main_file(c):
            path = c.location.file.name if c.location.file is not None else ""
            if os.path.isfile(path) and not path.startswith(MISSING_DIR):
                found.setdefault(c.spelling, set()).add(os.path.realpath(path))
    return {name: next(iter(paths)) for name, paths in found.items() if len(paths) == 1}


def is_kernel(fn: ci.Cursor) -> bool:
    return any(k.kind == ci.CursorKind.CUDAGLOBAL_ATTR for k in child_list(fn))


def is_device(fn: ci.Cursor) -> bool:
    return any(k.kind == ci.CursorKind.CUDADEVICE_ATTR for k in child_list(fn))


def template_params(fn: ci.Cursor) -> list[str]:
    """The names of a function template's non-type parameters (``N`` of ``template <int N>``), in order."""
    return [k.spelling for k in child_list(fn) if k.kind == ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER]


def arguments(call: ci.Cursor) -> list[ci.Cursor]:
    """A call's arguments, as the cursor objects :func:`child_list` gives where they are its last
    children (as in a plain call): what was read of a cursor (children, kind, extent) stays on
    one object instead of being asked of libclang again through a fresh one. Kept on the call;
    do not mutate the list."""
    args = getattr(call, "_bc_args", None)
    if args is not None:
        return args
    args = list(call.get_arguments())
    kids = child_list(call)
    if args and len(args) <= len(kids):
        tail = kids[len(kids) - len(args):]
        if all(k == a for k, a in zip(tail, args)):
            args = tail
    call._bc_args = args
    return args


class Loc(NamedTuple):
    """A source location read once, in one libclang call (the bindings' properties make a file
    object and three integers per location). ``file`` is libclang's handle, None outside any
    file."""

    file: int | None
    line: int
    column: int
    offset: int


@lru_cache(maxsize=1)
def _instantiation() -> object:
    # its own function object, without argument types: ctypes' checks of five arguments cost a
    # third of the call, and _loc passes exactly (location, void**, unsigned*, unsigned*, unsigned*)
    fn = ci.conf.lib["clang_getInstantiationLocation"]
    fn.restype = None
    return fn


def location(at: ci.SourceLocation) -> Loc:
    """Where ``at`` is, a macro's expansion read at the place the macro is used."""
    f, line, col, off = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    _instantiation()(at, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col), ctypes.byref(off))
    return Loc(f.value, line.value, col.value, off.value)


def first(c: ci.Cursor) -> Loc:
    """Where ``c``'s extent starts, kept on the cursor: a fresh location from libclang would
    recompute its file, line, column and offset on every use."""
    loc = getattr(c, "_bc_first", None)
    if loc is None:
        loc = c._bc_first = location(c.extent.start)
    return loc


def last(c: ci.Cursor) -> Loc:
    """Where ``c``'s extent ends (see :func:`first`)."""
    loc = getattr(c, "_bc_last", None)
    if loc is None:
        loc = c._bc_last = location(c.extent.end)
    return loc


def integral_arguments(fn: ci.Cursor) -> dict[int, int]:
    """The integral template arguments of a function specialization as the compiler reads them
    (``k<WKV * 2>`` with ``#define WKV 64``: 128), by position; none for a template itself or a
    plain function."""
    n = fn.get_num_template_arguments() if fn.kind == ci.CursorKind.FUNCTION_DECL else -1
    kind, integral = _argument_kind(), ci.TemplateArgumentKind.INTEGRAL.value
    return {i: fn.get_template_argument_value(i) for i in range(max(n, 0)) if kind(fn, i) == integral}


@lru_cache(maxsize=1)
def _argument_kind() -> object:
    # its own function object returning the raw number: the bindings' one converts it to their
    # enum, which lacks the newer kinds (a pack, a template template argument: ValueError)
    fn = ci.conf.lib["clang_Cursor_getTemplateArgumentKind"]
    fn.argtypes, fn.restype = [ci.Cursor, ctypes.c_uint], ctypes.c_int
    return fn


def literal_arguments(tokens: list[str]) -> dict[int, int]:
    """The template arguments written as one integer literal, by position, from the tokens after a
    ``<`` to its ``>`` (``T, 4>``: ``{1: 4}``)."""
    out: dict[int, int] = {}
    arg: list[str] = []
    level = position = 0
    for t in tokens:
        if level == 0 and t in (",", ">", ">>"):
            if len(arg) == 1 and arg[0].isdigit():
                out[position] = int(arg[0])
            if t != ",":
                break
            arg, position = [], position + 1
            continue
        level += 1 if t in ("<", "(") else -1 if t in (">", ")") else -2 if t == ">>" else 0
        arg.append(t)
    return out


def preorder(c: ci.Cursor):
    """Pre-order traversal over :func:`child_list` (the cursor itself first)."""
    stack = [c]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(child_list(node)))


def binary_op(cursor: ci.Cursor) -> str:
    """The operator, asked of libclang once per cursor (the walkers ask again and again)."""
    op = getattr(cursor, "_bc_binary", None)
    if op is None:
        op = cursor._bc_binary = _BINARY.get(_op_functions()[0](cursor), "?")
    return op


def unary_op(cursor: ci.Cursor) -> str:
    """See :func:`binary_op`."""
    op = getattr(cursor, "_bc_unary", None)
    if op is None:
        op = cursor._bc_unary = _UNARY.get(_op_functions()[1](cursor), "?")
    return op


@contextmanager
def placed_at_call(src: Source, helper: ci.Cursor, call: ci.Cursor) -> Iterator[None]:
    """While ``helper``'s body is walked for ``call``: where it is defined in another file (a
    view's method in a header), what is found in it is placed at the outermost such call."""
    saved = src.stand_in
    if saved is None and src.main_file is not None and first(helper).file != src.main_file:
        src.stand_in = src.span(call)
    try:
        yield
    finally:
        src.stand_in = saved


def deref_operand(c: ci.Cursor) -> ci.Cursor | None:
    """The pointer ``*p`` goes through: a unary ``*``'s operand, also where ``p``'s type depends
    on a template parameter (``*reinterpret_cast<Vec<T, N>*>(&x[i])``) and libclang leaves an
    unnamed call of the overloaded ``operator*``; None for any other expression."""
    kind = ci.CursorKind
    if c.kind == kind.UNARY_OPERATOR:
        kids = child_list(c)
        return kids[0] if kids and unary_op(c) == "*" else None
    if c.kind != kind.CALL_EXPR or c.spelling:
        return None
    kids = child_list(c)
    ops = [k for k in kids if k.kind == kind.DECL_REF_EXPR and not k.spelling
           and any(g.kind == kind.OVERLOADED_DECL_REF and g.spelling == "operator*" for g in child_list(k))]
    return next(k for k in kids if k not in ops) if len(kids) == 2 and len(ops) == 1 else None


def write_target(c: ci.Cursor) -> ci.Cursor | None:
    """The operand ``c`` writes: the left side of an assignment (``=`` or compound), the operand of
    an increment or decrement, or a variable whose address is taken (``read(&n)``)."""
    kind = ci.CursorKind
    if c.kind == kind.BINARY_OPERATOR and binary_op(c) == "=" or c.kind == kind.COMPOUND_ASSIGNMENT_OPERATOR \
            or c.kind == kind.UNARY_OPERATOR and unary_op(c) in ("++", "--", "post++", "post--", "&"):
        kids = child_list(c)
        return kids[0] if kids else None
    return None


class Token(NamedTuple):  # a tuple: made by the thousand, where a frozen dataclass is slow to build
    offset: int
    end: int
    text: str
    line: int
    col: int


def split_groups(toks: list[Token], close: str) -> tuple[list[list[Token]], list[Token]]:
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


# The main file's tokens, lexed here rather than through libclang's ``get_tokens`` (one ctypes
# object per token, a third of the analysis time): comments and whitespace are skipped, and
# literals, identifiers and punctuators come out as clang's raw lexer spells them.
_LEX = re.compile(rb"""
    (?>(?:\s+|\xef\xbb\xbf|\\\n|//[^\n]*|/\*.*?\*/)*)                     # whitespace, BOM, continuations, comments
    (?P<tok>
      (?>[A-Za-z_$][A-Za-z0-9_$]*)(?!["'])                       # identifier (fast path: not a literal's prefix)
    | (?:u8|[uUL])?R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)"    # raw string
    | (?:u8|[uUL])?"(?:\\.|[^"\\\n])*"                         # string
    | (?:u8|[uUL])?'(?:\\.|[^'\\\n])*'                         # character
    | \.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*        # pp-number
    | [A-Za-z_$][A-Za-z0-9_$]*                                    # identifier
    | <<<|>>>|>>=|<<=|\.\.\.|->\*|<=>|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|::|\#\#|\.\*
    | \S)?""", re.VERBOSE | re.DOTALL)


class Source:
    """The main file's text, tokens and offset ↔ (line, column) conversions. Tokens are kept as
    byte spans and made into :class:`Token` objects only when asked for."""

    def __init__(self, path: str, text: str) -> None:
        self.path, self.text = path, text
        self.data = text.encode("utf-8", errors="replace")
        self.line_starts = [0] + [m.end() for m in re.finditer(rb"\n", self.data)]
        spans = [m.span("tok") for m in _LEX.finditer(self.data) if m.start("tok") >= 0]
        self.offsets = [a for a, _ in spans]
        self.ends = [b for _, b in spans]
        self._made: dict[int, Token] = {}
        # the unit's cursor, set by parse: one object per file, so that what is read below it (the
        # children of every declaration) is read once by all the walkers
        self.root: ci.Cursor | None = None
        self.main_file: int | None = None  # libclang's handle of this file, set by parse
        # where a cursor of another file is placed while a method defined there is inlined: the
        # call in this file (its lines and text are not this file's to read)
        self.stand_in: Span | None = None

    def _token(self, i: int) -> Token:
        tok = self._made.get(i)
        if tok is None:
            start, end = self.offsets[i], self.ends[i]
            line = bisect_right(self.line_starts, start)
            tok = self._made[i] = Token(start, end, self.data[start:end].decode("utf-8", errors="replace"),
                                        line, start - self.line_starts[line - 1] + 1)
        return tok

    @cached_property
    def constants(self) -> dict[str, set[int | float | None]]:
        """The values of the main file's constant variables by name (every declaration of a
        name, in any scope), read once per file."""
        out: dict[str, set[int | float | None]] = {}
        if self.root is not None:
            for c in preorder(self.root):
                if c.kind == ci.CursorKind.VAR_DECL and c.type.is_const_qualified() and in_main_file(c):
                    out.setdefault(c.spelling, set()).add(evaluate(c))
        return out

    @cached_property
    def lines(self) -> list[str]:
        """The text's lines (``str.splitlines``), split once per file rather than per kernel."""
        return self.text.splitlines()

    def col(self, line: int, byte_col: int) -> int:
        """0-based code-point column from libclang's 1-based byte column."""
        if line < 1 or line > len(self.line_starts):
            return max(byte_col - 1, 0)
        start = self.line_starts[line - 1]
        return len(self.data[start:start + max(byte_col - 1, 0)].decode("utf-8", errors="replace"))

    def span(self, cursor: ci.Cursor) -> Span:
        s, e = first(cursor), last(cursor)
        if self.stand_in is not None and s.file != self.main_file:
            return self.stand_in
        if s.line <= 0:
            return Span(1, 0, 1, 0)
        end_line, end_col = (e.line, e.column) if e.line >= s.line else (s.line, s.column)
        return Span(s.line, self.col(s.line, s.column), end_line, self.col(end_line, end_col))

    def token_at(self, offset: int) -> Token | None:
        i = bisect_left(self.offsets, offset)
        return self._token(i) if i < len(self.offsets) and self.offsets[i] == offset else None

    def tokens_between(self, start: int, end: int) -> list[Token]:
        return [self._token(i) for i in range(bisect_left(self.offsets, start), bisect_left(self.offsets, end))]

    def token_span(self, tok: Token) -> Span:
        return Span(tok.line, self.col(tok.line, tok.col), tok.line,
                    self.col(tok.line, tok.col + len(tok.text.encode())))

    def text_of(self, cursor: ci.Cursor) -> str:
        start = first(cursor)
        a, b = start.offset, last(cursor).offset
        if start.file is None or b <= a or self.main_file is not None and start.file != self.main_file:
            return ""
        return self.data[a:b].decode("utf-8", errors="replace")


def _flags_from_compile_commands(path: str) -> list[str]:
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        db = os.path.join(directory, "compile_commands.json")
        if os.path.isfile(db):
            return _flags_for(db, os.path.abspath(path))
        parent = os.path.dirname(directory)
        if parent == directory:
            return []
        directory = parent


@lru_cache(maxsize=32)
def _load_db(db: str) -> list[dict]:
    try:
        with open(db, encoding="utf-8") as f:
            data = json.load(f)
        return data if isinstance(data, list) else []
    except (OSError, ValueError):
        return []


def _flags_for(db: str, path: str) -> list[str]:
    for entry in _load_db(db):
        if not isinstance(entry, dict):
            continue
        directory = str(entry.get("directory", os.path.dirname(db)))
        file = os.path.normpath(os.path.join(directory, str(entry.get("file", ""))))
        if file != path:
            continue
        args = entry.get("arguments")
        if not isinstance(args, list):
            try:
                args = shlex.split(str(entry.get("command", "")))
            except ValueError:
                return []
        return _wanted_flags([str(a) for a in args], directory)
    return []


def _wanted_flags(args: list[str], directory: str) -> list[str]:
    """Only -D/-U/-I/-std: the rest of a compiler command line is nvcc's, not libclang's."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("-D", "-U", "-I") and i + 1 < len(args):
            a, i = a + args[i + 1], i + 1
        if a.startswith("-I"):
            out.append("-I" + os.path.join(directory, a[2:]))
        elif a.startswith(("-D", "-U")) or (a.startswith("-std=") and "c++" in a):
            out.append(a)
        i += 1
    return out


def _known_header(include: str) -> str:
    """What answers a missing include: declarations for PyTorch's, CUB's and GLM's, a known header
    of the CUDA samples by name, else nothing."""
    return torch_header(include) or cub_header(include) or glm_header(include) \
        or KNOWN_HEADERS.get(os.path.basename(include), "")


def _include_dirs(args: list[str]) -> list[str]:
    return [a[2:] for a in args if a.startswith("-I") and len(a) > 2]


def _missing_includes(path: str, source: str, dirs: list[str]) -> tuple[set[str], list[str]]:
    """Includes that no -I directory (or, for quotes, the including file's own) can answer, and
    the project directories that answer the rest (see :func:`_project_dir`). Headers that are
    found are scanned in turn (text only, up to ``MAX_SCANNED`` of them), so that their missing
    includes get empty headers before the first parse instead of one re-parse each."""
    missing: set[str] = set()
    found: list[str] = []
    origin = os.path.dirname(os.path.abspath(path))
    queue, seen = [(origin, source)], set()
    while queue:
        here, text = queue.pop()
        for quote, name in _INCLUDE.findall(text):
            search = ([here] if quote == '"' else []) + dirs + found
            hit = next((os.path.join(d, name) for d in search if os.path.isfile(os.path.join(d, name))), None)
            if hit is None and quote == '"' and here != origin and os.path.isfile(os.path.join(origin, name)):
                # a header that includes a sibling of the file being checked (`common/helper.hpp`
                # including `"cuda_helper.hpp"` from `common/cuda/`): the build's `-I` of the
                # source directory answers it
                found.append(origin)
                hit = os.path.join(origin, name)
            if hit is None and quote == "<" and (d := next((d for d in (here, origin)
                                                            if os.path.isfile(os.path.join(d, name))), None)):
                # a project header written in angle brackets (`#include <ops.cuh>` beside the
                # file): only the build's `-I` of that directory answers it
                found.append(d)
                hit = os.path.join(d, name)
            if hit is None and quote == '"' and (d := _project_dir(here, name)) is not None:
                found.append(d)
                hit = os.path.join(d, name)
            if hit is None:
                missing.add(name)
                continue
            hit = os.path.normpath(hit)
            if hit not in seen and len(seen) < MAX_SCANNED:
                seen.add(hit)
                try:
                    with open(hit, encoding="utf-8", errors="replace") as f:
                        queue.append((os.path.dirname(hit), f.read()))
                except OSError:
                    pass
    return missing, found


def _project_dir(here: str, name: str) -> str | None:
    """Where a project's build would find a quoted include (its ``-I`` flags are unknown to us):
    the nearest ancestor (up to three levels) that holds ``name`` itself or in exactly one of
    its direct subdirectories; past those, an ancestor that holds ``name`` itself (a path from
    the repository's root, ``"src/turbomind/kernels/core/meta.h"``, a few levels down); else the
    one directory of the tree four levels up that holds it (a module's ``-I`` of a sibling
    module's sources: ``sensors/…/camera_kernel.cuh`` including ``"pose.cuh"`` of
    ``geometry/kernels/cuda/csrc``)."""
    d, top = here, None
    for level in range(3 + _ROOT_LEVELS):
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
        if os.path.isfile(os.path.join(d, name)):
            return d
        top = d if level <= 3 else top
        if level >= 3:
            continue
        hits = [s for s in _subdirs(d) if os.path.isfile(os.path.join(s, name))]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return None
    return _only_holder(top, name) if top is not None else None


def _only_holder(top: str, name: str) -> str | None:
    """The one include directory under ``top`` from which ``name`` (``pose.cuh``, ``a/b.h``) is
    a file; None where none or several are, or the tree is too large to index."""
    index = _files_under(top)
    if index is None:
        return None
    parent = os.path.dirname(name)
    dirs = [d[: len(d) - len(parent)].rstrip(os.sep) if parent else d
            for d in index.get(os.path.basename(name), ()) if not parent or d.endswith(os.sep + parent)]
    dirs = [d for d in dirs if os.path.isfile(os.path.join(d, name))]
    return dirs[0] if len(dirs) == 1 else None


_INDEXED_FILES = 20000  # a tree with more files is not indexed (a monorepo's root)


@lru_cache(maxsize=8)
def _files_under(top: str) -> dict[str, tuple[str, ...]] | None:
    """The directories under ``top`` that hold each file name."""
    out: dict[str, list[str]] = {}
    count = 0
    for d, subdirs, files in os.walk(top):
        subdirs[:] = [s for s in subdirs if not s.startswith(".")]
        count += len(files)
        if count > _INDEXED_FILES:
            return None
        for f in files:
            out.setdefault(f, []).append(d)
    return {k: tuple(v) for k, v in out.items()}


def _subdirs(d: str) -> tuple[str, ...]:
    try:
        return tuple(e.path for e in os.scandir(d) if e.is_dir() and not e.name.startswith("."))
    except OSError:
        return ()


@dataclass
class Parsed:
    tu: ci.TranslationUnit
    source: Source
    diagnostics: list[tuple[int, int, int, str]]  # severity, line, column, text (main file)
    assumed: frozenset[str] = frozenset()  # build-time macros given placeholder values (_build_macros)


@lru_cache(maxsize=8)
def _stub_pch(user: tuple[str, ...]) -> str | None:
    """The stub header precompiled once per process (and per set of user flags, which it must
    be built with): parsing its text again for every file was half of a small file's parse.
    None where it cannot be built; the caller then includes the text."""
    directory = tempfile.mkdtemp(prefix="boundcheck-")
    # removed when this process ends, a pool worker too (whose exit skips atexit); a finaliser
    # runs only in the process that made it, so a forked worker never removes its parent's
    multiprocessing.util.Finalize(None, shutil.rmtree, args=(directory, True), exitpriority=0)
    pch = os.path.join(directory, "cuda_stub.pch")
    try:
        tu = _index().parse(STUB_NAME, args=[*BASE_ARGS, *user], unsaved_files=[(STUB_NAME, STUB_HEADER)],
                            options=ci.TranslationUnit.PARSE_INCOMPLETE)
        if any(d.severity >= ci.Diagnostic.Error for d in tu.diagnostics):
            return None
        tu.save(pch)
    except (ci.TranslationUnitLoadError, ci.TranslationUnitSaveError):
        return None
    return pch


def _stub_args(user: list[str]) -> list[str]:
    pch = _stub_pch(tuple(user))
    return ["-include-pch", pch] if pch is not None and os.path.isfile(pch) else ["-include", STUB_NAME]


def parse(path: str, text: str, cuda_args: list[str]) -> Parsed:
    """Parse with empty headers for every include that cannot be found (re-parsing as clang
    reports more of them, behind headers that were found)."""
    user = [a for a in [*_flags_from_compile_commands(path), *cuda_args] if isinstance(a, str)]
    missing, project = _missing_includes(path, text, _include_dirs(user))
    args = [*BASE_ARGS, *_stub_args(user), *user, *("-I" + d for d in project), "-I" + MISSING_DIR]
    tu = None
    parsed_text = _LATE_ALIGNAS.sub(r"\3\2\1", text) if "alignas" in text else text
    for _ in range(MAX_REPARSES):
        unsaved = [(STUB_NAME, STUB_HEADER), (path, parsed_text)]
        unsaved += [(os.path.join(MISSING_DIR, m), _known_header(m)) for m in sorted(missing)]
        tu = _index().parse(path, args=args, unsaved_files=unsaved,
                            options=ci.TranslationUnit.PARSE_INCOMPLETE)
        more = {m.group(1) for d in tu.diagnostics if (m := _NOT_FOUND.search(d.spelling))} - missing
        if not more and "cub/cub.cuh" not in missing and any(d.spelling == _NO_CUB for d in tu.diagnostics):
            # a header that uses CUB and leaves its include to the file that includes it (flashinfer's
            # topk.cuh): nothing declares `cub`, so CUB's stub is included as the includer would
            more = {"cub/cub.cuh"}
            args = [*args, "-include", os.path.join(MISSING_DIR, "cub/cub.cuh")]
        if not more:
            break
        missing |= more
    assert tu is not None
    assumed: list[str] = []
    for _ in range(MAX_REPARSES):
        # a build-time macro hides the next behind the declaration it broke (`float s[_N_], t[_T_]`)
        more = [n for n in _build_macros(tu, path, text) if n not in assumed]
        if not more:
            break
        assumed += more
        # distinct multiples of 1024: array sizes, template arguments and `case` labels stay valid
        defines = [f"-D{name}={1024 * (i + 1)}" for i, name in enumerate(assumed)]
        tu = _index().parse(path, args=[*args, *defines], unsaved_files=unsaved,
                            options=ci.TranslationUnit.PARSE_INCOMPLETE)
    diags = []
    for d in tu.diagnostics:
        loc = d.location
        if d.severity >= ci.Diagnostic.Error and loc.file is not None and loc.file.name == path:
            diags.append((d.severity, loc.line, loc.column, d.spelling))
    source = Source(path, text)
    source.root = tu.cursor
    source.main_file = first(tu.cursor).file
    if assumed:
        words = "|".join(re.escape(n) for n in assumed)
        tu._bc_placeholders = (source.main_file, source.data, re.compile(rf"\b(?:{words})\b".encode()))
    return Parsed(tu, source, diags, frozenset(assumed))


_UNDECLARED = re.compile(r"^use of undeclared identifier '([A-Za-z_]\w*)'$")


def _build_macros(tu: ci.TranslationUnit, path: str, text: str) -> list[str]:
    """Names that the file uses only as values and nothing declares: constants its build defines
    (``extra_cuda_cflags=[f"-D_N_={head_size}", "-DTmax=1024"]``). Their values are unknown; the
    parse gives each a placeholder, and the frontend reads them as named constants. A name that is
    called, indexed, qualified or a member (a helper of a missing header) is none."""
    lines: dict[str, list[int]] = {}
    for d in tu.diagnostics:  # the message first: a location costs libclang a file object and a string
        if (m := _UNDECLARED.match(d.spelling)) and d.severity >= ci.Diagnostic.Error \
                and (at := d.location).file is not None and at.file.name == path:
            lines.setdefault(m.group(1), []).append(at.line)
    if not lines:
        return []
    # only what device code or a function that launches reads is worth a second parse
    # (`EXIT_WAIVED` of a sample's main is not)
    launches = [n for n, row in enumerate(text.splitlines(), 1) if "<<<" in row]
    spans = [(a, b) for fn in functions(tu.cursor) for a, b in [(first(fn).line, last(fn).line)]
             if is_kernel(fn) or is_device(fn) or any(a <= n <= b for n in launches)]
    spans += [(n, n) for n in launches]
    code = _NOT_CODE.sub("", text)
    return sorted(n for n, at in lines.items() if any(a <= line <= b for line in at for a, b in spans)
                  and _value_only(n, code))


_VALUE_KEYWORDS = frozenset({"return", "case", "sizeof", "else", "do", "throw", "co_return", "co_yield"})
# directives, comments and string literals
_NOT_CODE = re.compile(r'^[ \t]*#[^\n]*|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.MULTILINE | re.DOTALL)
# called (a template too: `f<float>()`, `Int<8>{}`), indexed, qualified, a member, assigned, or a type
# declaring a name (`cudaTextureDesc tex;`)
_USE_AFTER = re.compile(r"\s*(?:\(|\[|::|\.|->|=(?!=)|<[^<>;()]*>\s*[({])|\s+[A-Za-z_]")
_USE_BEFORE = re.compile(r"(\w+|\.|->|::)\s*$")  # a member, qualified, or written after a type name


def _value_only(name: str, code: str) -> bool:
    """Whether every use of ``name`` in ``code`` (directives, comments and strings removed) reads
    it as a value: never called, indexed, qualified, a member, assigned, a type declaring a name,
    or written after a type name (a declaration that failed: ``cudaStream_t stream``)."""
    found = False
    for m in re.finditer(rf"\b{re.escape(name)}\b", code):
        found = True
        if _USE_AFTER.match(code, m.end()):
            return False
        before = _USE_BEFORE.search(code, max(0, m.start() - 64), m.start())
        if before is not None and before.group(1) not in _VALUE_KEYWORDS:
            return False
    return found
