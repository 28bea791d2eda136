from collections.abc import Iterator

from boundcheck.coverage import coverage
from boundcheck.findings import Finding
from boundcheck.model import Access, Bound, Dim, Kernel, Language, Module
from boundcheck.registry import Rule


class ThreadIndexGuard(Rule):
    """The guard compares a block-local index (``threadIdx.x``) with an extent while the access
    uses the global index, so every block past the first runs unguarded."""

    code = "BC105"
    name = "thread-index-guard"
    languages = frozenset({Language.CUDA})

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        seen: set[tuple[int, int]] = set()
        for access in kernel.accesses:
            cov = coverage(kernel, access)
            for dim, first in cov.local_only if cov else ():
                bound = _meant_for(access, dim, first)
                key = (bound.span.line, bound.span.col)
                if key in seen:
                    continue
                seen.add(key)
                yield self.finding(
                    module, bound.span,
                    f"`{bound.index} {bound.op} {bound.limit}` bounds the block-local index, but"
                    f" `{access.buffer}` is indexed by the global `{dim.label}`: blocks past the first"
                    f" write past `{bound.limit}`; compare the global index with `{bound.limit}`",
                    kernel,
                )


def _meant_for(access: Access, dim: Dim, first: Bound) -> Bound:
    """Of several block-local guards on ``dim``, the one whose limit is not what another dimension
    of the access is bounded by: ``tid < C; ...; threadIdx.x < N`` over ``inp[row * C + col]`` with
    ``col < C``: C is the column's extent, so N is the row's (where the mistake is)."""
    others = {b.limit for b in access.guards if not b.local and b.source != dim.source}
    return next((b for b in access.guards if b.source == dim.source and b.local and b.limit not in others), first)
