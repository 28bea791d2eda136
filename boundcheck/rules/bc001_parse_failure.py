from collections.abc import Iterator

from boundcheck.findings import Finding
from boundcheck.model import Module
from boundcheck.registry import Rule


class ParseFailure(Rule):
    """A file, or a kernel in it, could not be parsed; the run goes on with the rest."""

    code = "BC001"
    name = "parse-failure"

    def check(self, module: Module) -> Iterator[Finding]:
        for span, reason in module.errors:
            yield self.finding(module, span, f"could not be analysed: {reason}")
