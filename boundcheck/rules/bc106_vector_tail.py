from collections.abc import Iterator

from boundcheck.coverage import covers
from boundcheck.findings import Finding
from boundcheck.model import Kernel, Language, Module, Space
from boundcheck.registry import Rule
from boundcheck.symbolic import operand


class VectorTail(Rule):
    """A W-wide vector access is guarded on its first lane only (``i < n`` for a ``float4``), or a
    group of W elements a counted loop walks on its first element (``4 * g < n`` over ``x[4 * g + j]``)."""

    code = "BC106"
    name = "vector-tail"
    languages = frozenset({Language.CUDA})  # the Triton frontend models no vector widths

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        facts = list(kernel.contracts)
        for access in kernel.accesses:
            w = access.width
            if w <= 1 or access.opaque or access.space is not Space.GLOBAL or any(
                    f.tile == str(w) or f.tile.isdigit() and int(f.tile) % w == 0 for f in [*facts, *access.facts]):
                continue
            for dim in access.dims:
                # a limit that moves with the block ends a window inside the data: reading a
                # vector across it stays in memory (the lanes past it are for the kernel to mask)
                bounds = [b for b in access.guards if covers(b, dim) and not b.wrap and not b.limit_moves]
                if not bounds or any(b.last_lane_off_by_one(w) for b in bounds):
                    continue  # a guard written for the last lane but off by one is BC104's
                reach = max(b.lane_offset - b.limit_slack - (1 if b.op == "<=" else 0) for b in bounds)
                if reach >= w - 1:
                    continue
                # a row / column split of the index (`i * 4 / col`, `i * 4 % col`): the lanes run
                # along the column
                b = next((b for b in bounds if " % " in b.index), bounds[0])
                # the extent keeps the constant where it sizes it (`len = seq + 1; i < len`), not
                # where the guard adds it to reach past it (`i * 4 + 3 < n + 3`)
                written, extent = _limit(b.limit, b.limit_slack), _limit(b.limit, b.limit_slack if b.sized_limit else 0)
                # the index already names lane_offset lanes past the first (`i * 4 + 3`)
                last_lane = f"{b.index} + {w - 1 - b.lane_offset}" if w - 1 > b.lane_offset else b.index
                what, tail = (f"group of {w} elements of", "group") if access.walked else (f"{w}-wide access to", "vector")
                fix = "guard each element the loop walks" if access.walked else \
                    f"guard it with `{last_lane} < {operand(extent, '<', right=True)}` and finish the tail with scalar accesses"
                yield self.finding(
                    module, access.span,
                    f"{what} `{access.buffer}` is guarded by"
                    f" `{b.index} {b.op} {operand(written, '<', right=True)}`,"
                    f" which checks its first {'element' if access.walked else 'lane'} only: for"
                    f" {operand(extent, '%')} % {w} != 0 the last {tail}"
                    f" runs up to {w - 1} elements past the end; {fix}, or assert `{operand(extent, '%')} % {w} == 0`",
                    kernel, access=access,
                    # the fix goes on the guard, which a helper's access can be far from
                    related=((b.span, "the guard that checks the first lane only"),) if b.span.line != access.span.line else (),
                )
                break


def _limit(limit: str, slack: int) -> str:
    """``limit`` with the constant ``slack`` added (``n + 3``, ``n - 1``)."""
    return f"{limit} + {slack}" if slack > 0 else f"{limit} - {-slack}" if slack < 0 else limit
