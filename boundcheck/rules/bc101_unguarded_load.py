from collections.abc import Iterator

from boundcheck.coverage import coverage, describe_dims, smallest_break
from boundcheck.findings import Finding
from boundcheck.model import AccessKind, Kernel, Module
from boundcheck.registry import Rule


class UnguardedLoad(Rule):
    """A read over a partial tile with no mask, guard, boundary check or divisibility contract."""

    code = "BC101"
    name = "unguarded-load"
    kinds = (AccessKind.READ,)
    verb = "read of"
    fix_hint = "mask it (`mask=offs < n`) or guard it (`if (i < n)`)"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for access in kernel.accesses:
            if access.kind not in self.kinds:
                continue
            cov = coverage(kernel, access)
            if cov is None or not cov.uncovered or cov.guarded or cov.local_only or access.masked_by:
                continue
            first = cov.uncovered[0]
            yield self.finding(
                module, access.span,
                f"{self.verb} `{access.buffer}` is not bounded along {describe_dims(cov.uncovered)}:"
                f" the last tile runs past the extent for {smallest_break(first)};"
                f" {self.fix_hint}, or assert the divisibility"
                f" (`# boundcheck: assume <extent> % {first.tile or 'TILE'} == 0`)",
                kernel, access=access,
            )
