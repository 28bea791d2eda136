"""The values a host condition pins a size to.

ggml launches one block per head with one thread per element of the head, choosing the kernel's
template size by branch: ``GGML_ASSERT(C / H == 64 || C / H == 128); if (C / H == 64)
k<64><<<B * H, C / H>>>(…); else k<128><<<B * H, C / H>>>(…);``. In each arm the block's size
``C / H`` is one number, the one the template gets, so ``threadIdx.x`` spans the head exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import Converter, Scope, binary_test
from boundcheck.frontends.cuda_powers import constant_of
from boundcheck.symbolic import render

K = ci.CursorKind


@dataclass(frozen=True)
class Values:
    """Where a condition has an outcome: the values a size is one of, and the values it is not."""

    among: dict[str, frozenset[int]] = field(default_factory=dict)
    excluded: dict[str, frozenset[int]] = field(default_factory=dict)

    def add(self, other: Values) -> Values:
        """Both hold."""
        among = dict(self.among)
        for name, vs in other.among.items():
            among[name] = among[name] & vs if name in among else vs
        excluded = dict(self.excluded)
        for name, vs in other.excluded.items():
            excluded[name] = excluded.get(name, frozenset()) | vs
        return Values(among, excluded)

    def either(self, other: Values) -> Values:
        """One of the two holds: a size each pins to a set is in their union; nothing is excluded."""
        return Values({n: vs | other.among[n] for n, vs in self.among.items() if n in other.among})

    def single(self, name: str) -> int | None:
        """The one value ``name`` can have here, if the condition pins it to one."""
        left = self.among.get(name, frozenset()) - self.excluded.get(name, frozenset())
        return next(iter(left)) if len(left) == 1 else None


def host_values(conv: Converter, c: ci.Cursor, scope: Scope, holds: bool = True) -> Values:
    """What ``c`` having the outcome ``holds`` says of sizes compared with constants by ``==`` and
    ``!=``: conjuncts of a condition that holds, disjuncts of one that fails, and the union of
    the alternatives of a disjunction that holds (``C / H == 64 || C / H == 128``)."""
    test = binary_test(c, holds)
    if test is None:
        return Values()
    _, op, kids, holds = test
    if op in ("&&", "||"):
        a, b = (host_values(conv, k, scope, holds) for k in kids)
        return a.add(b) if (op == "&&") == holds else a.either(b)
    if op not in ("==", "!="):
        return Values()
    equal = (op == "==") == holds
    for side, other in ((kids[0], kids[1]), (kids[1], kids[0])):
        k = constant_of(other)
        if k is not None and constant_of(side) is None:
            name = render(conv.quiet_expr(side, scope))
            return Values(among={name: frozenset({k})}) if equal else Values(excluded={name: frozenset({k})})
    return Values()
