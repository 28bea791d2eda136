"""Mutation operators for Triton kernels, on the libcst tree so every mutant parses.

Each operator seeds one boundary bug of the kind a rule exists for, only inside ``@jit``
functions (and, for grids, in the host code that launches them). A site an operator recognises
but cannot change cleanly is skipped and counted, never approximated.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from bench.quality import padflow
from bench.quality.divisible import stated_multiple
from bench.quality.linear import Form, linear
from bench.quality.mutant import Mutant, Mutations, splice
from bench.quality.pow2 import pow2_divides

ACCESS_READ = {"load"}
ACCESS_WRITE = {"store", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
                "atomic_xor", "atomic_xchg", "atomic_cas"}
RANGE_CALLS = {"range", "tl.range", "tl.static_range", "triton.language.range"}
ATOMIC_ARG = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Subscript, cst.Call)


def dotted(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


def names_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class _V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            n.value.visit(self)
            return False

    node.visit(_V())
    return found


def is_neg_inf(node: cst.BaseExpression) -> bool:
    code = cst.Module([]).code_for_node(node.with_changes(lpar=[], rpar=[]))
    code = code.replace(" ", "").replace("'", '"')
    return code in {'float("-inf")', '-float("inf")', "-math.inf", "-float(math.inf)", "-np.inf",
                    "-inf", "-INF", "-torch.inf", "-tl.inf"}


def pad_value(node: cst.BaseExpression) -> str:
    """The padding an ``other=`` value stands for, in ``padflow``'s terms."""
    if is_neg_inf(node):
        return "-inf"
    text = code(node.with_changes(lpar=[], rpar=[])).replace(" ", "").replace("'", '"')
    if text in {'float("inf")', "math.inf", "float(math.inf)", "np.inf", "inf", "torch.inf"}:
        return "+inf"
    if isinstance(node, (cst.Integer, cst.Float)):
        number = ast.literal_eval(node.value)
        return "0" if number == 0 else "1" if number == 1 else padflow.FINITE_CONSTANT
    return padflow.UNKNOWN


def kwarg(call: cst.Call, name: str) -> cst.Arg | None:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def without_args(call: cst.Call, names: set[str]) -> cst.Call:
    args = [a for a in call.args if not (a.keyword is not None and a.keyword.value in names)]
    if args and len(args) < len(call.args) and call.args[-1] not in args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return call.with_changes(args=args)


def literal_zero(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.Integer, cst.Float)) and ast.literal_eval(node.value) == 0


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def operand(node: cst.BaseExpression) -> str:
    text = code(node)
    return text if isinstance(node, ATOMIC_ARG) or node.lpar else f"({text})"


# the skip reason of a mask on ``arange(0, B) < C`` with C compile-time (``tile_fits``)
WHOLE_TILE = "cannot tell: a whole tile arange(0, B) against a compile-time bound (no tail when B equals it)"
# the skip reason of a loop over the tiles below the program's own, which an early exit keeps inside
BELOW_EXIT = "not a bug: the loop walks only tiles below the program's own, which an early exit keeps inside the extent"


# the skip reason of ``o_k < T`` in a loop over the key tiles before the program's own query tile
BELOW_OWN_TILE = ("not a bug: the loop walks only tiles below the program's own tile of the same extent"
                  " (range(0, i_t * BT, BS) with BT % BS == 0 stated, or BS and BT only ever powers of two with"
                  " BS no larger than BT, or down from i_t * BT - BS), all in bounds wherever that tile starts"
                  " inside the extent, as every tile of a cdiv grid does")


# the skip reason of a mask on a tile every launch makes one lane wide (``BLOCK=1``)
ONE_LANE = ("not a bug: the masked lanes are a tile every launch in the file makes one lane wide (B=1), so a"
            " cdiv grid keeps each program's one lane inside the extent")


# the skip reason of a boundary_check whose every axis is a block as wide as its shape, from 0
WHOLE_BLOCK = ("not a bug: every checked axis of the block pointer is a block as wide as the shape it names"
               " (shape (BT,) in blocks of (BT,)) at offset 0, in bounds by construction")


# the skip reason of a row mask dropped from a load whose row index is gathered under that mask
GATHERED = ("not a bound bug: the index along this axis is gathered by a load under the same mask with other=0"
            " (masked lanes read row 0, in bounds), and what they read there reaches no reduction along that axis")


def _broadcasts(expr: cst.BaseExpression) -> tuple[bool, bool, bool]:
    """Whether ``expr`` is written along rows (``[:, None]``), along columns (``[None, :]``), or
    with some other ``None`` index (another rank)."""
    compact = code(expr).replace(" ", "")
    return "[:,None]" in compact, "[None,:]" in compact, "None" in compact


@dataclass
class Function:
    node: cst.FunctionDef
    calls: list[cst.Call] = field(default_factory=list)
    assigns: list[cst.Assign] = field(default_factory=list)
    augassigns: list[cst.AugAssign] = field(default_factory=list)
    loops: list[cst.For] = field(default_factory=list)


