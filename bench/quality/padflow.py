"""Where the padding of one masked Triton load ends up, judged independently of boundcheck.

A padding mutant is a real bug only if the padded lanes reach a reduction along the padded axis
with a value that is not that reduction's identity, where the original padding was. So the value
of the padded lanes is followed through the kernel's statements in source order: through
elementwise arithmetic (``-inf + x`` stays ``-inf``, ``exp(-inf)`` is ``0``, ``0 * x`` is ``0``),
through ``[:, None]`` reshapes, through ``tl.dot`` (which reduces one axis and keeps the other),
and into reductions, where each arrival is recorded. A ``tl.where`` whose condition shares a name
with the load's mask re-pads the lanes (the flow ends); anything this module cannot follow makes
the value unknown (``?``), and a verdict that depends on it is "cannot tell".

Padding is tracked per axis: ``axes[a]`` is the value of lanes padded along axis ``a`` in
otherwise valid positions, the only lanes a reduction along ``a`` mixes into valid results.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import libcst as cst

UNKNOWN = "?"
AUG = {cst.AddAssign: cst.Add(), cst.SubtractAssign: cst.Subtract(), cst.MultiplyAssign: cst.Multiply(),
       cst.DivideAssign: cst.Divide()}
FINITE = "x"  # a valid (unpadded, finite) lane of the other operand
FINITE_CONSTANT = "c"  # a padding constant other than 0 and 1: the identity of no reduction
IDENTITY = {"sum": "0", "cumsum": "0", "xor_sum": "0", "dot": "0", "dot_scaled": "0",
            "max": "-inf", "argmax": "-inf", "cummax": "-inf", "softmax": "-inf", "log_softmax": "-inf",
            "logsumexp": "-inf", "min": "+inf", "argmin": "+inf", "cummin": "+inf",
            "prod": "1", "cumprod": "1"}
SHAPE_KEEPING = {"cumsum", "cumprod", "cummax", "cummin", "softmax", "log_softmax"}
# a forward scan's padded lanes past every valid one: an infinity absorbs the valid total (and a
# product's zero), anything else mixes with it
SCANS = {"cumsum": lambda v: v if v in ("-inf", "+inf") else UNKNOWN,
         "cumprod": lambda v: v if v == "0" else UNKNOWN,
         "cummax": lambda v: v if v == "+inf" else UNKNOWN,
         "cummin": lambda v: v if v == "-inf" else UNKNOWN}
EXP = {"exp", "exp2", "fast_expf", "fast_exp2f"}
LOG = {"log", "log2", "fast_logf", "fast_log2f"}
CASTS = {"to", "cast"}
LAYOUT = {"trans", "permute", "reshape", "view", "broadcast_to", "expand_dims", "ravel", "flatten", "join",
          "split", "interleave"}


def negate(v: str) -> str:
    return {"-inf": "+inf", "+inf": "-inf", "0": "0"}.get(v, UNKNOWN)


def add(a: str, b: str) -> str:
    if UNKNOWN in (a, b):
        return UNKNOWN
    infs = {a, b} & {"-inf", "+inf"}
    if len(infs) == 2:
        return UNKNOWN  # -inf + inf is NaN
    if infs:
        return infs.pop()
    if a == "0":
        return b if b != FINITE else UNKNOWN
    if b == "0":
        return a if a != FINITE else UNKNOWN
    return UNKNOWN


def mul(a: str, b: str) -> str:
    """Scale factors are taken to be positive (softmax scales, 1/N): ``-inf * scale`` is ``-inf``."""
    if UNKNOWN in (a, b):
        return UNKNOWN
    if "0" in (a, b):
        return UNKNOWN if {a, b} & {"-inf", "+inf"} else "0"
    if a in ("-inf", "+inf") and b in ("-inf", "+inf"):
        return "+inf" if a == b else "-inf"
    if a in ("-inf", "+inf"):
        return a
    if b in ("-inf", "+inf"):
        return b
    if a == "1":
        return b if b != FINITE else UNKNOWN
    if b == "1":
        return a if a != FINITE else UNKNOWN
    return UNKNOWN


def div(a: str, b: str) -> str:
    if UNKNOWN in (a, b) or b == "0":
        return UNKNOWN
    if b in ("-inf", "+inf"):
        return UNKNOWN if a in ("-inf", "+inf") else "0"
    return mul(a, "1" if b in ("1", FINITE) else UNKNOWN) if a != FINITE else UNKNOWN


def unary(name: str, v: str) -> str:
    if name in EXP:
        return {"-inf": "0", "0": "1", "+inf": "+inf"}.get(v, UNKNOWN)
    if name in LOG:
        return {"0": "-inf", "1": "0", "+inf": "+inf"}.get(v, UNKNOWN)
    if name == "abs":
        return {"-inf": "+inf", "+inf": "+inf", "0": "0"}.get(v, UNKNOWN)
    if name in ("sigmoid",):
        return {"-inf": "0", "+inf": "1"}.get(v, UNKNOWN)
    if name in ("sqrt", "sqrt_rn"):
        return {"0": "0", "+inf": "+inf"}.get(v, UNKNOWN)
    return UNKNOWN


@dataclass(frozen=True)
class Pad:
    """A tensor carrying padded lanes: padding value per padded axis; ``axes is None``: layout lost."""

    axes: dict[int, str] | None
    ndim: int | None

    def values(self, f) -> Pad:  # noqa: ANN001 - a str -> str function
        return Pad(None if self.axes is None else {a: f(v) for a, v in self.axes.items()}, self.ndim)


LOST = Pad(None, None)


@dataclass
class Arrival:
    reduction: str
    line: int
    value: str  # the padding value the reduction sees along the padded axis; UNKNOWN: not known


@dataclass
class Flow:
    """Follow the padding of ``site`` (a ``tl.load`` call) as ``value`` through ``statements``."""

    site: cst.Call
    statements: list[cst.CSTNode]
    line_of: dict[int, int]  # id(statement) -> line
    mask_names: set[str]
    tail: bool = False  # the mask pads only lanes past every valid one (``offs < n``): a forward scan keeps them last
    env: dict[str, Pad] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)  # unpadded names of known value: tl.zeros
    arrivals: list[Arrival] = field(default_factory=list)

    def run(self, start: Pad) -> list[Arrival]:
        self.start_pad = start
        for stmt in self.statements:
            self.line = self.line_of[id(stmt)]
            self.statement(stmt)
        return self.arrivals

    def statement(self, stmt: cst.CSTNode) -> None:
        if isinstance(stmt, cst.Assign):
            value = self.expr(stmt.value)
            for t in stmt.targets:
                self.bind(t.target, value)
                if isinstance(t.target, cst.Name):
                    self.constants.pop(t.target.value, None)
                    if value is None and self.constant(stmt.value) != FINITE:
                        self.constants[t.target.value] = self.constant(stmt.value)
        elif isinstance(stmt, cst.AnnAssign) and stmt.value is not None:
            self.bind(stmt.target, self.expr(stmt.value))
        elif isinstance(stmt, cst.AugAssign):
            op = AUG.get(type(stmt.operator), cst.BitOr())
            self.bind(stmt.target, self.binary(op, self.expr(stmt.target), self.expr(stmt.value),
                                               self.constant(stmt.target), self.constant(stmt.value)))
            if isinstance(stmt.target, cst.Name) and stmt.target.value in self.env:
                self.constants.pop(stmt.target.value, None)
        elif isinstance(stmt, (cst.Expr, cst.Return)) and stmt.value is not None:
            self.expr(stmt.value)

    def bind(self, target: cst.BaseExpression, value: Pad | None) -> None:
        if isinstance(target, cst.Name):
            if value is None:
                self.env.pop(target.value, None)
            else:
                self.env[target.value] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self.bind(el.value, None if value is None else LOST)

    # -- expressions ------------------------------------------------------------------------------

    def expr(self, node: cst.BaseExpression) -> Pad | None:
        if node is self.site:
            return self.start_pad
        if isinstance(node, cst.Name):
            return self.env.get(node.value)
        if isinstance(node, cst.Attribute):
            base = self.expr(node.value)
            if base is not None and node.attr.value == "T":
                return transpose(base)
            return None if base is None else LOST
        if isinstance(node, cst.Subscript):
            return self.subscript(node)
        if isinstance(node, cst.BinaryOperation):
            return self.binary(node.operator, self.expr(node.left), self.expr(node.right),
                               self.constant(node.left), self.constant(node.right))
        if isinstance(node, cst.UnaryOperation):
            v = self.expr(node.expression)
            if v is None:
                return None
            return v.values(negate) if isinstance(node.operator, cst.Minus) else v.values(lambda _: UNKNOWN)
        if isinstance(node, cst.Comparison):
            parts = [self.expr(node.left)] + [self.expr(c.comparator) for c in node.comparisons]
            tainted = [p for p in parts if p is not None]
            return tainted[0].values(lambda _: UNKNOWN) if tainted else None
        if isinstance(node, cst.Call):
            return self.call(node)
        if isinstance(node, (cst.IfExp, cst.Tuple, cst.List, cst.BooleanOperation)):
            children = [self.expr(c) for c in node.children if isinstance(c, cst.BaseExpression)]
            if isinstance(node, (cst.Tuple, cst.List)):
                children = [self.expr(e.value) for e in node.elements]
            return LOST if any(c is not None for c in children) else None
        return None

    def subscript(self, node: cst.Subscript) -> Pad | None:
        base = self.expr(node.value)
        if base is None:
            return None
        if base.axes is None or base.ndim is None:
            return LOST
        axes: dict[int, str] = {}
        old = new = 0
        for el in node.slice:
            s = el.slice
            if isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None:
                if old in base.axes:
                    axes[new] = base.axes[old]
                old, new = old + 1, new + 1
            elif isinstance(s, cst.Index) and isinstance(s.value, cst.Name) and s.value.value == "None":
                new += 1
            else:
                return LOST
        if old != base.ndim:
            return LOST
        return Pad(axes, new) if axes else None

    def constant(self, node: cst.BaseExpression) -> str:
        """The value of every lane of an unpadded operand where known (``tl.zeros``, ``0.0``)."""
        if isinstance(node, cst.Name):
            return self.constants.get(node.value, FINITE)
        if isinstance(node, (cst.Integer, cst.Float)):
            return {"0": "0", "1": "1"}.get(str(literal(node.value)), FINITE)
        if isinstance(node, cst.Call):
            name = dotted(node.func).split(".")[-1]
            if name in ("zeros", "zeros_like"):
                return "0"
            if name == "full" and len(node.args) > 1 and isinstance(node.args[1].value, (cst.Integer, cst.Float)):
                return self.constant(node.args[1].value)
        return FINITE

    def binary(self, op: cst.BaseBinaryOp, left: Pad | None, right: Pad | None,
               left_constant: str = FINITE, right_constant: str = FINITE) -> Pad | None:
        if left is None and right is None:
            return None
        if (left is not None and left.axes is None) or (right is not None and right.axes is None):
            return LOST
        la = left.axes if left is not None else {}
        ra = right.axes if right is not None else {}
        ndim = max((p.ndim or 0) for p in (left, right) if p is not None)
        out: dict[int, str] = {}
        for axis in set(la) | set(ra):
            a, b = la.get(axis, left_constant), ra.get(axis, right_constant)
            if isinstance(op, cst.Add):
                out[axis] = add(a, b)
            elif isinstance(op, cst.Subtract):
                out[axis] = add(a, negate(b) if b != FINITE else FINITE)
            elif isinstance(op, cst.Multiply):
                out[axis] = mul(a, b)
            elif isinstance(op, cst.Divide):
                out[axis] = div(a, b)
            else:
                out[axis] = UNKNOWN
        return Pad(out, ndim or None)

    def call(self, node: cst.Call) -> Pad | None:
        name = dotted(node.func).split(".")[-1]
        receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
        rx = self.expr(receiver) if receiver is not None and not is_module(receiver) else None
        args = [self.expr(a.value) for a in node.args]
        if name in CASTS:
            return rx if rx is not None else args[0] if args else None
        if name == "where":
            cond = node.args[0].value if node.args else None
            tainted = [a for a in args[1:] if a is not None]
            if not tainted:
                return None
            if cond is not None and names_in(cond) & self.mask_names:
                return None  # re-padded by the same bound
            return LOST
        if name == "dot" or name == "dot_scaled":
            return self.dot(node, args)
        if name in IDENTITY:
            operand = rx if rx is not None else args[0] if args else None
            return self.reduce(node, name, operand)
        if name in ("maximum", "minimum") and len(args) >= 2:
            if all(a is None for a in args[:2]):
                return None
            first, second = args[0], args[1]
            if any(a is not None and a.axes is None for a in (first, second)):
                return LOST
            fa = first.axes if first is not None else {}
            sa = second.axes if second is not None else {}
            out = {}
            for axis in set(fa) | set(sa):
                a, b = fa.get(axis, FINITE), sa.get(axis, FINITE)
                keep = "+inf" if name == "maximum" else "-inf"
                drop = "-inf" if name == "maximum" else "+inf"
                out[axis] = keep if keep in (a, b) else (b if a == drop else a if b == drop else UNKNOWN)
                out[axis] = UNKNOWN if out[axis] == FINITE else out[axis]
            ndim = max((p.ndim or 0) for p in (first, second) if p is not None)
            return Pad(out, ndim or None)
        tainted = [a for a in [rx, *args] if a is not None]
        if not tainted:
            return None
        if len(tainted) == 1 and name not in LAYOUT and (name in EXP | LOG or name in ("abs", "sigmoid", "sqrt")):
            return tainted[0].values(lambda v: unary(name, v))
        if name == "trans" and len(tainted) == 1 and len(node.args) <= 1:
            return transpose(tainted[0])
        return LOST

    def reduce(self, node: cst.Call, name: str, operand: Pad | None) -> Pad | None:
        if operand is None:
            return None
        if operand.axes is None or operand.ndim is None:
            self.arrivals.append(Arrival(name, self.line, UNKNOWN))
            return LOST
        axis = reduction_axis(node, operand.ndim)
        if axis == "unknown":
            self.arrivals.append(Arrival(name, self.line, UNKNOWN))
            return LOST
        reduced = set(operand.axes) if axis is None else {axis} & set(operand.axes)
        if name in SCANS and self.tail and axis is not None and not _reversed(node):
            # a forward scan: each valid lane sums lanes before it only, none of them padded; the
            # padded lanes hold what the scan makes of the padding
            kept = dict(operand.axes)
            for a in reduced:
                kept[a] = SCANS[name](kept[a])
            return Pad(kept, operand.ndim)
        for a in sorted(reduced):
            self.arrivals.append(Arrival(name, self.line, operand.axes[a]))
        if axis is None:
            return None
        if name in SHAPE_KEEPING:
            kept = dict(operand.axes)
            for a in reduced:
                kept[a] = UNKNOWN
            return Pad(kept, operand.ndim)
        rest = {(a if a < axis else a - 1): v for a, v in operand.axes.items() if a != axis}
        return Pad(rest, operand.ndim - 1) if rest else None

    def dot(self, node: cst.Call, args: list[Pad | None]) -> Pad | None:
        a, b = (args + [None, None])[:2]
        acc = args[2] if len(args) > 2 else None
        if all(x is None for x in (a, b, acc)):
            return None
        if any(x is not None and (x.axes is None or x.ndim != 2) for x in (a, b)):
            self.arrivals.append(Arrival("dot", self.line, UNKNOWN))
            return LOST
        out: dict[int, str] = {}
        if a is not None:
            if 1 in a.axes:
                self.arrivals.append(Arrival("dot", self.line, a.axes[1]))
            if 0 in a.axes:
                out[0] = "0" if a.axes[0] == "0" else UNKNOWN  # a padded row times any column
        if b is not None:
            if 0 in b.axes:
                self.arrivals.append(Arrival("dot", self.line, b.axes[0]))
            if 1 in b.axes:
                out[1] = "0" if b.axes[1] == "0" else UNKNOWN
        result = Pad(out, 2) if out else None
        return self.binary(cst.Add(), result, acc) if acc is not None else result


def _reversed(node: cst.Call) -> bool:
    """A scan's ``reverse=`` (or third positional argument) is given and not literally False."""
    flag = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "reverse"), None)
    positional = [a for a in node.args if a.keyword is None]
    method = isinstance(node.func, cst.Attribute) and not is_module(node.func.value)  # x.cumsum(axis, reverse)
    at = 1 if method else 2
    flag = flag if flag is not None else positional[at].value if len(positional) > at else None
    return flag is not None and not (isinstance(flag, cst.Name) and flag.value == "False")


