from collections.abc import Iterator

from boundcheck.coverage import coverage
from boundcheck.findings import Finding
from boundcheck.model import Kernel, Language, Module
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
            for dim, bound in cov.local_only if cov else ():
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
