from collections.abc import Iterator

from boundcheck.coverage import atom, brief, floor_contract, floor_fix
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
                ceiling, contract = floor_fix(div, module.language, "triton.cdiv")
                yield self.finding(
                    module, div.span,
                    f"launching `{launch.kernel}` with `{div.text}` programs leaves the last"
                    f" {atom(div.extent)} % {atom(div.tile)} elements unprocessed"
                    f" (e.g. {brief(div.extent)} = {atom(div.tile)} + 1); use {ceiling} and guard the tail,"
                    f" or assert {contract}",
                )
