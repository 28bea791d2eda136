from collections.abc import Iterator

from boundcheck.coverage import covers
from boundcheck.findings import Finding
from boundcheck.model import Kernel, Language, Module, Space
from boundcheck.registry import Rule
from boundcheck.symbolic import operand


class VectorTail(Rule):
    """A W-wide vector access is guarded on its first lane only (``i < n`` for a ``float4``)."""

    code = "BC106"
    name = "vector-tail"
    languages = frozenset({Language.CUDA})  # the Triton frontend models no vector widths

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        facts = list(kernel.contracts)
        for access in kernel.accesses:
            w = access.width
            if w <= 1 or access.opaque or access.space is not Space.GLOBAL or any(f.tile == str(w) for f in [*facts, *access.facts]):
                continue
            for dim in access.dims:
                bounds = [b for b in access.guards if covers(b, dim) and not b.wrap]
                if not bounds or any(b.last_lane_off_by_one(w) for b in bounds):
                    continue  # a guard written for the last lane but off by one is BC104's
                reach = max(b.lane_offset - b.limit_slack - (1 if b.op == "<=" else 0) for b in bounds)
                if reach >= w - 1:
                    continue
                # a row / column split of the index (`i * 4 / col`, `i * 4 % col`): the lanes run
                # along the column
                b = next((b for b in bounds if " % " in b.index), bounds[0])
                limit, rest = operand(b.limit, "<", right=True), operand(b.limit, "%")
                yield self.finding(
                    module, access.span,
                    f"{w}-wide access to `{access.buffer}` is guarded by `{b.index} {b.op} {limit}`,"
                    f" which checks its first lane only: for {rest} % {w} != 0 the last vector runs"
                    f" up to {w - 1} elements past the end; guard it with `{b.index} + {w - 1} < {limit}`"
                    f" and finish the tail with scalar accesses, or assert `{rest} % {w} == 0`",
                    kernel,
                )
                break