def literal(text: str) -> int | float | None:
    """The number a literal spells, as int when whole (``0.0`` -> 0)."""
    try:
        v = float(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError):
        return None
    return int(v) if v.is_integer() else v


def transpose(p: Pad) -> Pad:
    if p.axes is None or p.ndim != 2:
        return LOST
    return Pad({1 - a: v for a, v in p.axes.items()}, 2)


def reduction_axis(node: cst.Call, ndim: int) -> int | None | str:
    """The reduced axis (None: all of them; ``"unknown"``: not a literal)."""
    arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == "axis"), None)
    if arg is None:
        positional = [a for a in node.args if a.keyword is None]
        arg = positional[1] if len(positional) > 1 else None
    if arg is None:
        return None if ndim != 1 else 0
    v = arg.value
    if isinstance(v, cst.Name) and v.value == "None":
        return None
    sign = 1
    if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
        sign, v = -1, v.expression
    if not isinstance(v, cst.Integer):
        return "unknown"
    axis = sign * int(v.value)
    return axis + ndim if axis < 0 else axis


def dotted(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else node.attr.value
    return ""


def is_module(node: cst.CSTNode) -> bool:
    """``tl``, ``tl.math``, ``libdevice``: a module, not a tensor receiver."""
    return dotted(node).split(".")[0] in {"tl", "triton", "libdevice", "math", "torch", "np", "tldevice"}


def names_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class _V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    node.visit(_V())
    return found


@dataclass
class Verdict:
    """``bug``: some reduction along a padded axis saw the identity before and not after."""

    bug: bool
    reason: str


def judge(old: list[Arrival], new: list[Arrival]) -> Verdict:
    if not new:
        return Verdict(False, "not a bug: the padding reaches no reduction along a padded axis")
    unknown = None
    for o, n in zip(old, new):
        identity = IDENTITY[n.reduction]
        if n.value == identity:
            continue
        if n.value == UNKNOWN or o.value == UNKNOWN:
            unknown = unknown or f"cannot tell: the padding's value at the {n.reduction} is not known"
            continue
        if o.value == identity:
            return Verdict(True, f"the {n.reduction} (line {n.line}) sees {n.value} instead of its identity {identity}")
    if unknown:
        return Verdict(False, unknown)
    return Verdict(False, "not a bug: the new padding is the identity of every reduction it reaches"
                          " along a padded axis (or the original was no identity there either)")
