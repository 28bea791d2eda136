from collections.abc import Iterator

from boundcheck.findings import Edit, Finding, Fix
from boundcheck.model import Bound, Kernel, Module
from boundcheck.registry import Rule

_STRICT = {"<=": "<", ">=": ">", ">": ">=", "<": "<="}


class OffByOneBound(Rule):
    """A bound predicate admits the extent itself: ``i <= n``, ``n >= i``, ``i < n + 1``."""

    code = "BC104"
    name = "off-by-one-bound"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        seen: set[tuple[int, int]] = set()
        for access in kernel.accesses:
            dims = {d.source for d in access.dims}
            for bound in access.guards:
                key = (bound.span.line, bound.span.col)
                if key in seen or not bound.admits_extent_for(access.width) or bound.source not in dims:
                    continue
                seen.add(key)
                yield self.finding(
                    module, bound.span,
                    f"`{bound.index} {bound.op} {bound.limit}"
                    f"{f' + {bound.limit_slack}' if bound.limit_slack else ''}` lets the index reach"
                    f" `{bound.limit}` itself{' with the last lane of the vector' if access.width > 1 else ''},"
                    f" one past the last element of `{access.buffer}`;"
                    f" bound it with `<`",
                    kernel, fix=_fix(bound),
                )


def _fix(bound: Bound) -> Fix | None:
    if bound.op_span is None or bound.limit_slack or bound.op_text not in _STRICT:
        return None
    return Fix(f"use `{_STRICT[bound.op_text]}`", (Edit(bound.op_span, _STRICT[bound.op_text]),), safe=False)
