from collections.abc import Iterator

from boundcheck.coverage import floor_contract
from boundcheck.findings import Finding
from boundcheck.model import Kernel, Module
from boundcheck.registry import Rule


class FloorTripCount(Rule):
    """A loop over tiles runs ``K // TILE`` times for a runtime K, so the tail tile is skipped."""

    code = "BC301"
    name = "floor-trip-count"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for loop in kernel.loops:
            div = loop.trip
            if div is None or floor_contract(div, kernel.contracts) or (div.extent, div.tile) in kernel.tail_handled:
                continue
            yield self.finding(
                module, loop.span,
                f"the loop runs `{div.text}` times, which skips the last {div.extent} % {div.tile}"
                f" elements (e.g. {div.extent} = {div.tile} + 1); use a ceiling"
                f" (`tl.cdiv({div.extent}, {div.tile})` / `({div.extent} + {div.tile} - 1) / {div.tile}`)"
                f" with a masked tail, or assert `{div.extent} % {div.tile} == 0`",
                kernel,
            )
