from collections.abc import Iterator

from boundcheck.coverage import floor_contract
from boundcheck.findings import Finding
from boundcheck.model import Module
from boundcheck.registry import Rule


class FloorGrid(Rule):
    """A launch grid is ``n // BLOCK`` for a runtime n, so the tail blocks never run."""

    code = "BC302"
    name = "floor-grid"

    def check(self, module: Module) -> Iterator[Finding]:
        for launch in module.launches:
            for div in launch.grid:
                if floor_contract(div, launch.facts):
                    continue
                yield self.finding(
                    module, div.span,
                    f"launching `{launch.kernel}` with `{div.text}` programs leaves the last"
                    f" {div.extent} % {div.tile} elements unprocessed (e.g. {div.extent} = {div.tile} + 1);"
                    f" use `triton.cdiv({div.extent}, {div.tile})` / `({div.extent} + {div.tile} - 1) /"
                    f" {div.tile}` and guard the tail, or assert `{div.extent} % {div.tile} == 0`",
                )