class _Collect(cst.CSTVisitor):
    def __init__(self, fn: Function) -> None:
        self.fn = fn

    def visit_Call(self, node: cst.Call) -> None:
        self.fn.calls.append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self.fn.assigns.append(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.fn.augassigns.append(node)

    def visit_For(self, node: cst.For) -> None:
        self.fn.loops.append(node)


def is_jit(fn: cst.FunctionDef) -> bool:
    for dec in fn.decorators:
        expr = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        if dotted(expr).split(".")[-1] == "jit":
            return True
    return False


class TritonMutator:
    """All mutants of one file."""

    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.source = source
        self.module = cst.parse_module(source)
        wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.pos = wrapper.resolve(PositionProvider)
        self.parent = wrapper.resolve(ParentNodeProvider)
        self.out = Mutations()
        self._names: dict[int, set[str]] = {}
        self._statements: dict[int, list[cst.CSTNode]] = {}
        self._bindings: dict[tuple[int, str], list[cst.BaseExpression] | None] = {}
        self.seen: set[tuple[str, int, int]] = set()
        self.functions: list[Function] = []
        self.host: Function = Function(cst.FunctionDef(cst.Name("_"), cst.Parameters(), cst.IndentedBlock([])))
        for stmt in self._all_functions():
            fn = Function(stmt)
            stmt.body.visit(_Collect(fn))
            self.functions.append(fn)
        self.module.visit(_Collect(self.host))
        self.kernel_names = {f.node.name.value for f in self.functions}

    def names(self, node: cst.CSTNode) -> set[str]:
        """``names_in``, cached: the data-flow questions ask about the same nodes many times."""
        key = id(node)
        if key not in self._names:
            self._names[key] = names_in(node)
        return self._names[key]

    def _all_functions(self) -> Iterator[cst.FunctionDef]:
        found: list[cst.FunctionDef] = []

        class _V(cst.CSTVisitor):
            def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                if is_jit(node):
                    found.append(node)

        self.module.visit(_V())
        return iter(found)

    # -- positions ---------------------------------------------------------------------------

    def start(self, node: cst.CSTNode) -> tuple[int, int]:
        p = self.pos[node].start
        return p.line, p.column

    def end(self, node: cst.CSTNode) -> tuple[int, int]:
        p = self.pos[node].end
        return p.line, p.column

    def statement(self, node: cst.CSTNode) -> tuple[int, int]:
        """Lines of the statement holding ``node`` (a compound statement's header only)."""
        child, cur = node, self.parent.get(node)
        while cur is not None:
            if isinstance(cur, cst.SimpleStatementLine):
                return self.pos[cur].start.line, self.pos[cur].end.line
            if isinstance(cur, cst.For) and child is not cur.body:
                return self.pos[cur].start.line, self.pos[cur.iter].end.line
            if isinstance(cur, (cst.If, cst.While)) and child is cur.test:
                return self.pos[cur].start.line, self.pos[cur.test].end.line
            child, cur = cur, self.parent.get(cur)
        return self.pos[node].start.line, self.pos[node].end.line

    def enclosing_loop(self, node: cst.CSTNode) -> cst.For | None:
        cur = self.parent.get(node)
        while cur is not None and not isinstance(cur, cst.FunctionDef):
            if isinstance(cur, cst.For):
                return cur
            cur = self.parent.get(cur)
        return None

    # -- emitting ----------------------------------------------------------------------------

    def emit(self, operator: str, rule: str, node: cst.CSTNode, text: str, description: str,
             targets: list[tuple[int, int]]) -> None:
        key = (operator, *self.start(node))
        if key in self.seen:
            return
        self.seen.add(key)
        mutated = splice(self.source, self.start(node), self.end(node), text)
        if mutated == self.source:
            self.out.skip(operator, rule, "the change would leave the text as it was")
            return
        try:
            ast.parse(mutated)  # the stdlib parser: as strict as libcst's, ten times faster
        except SyntaxError:
            self.out.skip(operator, rule, "the mutant does not parse")
            return
        self.out.mutants.append(Mutant(operator, rule, self.path, self.start(node)[0], description,
                                       mutated, tuple(sorted(set(targets)))))

    # -- data flow, just enough to say what a load feeds --------------------------------------

    def resolve(self, fn: Function, name: str, before: cst.CSTNode) -> cst.Assign | None:
        limit = self.start(before)
        best = None
        for a in fn.assigns:
            if (len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name)
                    and a.targets[0].target.value == name and self.start(a) < limit):
                if best is None or self.start(a) > self.start(best):
                    best = a
        return best

    def uses(self, fn: Function, assign: cst.Assign, name: str) -> list[cst.Call]:
        """Accesses whose ``mask=`` is ``name`` as bound by ``assign``."""
        out = []
        for call in self.accesses(fn):
            arg = kwarg(call, "mask")
            if arg is not None and name in self.names(arg.value) and self.resolve(fn, name, call) is assign:
                out.append(call)
        return out

    def mask_layout(self, fn: Function, call: cst.Call) -> tuple[set[int], int] | None:
        """(axes along which the mask of ``call`` pads, rank of the tile); None: not known."""
        root = self.mask_root(fn, call)
        if root is None:
            return None
        axes: set[int] = set()
        flat = False
        for part in self.conjuncts(root[0]):
            if self.below_own_tile(fn, part, call):
                continue  # true on every lane (BELOW_OWN_TILE): it pads nothing
            rows, cols, other = _broadcasts(self.through_names(fn, part, call, move=False))
            if not rows and not cols and other:
                return None  # a rank other than 1 or 2
            axes |= {0} if rows else set()
            axes |= {1} if cols else set()
            flat |= not rows and not cols
        if flat and axes:
            return None  # a 1-D conjunct in a 2-D mask: a name this cannot resolve
        return ({0}, 1) if flat else (axes, 2)

    def statements(self, fn: Function) -> list[cst.CSTNode]:
        """The function's simple statements in source order (cached per function)."""
        key = id(fn.node)
        if key in self._statements:
            return self._statements[key]
        found: list[cst.CSTNode] = []

        class _V(cst.CSTVisitor):
            def visit_SimpleStatementLine(self, n: cst.SimpleStatementLine) -> None:
                found.extend(n.body)

        fn.node.body.visit(_V())
        self._statements[key] = found
        return found

    def pad_verdict(self, fn: Function, call: cst.Call, old: str, new: str) -> padflow.Verdict:
        """Whether padding ``call`` with ``new`` instead of ``old`` is the padding bug."""
        layout = self.mask_layout(fn, call)
        start = padflow.LOST if layout is None else padflow.Pad({a: old for a in layout[0]}, layout[1])
        stmts = self.statements(fn)  # from the top: an accumulator's start value (tl.zeros) counts
        lines = {id(st): self.pos[st].start.line for st in stmts}
        root = self.mask_root(fn, call)
        mask_names = self.names(root[0]) | self.names(kwarg(call, "mask").value) if root else set()
        mask_names -= {"tl", "triton"}
        tail = root is not None and all(self.rising_bound(fn, part, call) for part in self.conjuncts(root[0]))
        runs = []
        for value in (old, new):
            start_pad = start if start.axes is None else padflow.Pad({a: value for a in start.axes}, start.ndim)
            runs.append(padflow.Flow(call, stmts, lines, mask_names, tail=tail).run(start_pad))
        return padflow.judge(*runs)

    def rising_bound(self, fn: Function, part: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """``lanes < limit`` (or ``limit > lanes``) with every ``tl.arange`` term of the lanes rising
        and none in the limit: the lanes it pads come after those it keeps, along every axis."""
        cmp = self.strip(fn, part, at)
        if not isinstance(cmp, cst.Comparison) or len(cmp.comparisons) != 1:
            return False
        op, right = cmp.comparisons[0].operator, cmp.comparisons[0].comparator
        if isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual)):
            lanes, limit = right, cmp.left
        elif isinstance(op, (cst.LessThan, cst.LessThanEqual)):
            lanes, limit = cmp.left, right
        else:
            return False
        return self.lane_trend(fn, lanes, at) == "up" and self.lane_trend(fn, limit, at) == "none"

    def lane_trend(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> str:
        """"up" where ``expr`` rises with its ``tl.arange`` lanes (sums, and products with one lane
        factor, of names resolved where ``at`` reads them), "none" where it holds no lane, "bad"
        for anything else (a lane subtracted, negated, divided or wrapped)."""
        if depth > 8:  # a name read through itself (`T = eos - bos`, `eos = T`): lanes only if written
            return "bad" if "arange" in code(expr) else "none"
        trend = lambda e: self.lane_trend(fn, e, at, depth + 1)
        if isinstance(expr, cst.Name):
            assign = self.resolve(fn, expr.value, at)
            return "none" if assign is None else trend(assign.value)
        if isinstance(expr, (cst.Integer, cst.Float)):
            return "none"
        if isinstance(expr, cst.Subscript):
            return trend(expr.value)
        if isinstance(expr, cst.Call):
            if dotted(expr.func).endswith("arange"):
                return "up"
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "to":
                return trend(expr.func.value)
            return "bad" if "arange" in code(expr) else "none"
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
            left, right = trend(expr.left), trend(expr.right)
            if "bad" in (left, right) or isinstance(expr.operator, cst.Subtract) and right != "none":
                return "bad"
            if isinstance(expr.operator, cst.Multiply) and "up" in (left, right):
                other = expr.right if left == "up" else expr.left
                return "up" if (left, right).count("up") == 1 and not code(other).lstrip("(").startswith("-") else "bad"
            return "up" if "up" in (left, right) else "none"
        return "bad" if "arange" in code(expr) else "none"

    def accesses(self, fn: Function) -> Iterator[cst.Call]:
        for c in fn.calls:
            name = dotted(c.func)
            if "." in name and name.split(".")[-1] in ACCESS_READ | ACCESS_WRITE:
                yield c

    @staticmethod
    def access_rule(call: cst.Call) -> str:
        return "BC101" if dotted(call.func).split(".")[-1] in ACCESS_READ else "BC102"

    # -- masks -------------------------------------------------------------------------------

    def mask_root(self, fn: Function, call: cst.Call) -> tuple[cst.BaseExpression, list[cst.Call]] | None:
        """The expression a mutation of ``call``'s mask should change, and the accesses it guards."""
        arg = kwarg(call, "mask")
        if arg is None:
            return None
        value = arg.value
        if isinstance(value, cst.Name):
            assign = self.resolve(fn, value.value, call)
            if assign is None:
                return None
            return assign.value, self.uses(fn, assign, value.value)
        return value, [call]

    def conjuncts(self, expr: cst.BaseExpression) -> list[cst.BaseExpression]:
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitAnd):
            return self.conjuncts(expr.left) + self.conjuncts(expr.right)
        return [expr]

    def constexprs(self, fn: Function) -> set[str]:
        return {p.name.value for p in fn.node.params.params
                if p.annotation is not None and dotted(p.annotation.annotation).endswith("constexpr")}

    def strip(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode) -> cst.BaseExpression:
        """``expr`` without ``[None, :]``-style subscripts, a name replaced by its value."""
        for _ in range(4):
            if isinstance(expr, cst.Subscript):
                expr = expr.value
            elif isinstance(expr, cst.Name):
                assign = self.resolve(fn, expr.value, at)
                if assign is None:
                    return expr
                expr, at = assign.value, assign
            else:
                return expr
        return expr

    def tile_fits(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """``arange(0, B) < C`` with C a compile-time bound: a whole tile that covers the dimension
        exactly when B == C (then the bound is always true) and has a tail when B is the next power
        of two; which one cannot be told from the kernel, so no mutant is made on it."""
        return self.compile_time_test(fn, expr, at) == "tile"

    def compile_time_test(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """What a bound test compares, where the kernel's text fixes no runtime extent in it:
        "tile" for ``arange(0, B) < C`` with C a compile-time parameter or literal (see
        ``tile_fits``); "sizes" where every operand of every comparison (through assigned names) is
        made of compile-time values only, as in ``num_intra_levels + 2 < L``: no runtime extent and
        no lane, so it bounds no dimension of the tile. Lanes against a compile-time bound,
        ``(64 + o_v)[None, :] < V``, stay mutants: V may be a head dimension passed as constexpr,
        with a real tail (the text cannot tell it from a chunk size such as ``(BC + o_i) < BT``); "indices" where both
        sides are lane indices (an ``arange``, no parameter extent, no load), as in the triangle
        ``o_i[:, None] >= o_j[None, :]``: it compares no index with an extent. None otherwise."""
        cmp = self.strip(fn, expr, at)
        if isinstance(cmp, cst.Comparison) and len(cmp.comparisons) == 1:
            op = cmp.comparisons[0].operator
            index, bound = (cmp.left, cmp.comparisons[0].comparator) if isinstance(
                op, (cst.LessThan, cst.LessThanEqual)) else (cmp.comparisons[0].comparator, cmp.left)
            index = self.strip(fn, index, at)
            whole = isinstance(index, cst.Call) and dotted(index.func).split(".")[-1] == "arange" and bool(
                index.args) and code(index.args[0].value).strip() == "0"
            if whole and self.names(bound) <= self.constexprs(fn) | {"tl", "triton"}:
                return "tile"
        tests = self.comparisons(fn, expr, at)
        if not tests:
            return None
        kinds = [[self.origin(fn, side) for side in [c.left, *(t.comparator for t in c.comparisons)]]
                 for c in tests]
        if all(all("lanes" in k and "extent" not in k for k in sides) for sides in kinds):
            return "indices"
        if all(all(k <= {"const"} for k in sides) for sides in kinds):
            return "sizes"
        return None

    def comparisons(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode) -> list[cst.Comparison]:
        """The ordering comparisons ``expr`` is a conjunction of (through subscripts and assigned
        names); empty where some part is not one."""
        out = []
        for part in self.conjuncts(self.strip(fn, expr, at)):
            part = self.strip(fn, part, at)
            if not (isinstance(part, cst.Comparison) and all(isinstance(t.operator, (
                    cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual))
                    for t in part.comparisons)):
                return []
            out.append(part)
        return out

    def bindings(self, fn: Function, name: str) -> list[cst.BaseExpression] | None:
        """The values of every ``name = value`` in the function (a tuple target takes its element);
        None where the name is also bound otherwise: a parameter, an augmented assignment, or a
        target this cannot pair with a value."""
        key = (id(fn.node), name)
        cache = self._bindings
        if key in cache:
            return cache[key]
        params = [*fn.node.params.params, *fn.node.params.kwonly_params, *fn.node.params.posonly_params]
        found: list[cst.BaseExpression] | None = []
        if any(p.name.value == name for p in params) or any(name in self.names(a.target) for a in fn.augassigns):
            found = None
        for a in fn.assigns if found is not None else []:
            for t in a.targets:
                if isinstance(t.target, cst.Name) and t.target.value == name and len(a.targets) == 1:
                    found.append(a.value)
                elif isinstance(t.target, cst.Tuple) and name in self.names(t.target):
                    pos = [i for i, e in enumerate(t.target.elements)
                           if isinstance(e.value, cst.Name) and e.value.value == name]
                    if (len(a.targets) == 1 and len(pos) == 1 and isinstance(a.value, cst.Tuple)
                            and len(a.value.elements) == len(t.target.elements)):
                        found.append(a.value.elements[pos[0]].value)
                    else:
                        found = None
                        break
                elif name in self.names(t.target):
                    found = None
                    break
            if found is None:
                break
        cache[key] = found
        return found

    PURE_CALLS = {"cdiv", "next_power_of_2", "log2", "float", "int", "min", "max", "minimum", "maximum",
                  "abs", "to", "program_id"}

    def origin(self, fn: Function, expr: cst.CSTNode, depth: int = 0) -> frozenset[str]:
        """Where the value of ``expr`` comes from, by the kernel's text: "const" (literals,
        ``tl.constexpr`` parameters and names assigned from them), "lanes" (an ``arange``), "scalar"
        (a program id, a loop variable), "extent" (a runtime parameter, a load, anything else)."""
        if depth > 8:  # counted in names resolved, so a deep expression of few names stays readable
            return frozenset({"extent"})
        sub = lambda e: self.origin(fn, e, depth)  # noqa: E731
        if isinstance(expr, (cst.Integer, cst.Float)):
            return frozenset({"const"})
        if isinstance(expr, cst.Name):
            if expr.value in self.constexprs(fn) or expr.value in {"True", "False", "None"}:
                return frozenset({"const"})
            if any(expr.value in self.names(loop.target) for loop in fn.loops):
                return frozenset({"scalar"})
            values = self.bindings(fn, expr.value)
            if not values:
                return frozenset({"extent"})
            return frozenset().union(*(self.origin(fn, v, depth + 1) for v in values))
        if isinstance(expr, cst.Attribute):
            return frozenset({"const"}) if dotted(expr).split(".")[0] in {"tl", "triton"} else frozenset({"extent"})
        if isinstance(expr, cst.BinaryOperation):
            return sub(expr.left) | sub(expr.right)
        if isinstance(expr, cst.UnaryOperation):
            return sub(expr.expression)
        if isinstance(expr, cst.Subscript):
            plain = all(isinstance(e.slice, cst.Slice) and e.slice.lower is None and e.slice.upper is None
                        and e.slice.step is None or isinstance(e.slice, cst.Index)
                        and isinstance(e.slice.value, cst.Name) and e.slice.value.value == "None"
                        for e in expr.slice)
            return sub(expr.value) if plain else frozenset({"extent"})
        if isinstance(expr, cst.Call):
            name = dotted(expr.func).split(".")[-1] if dotted(expr.func) else ""
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "to":
                return sub(expr.func.value)
            head = dotted(expr.func).split(".")[0]
            if head not in {"tl", "triton", "float", "int", "min", "max", "abs"}:
                return frozenset({"extent"})
            args = frozenset().union(*(sub(a.value) for a in expr.args)) if expr.args else frozenset()
            if name == "arange":
                return args | {"lanes"}
            if name == "program_id":
                return frozenset({"scalar"})
            return args if name in self.PURE_CALLS else frozenset({"extent"})
        return frozenset({"extent"})

    def has_bound(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, every: bool,
                  depth: int = 0) -> bool:
        """Whether ``expr`` orders an index against a limit (``<``, ``<=``, ``>``, ``>=``), through
        subscripts and assigned names: in every conjunct of an ``&`` (``every``), or anywhere in an
        ``&`` / ``|`` tree."""
        if depth > 4:
            return False
        if isinstance(expr, cst.Comparison):
            return any(isinstance(t.operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan,
                                               cst.GreaterThanEqual)) for t in expr.comparisons)
        if isinstance(expr, cst.Subscript):
            return self.has_bound(fn, expr.value, at, every, depth + 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitAnd) and every:
            return all(self.has_bound(fn, c, at, every, depth + 1) for c in self.conjuncts(expr))
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitAnd, cst.BitOr)) \
                and not every:
            return self.has_bound(fn, expr.left, at, every, depth + 1) or \
                self.has_bound(fn, expr.right, at, every, depth + 1)
        if isinstance(expr, cst.Name):
            assign = self.resolve(fn, expr.value, at)
            return assign is not None and self.has_bound(fn, assign.value, assign, every, depth + 1)
        return False

    def strict_comparison(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode,
                          depth: int = 0) -> cst.Comparison | None:
        if depth > 4:
            return None
        if isinstance(expr, cst.Comparison):
            ok = len(expr.comparisons) == 1 and isinstance(expr.comparisons[0].operator,
                                                          (cst.LessThan, cst.GreaterThan))
            return expr if ok else None
        if isinstance(expr, cst.Subscript):
            return self.strict_comparison(fn, expr.value, at, depth + 1)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitAnd):
            for c in self.conjuncts(expr):
                found = self.strict_comparison(fn, c, at, depth + 1)
                if found is not None:
                    return found
            return None
        if isinstance(expr, cst.Name):
            assign = self.resolve(fn, expr.value, at)
            return None if assign is None else self.strict_comparison(fn, assign.value, assign, depth + 1)
        return None

    def loop_names(self, call: cst.Call) -> set[str]:
        loop = self.enclosing_loop(call)
        if loop is None:
            return set()
        found = set(self.names(loop.target))  # a copy: the cached set must stay the target's own

        class _V(cst.CSTVisitor):
            def visit_Assign(self, n: cst.Assign) -> None:
                for t in n.targets:
                    found.update(names_in(t.target))

            def visit_AugAssign(self, n: cst.AugAssign) -> None:
                found.update(names_in(n.target))

        loop.body.visit(_V())
        return found

    def varies_in_loop(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, loop: set[str],
                       depth: int = 0) -> bool:
        if depth > 4:
            return False
        for name in self.names(expr):
            if name in loop:
                return True
            assign = self.resolve(fn, name, at)
            if assign is not None and name not in {"tl", "triton"} and self.varies_in_loop(
                    fn, assign.value, assign, loop, depth + 1):
                return True
        return False

    def drop_conjunct(self, victim: cst.BaseExpression) -> tuple[cst.CSTNode, str] | None:
        """The node to replace, and its text, to remove ``victim`` from its ``&`` chain."""
        parent = self.parent.get(victim)
        if not (isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.BitAnd)):
            return None
        sibling = parent.right if parent.left is victim else parent.left
        text = code(sibling.with_changes(lpar=[], rpar=[])) if sibling.lpar else code(sibling)
        if parent.lpar or sibling.lpar:
            text = f"({text})"
        return parent, text

    # -- operators ---------------------------------------------------------------------------

    def drop_mask(self, fn: Function) -> None:
        for call in self.accesses(fn):
            rule = self.access_rule(call)
            if kwarg(call, "mask") is None:
                positional = len(call.args) > (1 if rule == "BC101" else 2) and call.args[
                    1 if rule == "BC101" else 2].keyword is None
                if positional:
                    self.out.skip("drop-mask", rule, "mask passed positionally")
                continue
            if not self.bounds_something(fn, call):
                self.out.skip("drop-mask", rule, "not a bound: the mask compares no index with an extent")
                continue
            root = self.mask_root(fn, call)
            bounds = [p for p in self.conjuncts(root[0]) if self.has_bound(fn, p, call, every=False)] if root else []
            if bounds and all(self.tile_fits(fn, p, call) for p in bounds):
                self.out.skip("drop-mask", rule, WHOLE_TILE)
                continue
            if bounds and all(self.below_own_tile(fn, p, call) for p in bounds):
                self.out.skip("drop-mask", rule, BELOW_OWN_TILE)
                continue
            if bounds and all(self.one_lane(fn, p, call) for p in bounds):
                self.out.skip("drop-mask", rule, ONE_LANE)
                continue
            dropped = {"mask", "other"} if rule == "BC101" else {"mask"}
            self.emit("drop-mask", rule, call, code(without_args(call, dropped)),
                      f"dropped mask= of {dotted(call.func)}", [self.statement(call)])

    def one_lane(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """``i < n`` with ``i = pid * B + arange(0, B)`` and B passed the literal 1 at every launch of
        the kernel in the file (``BLOCK_SIZE_INDEX=1``): one lane per program, which a grid of
        ``cdiv(n, 1)`` programs keeps below n."""
        units = self.unit_tiles(fn)
        tests = self.comparisons(fn, expr, at) if units else []
        for test in tests:
            index = test.left if isinstance(test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual)) \
                else test.comparisons[0].comparator
            index = self.strip(fn, index, at)
            ranges = [c for c in self.calls_in(index) if dotted(c.func).split(".")[-1] == "arange" and len(c.args) == 2]
            if not ranges or any(code(c.args[1].value).strip() not in units for c in ranges):
                return False
        return bool(tests)

    def unit_tiles(self, fn: Function) -> set[str]:
        """Parameters of ``fn`` every launch of it in the file (``fn[grid](…)``, one at least)
        passes as the literal 1."""
        name = fn.node.name.value
        launches = [c for c in self.host.calls if isinstance(c.func, cst.Subscript)
                    and isinstance(c.func.value, cst.Name) and c.func.value.value == name]
        if not launches:
            return set()
        return set.intersection(*({a.keyword.value for a in c.args if a.keyword is not None
                                   and isinstance(a.value, cst.Integer) and a.value.value == "1"} for c in launches))

    def bounds_something(self, fn: Function, call: cst.Call) -> bool:
        """Whether some conjunct of the mask is an ordering comparison (an index against an extent),
        so that dropping the mask opens a partial dimension; a mask of flags (causal, a loaded
        boolean) guards something other than the tile's tail."""
        root = self.mask_root(fn, call)
        if root is None:
            return False
        return any(self.has_bound(fn, part, call, every=False) for part in self.conjuncts(root[0]))

    def drop_dimension(self, fn: Function) -> None:
        for call in self.accesses(fn):
            root = self.mask_root(fn, call)
            if root is None:
                continue
            expr, users = root
            parts = self.conjuncts(expr)
            if len(parts) < 2:
                continue
            loop = self.loop_names(call)
            bounds = [p for p in parts if self.has_bound(fn, p, call, every=True)]
            k_terms = [p for p in bounds if loop and self.varies_in_loop(fn, p, call, loop)]
            others = [p for p in bounds if p not in k_terms]
            targets = [self.statement(u) for u in users]
            for operator, victims in (("drop-mask-dim", others), ("drop-k-term", k_terms)):
                if not victims:
                    continue
                victim = victims[-1]
                kind = self.compile_time_test(fn, victim, call)
                why = {"tile": WHOLE_TILE,
                       "indices": "not a bound: the mask compares no index with an extent",
                       "sizes": "cannot tell: the dropped test compares compile-time sizes only (no runtime"
                                " extent)"}.get(kind or "")
                if why is None and self.clamped(fn, victim, call):
                    why = "not a bound bug: the index is clamped into the extent (only the padding changes)"
                if why is None and self.below_exited_tile(fn, victim):
                    why = BELOW_EXIT
                if why is None and self.below_own_tile(fn, victim, call):
                    why = BELOW_OWN_TILE
                if why is None and self.gathered(fn, victim, call):
                    why = GATHERED
                if why is not None:
                    key = (operator, *self.start(victim))
                    if key in self.seen:
                        continue
                    self.seen.add(key)
                    self.out.skip(operator, "BC103", why)
                    continue
                if not any(p is not victim for p in bounds):
                    self.out.skip(operator, "BC103", "no other bound would remain")
                    continue
                change = self.drop_conjunct(victim)
                if change is None:
                    self.out.skip(operator, "BC103", "conjunct not directly in an & chain")
                    continue
                node, text = change
                self.emit(operator, "BC103", node, text, f"dropped `{code(victim)}` from the mask", targets)

    # -- a loop over the tiles below the program's own, after an early exit ---------------------

    def below_exited_tile(self, fn: Function, victim: cst.BaseExpression) -> bool:
        """``idx < n`` with ``idx = s + j * B + arange(0, B)`` in ``for j in range(0, i)`` after a
        top-level ``if s + i * B >= n: return``: every tile the loop walks ends at or below the
        start of the program's own tile, which the exit keeps under n, so the test always holds."""
        loop = self.enclosing_loop(victim)
        if loop is None or not isinstance(loop.target, cst.Name) or not isinstance(loop.iter, cst.Call):
            return False
        args = loop.iter.args
        if dotted(loop.iter.func) not in RANGE_CALLS or not 1 <= len(args) <= 2 or any(a.keyword for a in args) \
                or len(args) == 2 and not (isinstance(args[0].value, cst.Integer) and args[0].value.value == "0"):
            return False
        cmp = self.strip(fn, victim, victim)
        if not (isinstance(cmp, cst.Comparison) and len(cmp.comparisons) == 1
                and isinstance(cmp.comparisons[0].operator, cst.LessThan)):
            return False
        var = loop.target.value
        used: dict[str, set[cst.Assign | None]] = {}  # name -> the assignments read for it
        index = linear(self.strip(fn, cmp.left, victim), self.value_reader(fn, victim, used))
        extent = linear(cmp.comparisons[0].comparator, self.value_reader(fn, victim, used))
        stop = linear(args[-1].value, self.value_reader(fn, loop, used))
        if index is None or extent is None or stop is None or any(var in k for k in extent):
            return False
        start = self.own_tile_start(index, var, stop)
        return start is not None and any(
            self.exits_at(fn, stmt, start, extent, used, var, victim) for stmt in fn.node.body.body
            if self.start(stmt) < self.start(loop))

    @staticmethod
    def own_tile_start(index: Form, var: str, stop: Form) -> Form | None:
        """``s + i * B`` for ``index = s + j * B + arange(0, B)`` and the loop's stop ``i``."""
        lanes = [k for k in index if any(f.startswith("arange(") for f in k)]
        if len(lanes) != 1 or len(lanes[0]) != 1 or index[lanes[0]] != 1:
            return None
        size = lanes[0][0][len("arange("):-1]
        step: Form = {(): int(size)} if size.isdigit() else {(size,): 1}
        moving = [k for k in index if var in k]
        want = {tuple(sorted((var, *k))): c for k, c in step.items()}
        if {k: index[k] for k in moving} != want:
            return None
        rest = {k: c for k, c in index.items() if k not in moving and k != lanes[0]}
        for k, c in stop.items():
            for ks, cs in step.items():
                key = tuple(sorted(k + ks))
                rest[key] = rest.get(key, 0) + c * cs
        return {k: c for k, c in rest.items() if c}

    def value_reader(self, fn: Function, at: cst.CSTNode, used: dict[str, set[cst.Assign | None]]
                     ) -> Callable[[str], cst.BaseExpression | None]:
        """A name's value as assigned before ``at``; records which assignment each name read."""
        def value_of(name: str) -> cst.BaseExpression | None:
            assign = self.resolve(fn, name, at)
            used.setdefault(name, set()).add(assign)
            return None if assign is None else assign.value
        return value_of

    def exits_at(self, fn: Function, stmt: cst.CSTNode, start: Form, extent: Form,
                 used: dict[str, set[cst.Assign | None]], var: str, victim: cst.BaseExpression) -> bool:
        """``stmt`` is ``if start >= extent: return``, every name in it has the value it has at
        ``victim``, and the names read unassigned there are not rebound in between."""
        if not (isinstance(stmt, cst.If) and stmt.orelse is None):
            return False
        body = stmt.body.body
        line = body[0] if len(body) == 1 else None
        inner = line.body if isinstance(line, cst.SimpleStatementLine) else body
        if not (len(inner) == 1 and isinstance(inner[0], cst.Return) and inner[0].value is None):
            return False
        test = stmt.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return False
        op = test.comparisons[0].operator
        if isinstance(op, cst.GreaterThanEqual):
            own, limit = test.left, test.comparisons[0].comparator
        elif isinstance(op, cst.LessThanEqual):
            own, limit = test.comparisons[0].comparator, test.left
        else:
            return False
        seen: dict[str, set[cst.Assign | None]] = {}
        if linear(own, self.value_reader(fn, stmt, seen)) != start or \
                linear(limit, self.value_reader(fn, stmt, seen)) != extent:
            return False
        if any(len(used.get(n, set()) | a) > 1 for n, a in seen.items()):
            return False
        lo, hi = self.start(stmt), self.start(victim)
        free = {n for n, a in used.items() if a == {None}} - {var}
        rebound = [t for a in fn.assigns for t in a.targets if lo < self.start(a) < hi and self.names(t.target) & free]
        rebound += [a for a in fn.augassigns if lo < self.start(a) < hi and self.names(a.target) & free]
        rebound += [lp for lp in fn.loops if lo < self.start(lp) < hi and self.names(lp.target) & free]
        return not rebound

    # -- a load whose index is clamped into the extent -----------------------------------------

    @staticmethod
    def _flat(node: cst.CSTNode) -> str:
        return code(node.with_changes(lpar=[], rpar=[]) if hasattr(node, "lpar") else node).replace(" ", "")

    def through_names(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, move: bool
                      ) -> cst.BaseExpression:
        """``expr`` with up to three names replaced by the values they are assigned, each looked up
        where it is read (``move``) or always at ``at`` (a mask's conjuncts, read at the access)."""
        for _ in range(3):
            assign = self.resolve(fn, expr.value, at) if isinstance(expr, cst.Name) else None
            if assign is None:
                break
            expr, at = assign.value, assign if move else at
        return expr

    def axis_tag(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """"rows" for ``[:, None]``, "cols" for ``[None, :]``, "flat" for neither (names resolved,
        as ``mask_layout`` does); None for both."""
        rows, cols, _ = _broadcasts(self.through_names(fn, expr, at, move=True))
        return None if rows and cols else "rows" if rows else "cols" if cols else "flat"

    def clamp_limits(self, fn: Function, expr: cst.BaseExpression, depth: int = 0
                     ) -> tuple[set[str], set[str]] | None:
        """(upper, lower) limits of ``tl.minimum`` / ``tl.maximum`` nested around an index (through a
        name with a single value); None if ``expr`` is no such clamp."""
        if depth > 4:
            return None
        if isinstance(expr, cst.Name):
            values = self.bindings(fn, expr.value)
            if not values or len({code(v) for v in values}) != 1:
                return None
            return self.clamp_limits(fn, values[0], depth + 1)
        if not (isinstance(expr, cst.Call) and dotted(expr.func) in {
                "tl.minimum", "tl.maximum", "triton.language.minimum", "triton.language.maximum"}
                and len(expr.args) == 2 and not any(a.keyword or a.star for a in expr.args)):
            return None
        lanes = ["lanes" in self.origin(fn, a.value) for a in expr.args]
        if lanes.count(True) != 1:
            return None
        inner, limit = (expr.args[0].value, expr.args[1].value) if lanes[0] else (expr.args[1].value,
                                                                                  expr.args[0].value)
        upper, lower = self.clamp_limits(fn, inner, depth + 1) or (set(), set())
        (upper if dotted(expr.func).endswith("minimum") else lower).add(self._flat(limit))
        return upper, lower

    def pointer_terms(self, fn: Function, expr: cst.BaseExpression, tag: str | None, depth: int = 0
                      ) -> list[tuple[str, tuple[set[str], set[str]] | None]] | None:
        """The lane-varying additive terms of a pointer: (axis tag, clamp limits or None for an
        unclamped index); scalar terms are left out. None where this cannot tell."""
        if depth > 8:
            return None
        origin = self.origin(fn, expr)
        if "lanes" not in origin:
            return []
        walk = lambda e, t=tag: self.pointer_terms(fn, e, t, depth + 1)  # noqa: E731
        limits = self.clamp_limits(fn, expr)
        if limits is not None:
            return [(tag or "flat", limits)]
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)):
            left, right = walk(expr.left), walk(expr.right)
            return None if left is None or right is None else left + right
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Multiply):
            sides = [s for s in (expr.left, expr.right) if "lanes" in self.origin(fn, s)]
            return walk(sides[0]) if len(sides) == 1 else None
        if isinstance(expr, cst.Subscript):
            inner = code(expr.with_changes(value=cst.Name("x"), lpar=[], rpar=[])).replace(" ", "")
            new = {"x[:,None]": "rows", "x[None,:]": "cols"}.get(inner)
            return None if new is None or tag is not None else walk(expr.value, new)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "to":
            return walk(expr.func.value)
        if isinstance(expr, cst.Name):
            values = self.bindings(fn, expr.value)
            if not values or len({code(v) for v in values}) != 1:
                return None
            return walk(values[0])
        return [(tag or "flat", None)]

    def mask_reaches(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, target: cst.Assign,
                     tag: str | None, depth: int = 0) -> list[str | None] | None:
        """The subscript tags under which the mask ``expr`` uses ``target``'s name (None: none
        applied); None where a tag would stack on another."""
        if depth > 6:
            return []
        if isinstance(expr, cst.Name):
            assign = self.resolve(fn, expr.value, at)
            if assign is None:
                return []
            if assign is target:
                return [tag]
            return self.mask_reaches(fn, assign.value, assign, target, tag, depth + 1)
        if isinstance(expr, cst.Subscript):
            inner = code(expr.with_changes(value=cst.Name("x"), lpar=[], rpar=[])).replace(" ", "")
            new = {"x[:,None]": "rows", "x[None,:]": "cols"}.get(inner)
            if new is None or tag is not None:
                found = self.mask_reaches(fn, expr.value, at, target, tag, depth + 1)
                return None if found else found
            return self.mask_reaches(fn, expr.value, at, target, new, depth + 1)
        children: list[cst.BaseExpression] = []
        if isinstance(expr, cst.BinaryOperation):
            children = [expr.left, expr.right]
        elif isinstance(expr, cst.UnaryOperation):
            children = [expr.expression]
        elif isinstance(expr, cst.Comparison):
            children = [expr.left, *(t.comparator for t in expr.comparisons)]
        elif isinstance(expr, cst.Call):
            children = [a.value for a in expr.args]
        out: list[str | None] = []
        for child in children:
            found = self.mask_reaches(fn, child, at, target, tag, depth + 1)
            if found is None:
                return None
            out += found
        return out

    def clamped(self, fn: Function, victim: cst.BaseExpression, call: cst.Call) -> bool:
        """Whether every access the dropped conjunct guards is a load whose index along the
        conjunct's axis is clamped into the conjunct's own extent (``tl.minimum(x, n - 1)``,
        ``tl.maximum(..., 0)``): without the conjunct the load stays in bounds and only its padding
        changes. A store through a clamp still writes the wrong element, so stores never count."""
        tests = self.comparisons(fn, victim, call)
        if not tests:
            return False
        needs: list[tuple[str, str]] = []  # ("upper" | "lower", the limit a clamp must name)
        for cmp in tests:
            if len(cmp.comparisons) != 1:
                return False
            op, left, right = cmp.comparisons[0].operator, cmp.left, cmp.comparisons[0].comparator
            lanes = ["lanes" in self.origin(fn, side) for side in (left, right)]
            if lanes.count(True) != 1:
                return False
            less = isinstance(op, (cst.LessThan, cst.LessThanEqual))
            strict = isinstance(op, (cst.LessThan, cst.GreaterThan))
            limit = self._flat(right if lanes[0] else left)
            upper = less == lanes[0]
            if upper:
                needs.append(("upper", f"{limit}-1" if strict else limit))
            elif not strict:
                needs.append(("lower", limit))
            else:
                return False
        own = self.axis_tag(fn, victim, call)
        if own is None:
            return False
        holder, cur = None, self.parent.get(victim)
        while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.SimpleStatementLine)):
            if isinstance(cur, cst.Assign):
                holder = cur
                break
            if isinstance(cur, cst.Call) and cur is call:
                break
            cur = self.parent.get(cur)
        if holder is not None:
            affected = []
            for access in self.accesses(fn):
                arg = kwarg(access, "mask")
                tags = [] if arg is None else self.mask_reaches(fn, arg.value, access, holder, None)
                if tags is None:
                    return False
                affected += [(access, t) for t in tags]
        else:
            affected = [(call, None)]
        if not affected:
            return False
        for access, tag in affected:
            if self.access_rule(access) != "BC101" or not access.args or access.args[0].keyword is not None:
                return False
            if tag is not None and own != "flat":
                return False
            axis = tag or own
            terms = self.pointer_terms(fn, access.args[0].value, None)
            if not terms:
                return False
            rank2 = axis != "flat" or any(t != "flat" for t, _ in terms)
            norm = lambda t: "cols" if rank2 and t == "flat" else t  # noqa: E731
            along = [lim for t, lim in terms if norm(t) == norm(axis)]
            if len(along) != 1 or along[0] is None:
                return False
            upper, lower = along[0]
            if not all(want in (upper if side == "upper" else lower) for side, want in needs):
                return False
        return True

    def below_own_tile(self, fn: Function, victim: cst.BaseExpression, call: cst.Call) -> bool:
        """Whether the dropped conjunct is ``i_s + arange(0, BS) < T`` in a loop over ``i_s`` that
        walks only tiles below the program's own tile ``S * BT + arange(0, BT)`` of T (a tile the
        kernel bounds by the same T): up to ``S * BT`` by BS where the code states ``BT % BS == 0`` (or
        gives both only powers of two, BS no larger than BT), or down from ``S * BT - BS`` by ``-BS``. Each such tile ends at or before ``S * BT``, which
        is below T when the program's tile starts inside T (every program of a ``cdiv(T, BT)``
        grid), so the test is true on every lane."""
        tests = self.comparisons(fn, victim, call)
        if len(tests) != 1 or len(tests[0].comparisons) != 1 \
                or not isinstance(tests[0].comparisons[0].operator, cst.LessThan):
            return False
        index = self.strip(fn, tests[0].left, call)
        extent = self._flat(tests[0].comparisons[0].comparator)
        if not (isinstance(index, cst.BinaryOperation) and isinstance(index.operator, cst.Add)
                and isinstance(index.left, cst.Name) and isinstance(index.right, cst.Call)
                and dotted(index.right.func).split(".")[-1] == "arange" and len(index.right.args) == 2
                and self._flat(index.right.args[0].value) == "0"):
            return False
        size = self._flat(index.right.args[1].value)
        loop = next((lp for lp in fn.loops if isinstance(lp.target, cst.Name) and lp.target.value == index.left.value
                     and self.pos[lp].start.line <= self.start(call)[0] <= self.pos[lp].end.line), None)
        if loop is None or not (isinstance(loop.iter, cst.Call) and dotted(loop.iter.func) in RANGE_CALLS) \
                or len(loop.iter.args) != 3 or any(a.keyword for a in loop.iter.args):
            return False
        start, stop, step = (self._flat(a.value) for a in loop.iter.args)
        for own, tile in self.own_tiles(fn, extent):
            if step == size and stop == own and (tile == size or stated_multiple(self.source, tile, size)
                                                 or pow2_divides(self.source, tile, size)):
                return True
            if step == f"-{size}" and start == f"{own}-{size}":
                return True
        return False

    def own_tiles(self, fn: Function, extent: str) -> list[tuple[str, str]]:
        """(start, tile) of each ``start + arange(0, tile)`` the kernel compares with ``extent``
        (``o_q = i_t * BT + tl.arange(0, BT)`` under ``o_q < T``): the program's own tiles of it."""
        out = []
        for a in fn.assigns:
            value = a.value
            if not (len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name)
                    and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)
                    and isinstance(value.right, cst.Call) and dotted(value.right.func).split(".")[-1] == "arange"
                    and len(value.right.args) == 2 and self._flat(value.right.args[0].value) == "0"
                    and "lanes" not in self.origin(fn, value.left)):
                continue
            name = a.targets[0].target.value
            bounded = any(isinstance(b.value, cst.Comparison) and len(b.value.comparisons) == 1
                          and isinstance(b.value.left, cst.Name) and b.value.left.value == name
                          and isinstance(b.value.comparisons[0].operator, cst.LessThan)
                          and self._flat(b.value.comparisons[0].comparator) == extent for b in fn.assigns)
            if bounded:
                out.append((self._flat(value.left), self._flat(value.right.args[1].value)))
        return out

    def gathered(self, fn: Function, victim: cst.BaseExpression, call: cst.Call) -> bool:
        """Whether the dropped conjunct ``m[:, None]`` guards a load whose index along that axis is
        only ``idx[:, None] * stride`` with ``idx = tl.load(..., mask=m, other=0)``: the masked lanes
        then read row 0, in bounds, and the load's padding along the axis becomes that row's data;
        which is no bug where ``padflow`` finds that padding reaching no reduction along the axis."""
        tag = self.axis_tag(fn, victim, call)
        root = self.mask_root(fn, call)
        if tag not in ("rows", "cols") or not isinstance(victim, cst.Subscript) or not isinstance(victim.value, cst.Name) \
                or root is None:
            return False
        mask = self.resolve(fn, victim.value.value, call)
        return mask is not None and all(self.gathered_load(fn, user, tag, mask) for user in root[1])

    def gathered_load(self, fn: Function, call: cst.Call, tag: str, mask: cst.Assign) -> bool:
        """``call`` (one access the dropped conjunct guards) is a load gathered along ``tag`` under
        ``mask`` whose padding along that axis reaches no reduction there (see ``gathered``)."""
        if self.access_rule(call) != "BC101" or not call.args or call.args[0].keyword is not None:
            return False
        along = [sub for sub in self.subscripts(fn, call.args[0].value, call) if self.axis_tag(fn, sub, call) == tag]
        if not along or not all(self.gather_of(fn, sub.value, call, mask) for sub in along):
            return False
        axis = 0 if tag == "rows" else 1
        stmts = self.statements(fn)
        lines = {id(st): self.pos[st].start.line for st in stmts}
        names = self.names(kwarg(call, "mask").value) - {"tl", "triton"}
        runs = [padflow.Flow(call, stmts, lines, names).run(padflow.Pad({axis: value}, 2))
                for value in ("0", padflow.FINITE_CONSTANT)]
        return padflow.judge(*runs).reason.startswith("not a bug")

    def subscripts(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> list[cst.Subscript]:
        """The ``x[:, None]`` / ``x[None, :]`` subscripts of a pointer, through names of one value."""
        if depth > 4:
            return []
        if isinstance(expr, cst.Name):
            values = self.bindings(fn, expr.value)
            return self.subscripts(fn, values[0], at, depth + 1) if values and len(values) == 1 else []
        if isinstance(expr, cst.Subscript):
            return [expr]
        if isinstance(expr, cst.BinaryOperation):
            return self.subscripts(fn, expr.left, at, depth) + self.subscripts(fn, expr.right, at, depth)
        return []

    def gather_of(self, fn: Function, expr: cst.BaseExpression, at: cst.CSTNode, mask: cst.Assign) -> bool:
        """``expr`` is (a cast of) ``tl.load(..., mask=m, other=0)`` with ``m`` as ``mask`` binds it."""
        if isinstance(expr, cst.Name):
            values = self.bindings(fn, expr.value)
            return bool(values) and len(values) == 1 and self.gather_of(fn, values[0], at, mask)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "to":
            return self.gather_of(fn, expr.func.value, at, mask)
        if not (isinstance(expr, cst.Call) and dotted(expr.func).split(".")[-1] == "load"):
            return False
        arg, other = kwarg(expr, "mask"), kwarg(expr, "other")
        return arg is not None and other is not None and isinstance(arg.value, cst.Name) \
            and self.resolve(fn, arg.value.value, expr) is mask and literal_zero(other.value)

    def off_by_one(self, fn: Function) -> None:
        for call in self.accesses(fn):
            root = self.mask_root(fn, call)
            if root is None:
                continue
            cmp = self.strict_comparison(fn, root[0], call)
            if cmp is None:
                continue
            if self.tile_fits(fn, cmp, cmp):
                self.out.skip("off-by-one", "BC104", "cannot tell: a whole tile arange(0, B) against a compile-time"
                                                     " bound (no lane at the bound when B equals it)")
                continue
            op = cmp.comparisons[0].operator
            new_op = (cst.LessThanEqual if isinstance(op, cst.LessThan) else cst.GreaterThanEqual)(
                whitespace_before=op.whitespace_before, whitespace_after=op.whitespace_after)
            new = cmp.with_changes(comparisons=[cmp.comparisons[0].with_changes(operator=new_op)])
            new = new.with_changes(lpar=[], rpar=[])
            self.emit("off-by-one", "BC104", cmp, code(new), f"`{code(cmp)}` became `{code(new)}`",
                      [self.statement(cmp)])

    def padding(self, fn: Function) -> None:
        """Padding mutants, each only where it is the bug: some reduction along a padded axis sees
        the new padding instead of its identity (see ``padflow``); other sites are skipped with
        the reason."""
        for call in self.accesses(fn):
            if self.access_rule(call) != "BC101" or kwarg(call, "mask") is None:
                continue
            other = kwarg(call, "other")
            if other is None:
                continue
            old = pad_value(other.value)
            where = [self.statement(call)]
            changes: list[tuple[str, str, cst.CSTNode, str, str]] = []
            if old == "-inf":
                changes.append(("padding-neginf-to-zero", "BC202", other.value, "0.0", "0"))
            elif old == "0":
                changes.append(("padding-zero-to-neginf", "BC202", other.value, 'float("-inf")', "-inf"))
            if old == "0":
                self.out.skip("drop-other", "BC201", "not a bug: other=0 is the zero the backend fills anyway")
            else:
                changes.append(("drop-other", "BC201", call, code(without_args(call, {"other"})), "0"))
            for operator, rule, node, text, new in changes:
                verdict = self.pad_verdict(fn, call, old, new)
                if not verdict.bug:
                    self.out.skip(operator, rule, verdict.reason)
                    continue
                what = "dropped other=" if operator == "drop-other" else f"other={code(other.value)} became {text}"
                self.emit(operator, rule, node, text, f"{what}: {verdict.reason}", where)

    def drop_boundary_check(self, fn: Function) -> None:
        for call in self.accesses(fn):
            if kwarg(call, "boundary_check") is None:
                continue
            rule = self.access_rule(call)
            if self.whole_block(fn, call):
                self.out.skip("drop-boundary-check", rule, WHOLE_BLOCK)
                continue
            self.emit("drop-boundary-check", rule, call,
                      code(without_args(call, {"boundary_check", "padding_option"})),
                      f"dropped boundary_check= of a block-pointer {dotted(call.func)}",
                      [self.statement(call)])

    def whole_block(self, fn: Function, call: cst.Call) -> bool:
        """Every axis ``boundary_check`` names is, in the block pointer's ``make_block_ptr``, a block
        of the shape's own size at offset 0: the check can never bind."""
        check = kwarg(call, "boundary_check")
        ptr = call.args[0].value if call.args and call.args[0].keyword is None else None
        assign = self.resolve(fn, ptr.value, call) if isinstance(ptr, cst.Name) else None
        made = assign.value if assign is not None else None
        if check is None or not (isinstance(made, cst.Call) and dotted(made.func).endswith("make_block_ptr")):
            return False
        fields = ("base", "shape", "strides", "offsets", "block_shape", "order")
        given = {a.keyword.value if a.keyword else fields[i]: a.value for i, a in enumerate(made.args) if i < 6}
        shape, offsets, block = (given.get(k) for k in ("shape", "offsets", "block_shape"))
        axes = check.value.elements if isinstance(check.value, (cst.Tuple, cst.List)) else []
        if not axes or not all(isinstance(e, (cst.Tuple, cst.List)) for e in (shape, offsets, block)):
            return False
        for el in axes:
            a = int(el.value.value) if isinstance(el.value, cst.Integer) else -1
            if not 0 <= a < min(len(shape.elements), len(offsets.elements), len(block.elements)):
                return False
            if code(shape.elements[a].value) != code(block.elements[a].value) \
                    or code(offsets.elements[a].value) != "0":
                return False
        return True

    def ceil_divs(self, node: cst.CSTNode) -> list[tuple[cst.BaseExpression, cst.BaseExpression,
                                                           cst.BaseExpression]]:
        """(node, extent, tile) for each ``cdiv(a, b)`` or ``(a + b - 1) // b`` under ``node``."""
        found: list[tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression]] = []

        class _V(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                if dotted(n.func).split(".")[-1] == "cdiv" and len(n.args) == 2 and not any(
                        a.keyword or a.star for a in n.args):
                    found.append((n, n.args[0].value, n.args[1].value))

            def visit_BinaryOperation(self, n: cst.BinaryOperation) -> None:
                if not isinstance(n.operator, cst.FloorDivide):
                    return
                num = n.left
                if (isinstance(num, cst.BinaryOperation) and isinstance(num.operator, cst.Subtract)
                        and isinstance(num.right, cst.Integer) and num.right.value == "1"
                        and isinstance(num.left, cst.BinaryOperation)
                        and isinstance(num.left.operator, cst.Add)
                        and code(num.left.right).strip("() ") == code(n.right).strip("() ")):
                    found.append((n, num.left.left, n.right))

        node.visit(_V())
        return found

    def floor(self, op: str, rule: str, site: tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression],
              targets: list[tuple[int, int]], what: str) -> None:
        node, a, b = site
        exact = stated_multiple(self.source, code(a), code(b))
        if exact:
            self.out.skip(op, rule, f"exact division: {exact}")
            return
        text = f"{operand(a)} // {operand(b)}"
        if isinstance(self.parent.get(node), (cst.BinaryOperation, cst.UnaryOperation)):
            text = f"({text})"
        self.emit(op, rule, node, text, f"`{code(node)}` became `{text}` in a {what}", targets)

    def floor_trip(self, fn: Function) -> None:
        for loop in fn.loops:
            it = loop.iter
            if not (isinstance(it, cst.Call) and dotted(it.func) in RANGE_CALLS):
                continue
            header = [(self.pos[loop].start.line, self.pos[it].end.line)]
            for arg in it.args[:2]:
                sites = self.ceil_divs(arg.value)
                if isinstance(arg.value, cst.Name):
                    assign = self.resolve(fn, arg.value.value, loop)
                    if assign is not None:
                        sites += self.ceil_divs(assign.value)
                for site in sites:
                    if not self.walks_tiles(loop, site[2]):
                        self.out.skip("floor-trip", "BC301", "not a tile loop: the body makes no access that"
                                                             " steps by the tile")
                        continue
                    self.floor("floor-trip", "BC301", site, header + [self.statement(site[0])], "loop trip count")

    def walks_tiles(self, loop: cst.For, tile: cst.BaseExpression) -> bool:
        """Whether the loop steps through tiles of the extent: its body makes a load or store and
        names the tile (``i * BLOCK_K + arange``, ``ptr += BLOCK_K * stride``)."""
        accesses = [c for c in self.calls_in(loop.body)
                    if dotted(c.func).split(".")[-1] in ACCESS_READ | ACCESS_WRITE]
        tile_names = self.names(tile) - {"tl", "triton"}
        return bool(accesses) and (not tile_names or bool(tile_names & self.names(loop.body)))

    @staticmethod
    def calls_in(node: cst.CSTNode) -> list[cst.Call]:
        found: list[cst.Call] = []

        class _V(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                found.append(n)

        node.visit(_V())
        return found

    def floor_grid(self) -> None:
        for call in self.host.calls:
            if not (isinstance(call.func, cst.Subscript)
                    and dotted(call.func.value).split(".")[-1] in self.kernel_names):
                continue
            if any(call in fn.calls for fn in self.functions):
                continue
            for element in call.func.slice:
                grid = element.slice.value if isinstance(element.slice, cst.Index) else None
                if grid is None:
                    continue
                nodes: list[cst.CSTNode] = [grid]
                if isinstance(grid, cst.Name):
                    nodes += self.grid_definitions(grid.value)
                for node in nodes:
                    for site in self.ceil_divs(node):
                        self.floor("floor-grid", "BC302", site,
                                   [self.statement(site[0]), self.statement(call)], "launch grid")

    def grid_definitions(self, name: str) -> list[cst.CSTNode]:
        found: list[cst.CSTNode] = []

        class _V(cst.CSTVisitor):
            def visit_Assign(self, n: cst.Assign) -> None:
                if any(isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets):
                    found.append(n.value)

            def visit_FunctionDef(self, n: cst.FunctionDef) -> None:
                if n.name.value == name:
                    found.append(n.body)

        self.module.visit(_V())
        return found

    def run(self) -> Mutations:
        for fn in self.functions:
            self.drop_mask(fn)
            self.drop_dimension(fn)
            self.off_by_one(fn)
            self.padding(fn)
            self.drop_boundary_check(fn)
            self.floor_trip(fn)
        self.floor_grid()
        return self.out


def mutate(path: str, source: str) -> Mutations:
    """Every mutant of one Triton file (none if it does not parse)."""
    try:
        return TritonMutator(path, source).run()
    except cst.ParserSyntaxError:
        return Mutations()
