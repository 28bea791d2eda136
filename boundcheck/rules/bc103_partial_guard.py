from collections.abc import Iterator

from boundcheck.coverage import Coverage, coverage, describe_dims, smallest_break
from boundcheck.findings import Finding
from boundcheck.model import Access, Kernel, Module
from boundcheck.registry import Rule


class PartialGuard(Rule):
    """The guard bounds some tiled dimensions of an index but not all of them."""

    code = "BC103"
    name = "partial-guard"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for access in kernel.accesses:
            cov = coverage(kernel, access)
            if cov is None or not cov.uncovered or not (cov.guarded or cov.local_only or access.masked_by):
                continue
            first = cov.uncovered[0]
            loop = " (the K-tail of the loop)" if first.loop is not None else ""
            yield self.finding(
                module, access.span,
                f"{access.kind.value} of `{access.buffer}` is {_bounded(cov, access)}"
                f" but not along {describe_dims(cov.uncovered, access.dims)}{loop}: lanes past that extent read or"
                f" write the next row or past the end for {smallest_break(first)};"
                f" add `{first.label} < <extent>` to the mask or guard",
                kernel, access=access,
            )


def _bounded(cov: Coverage, access: Access) -> str:
    """What the guard does bound: dimensions of the index, or else what the access's mask tests
    (``Access.masked_by``: bounds on no dimension of its index)."""
    if cov.guarded or cov.local_only:
        return f"bounded along {describe_dims(cov.guarded or [d for d, _ in cov.local_only], access.dims)}"
    return "masked by " + ", ".join(f"`{b.index} {b.op} {b.limit}`" for b in access.masked_by)
