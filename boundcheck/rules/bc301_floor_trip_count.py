from collections.abc import Iterator

from boundcheck.coverage import atom, brief, floor_contract, floor_fix, tail_taken_up
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
            if div is None or floor_contract(div, kernel.contracts) or tail_taken_up(kernel, div):
                continue
            ceiling, contract = floor_fix(div, module.language, "tl.cdiv")
            yield self.finding(
                module, loop.span,
                f"the loop runs `{div.text}` times, which skips the last {atom(div.extent)} % {atom(div.tile)}"
                f" elements (e.g. {brief(div.extent)} = {atom(div.tile)} + 1); use a ceiling ({ceiling})"
                f" with a masked tail, or assert {contract}",
                kernel,
            )
