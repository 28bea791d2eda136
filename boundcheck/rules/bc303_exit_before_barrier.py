from collections.abc import Iterator

from boundcheck.findings import Finding
from boundcheck.model import Kernel, Language, Module
from boundcheck.registry import Rule


class ExitBeforeBarrier(Rule):
    """A boundary ``return`` can run before a ``__syncthreads()`` that the other threads reach."""

    code = "BC303"
    name = "exit-before-barrier"
    languages = frozenset({Language.CUDA})

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for exit_ in kernel.exits:
            if not exit_.barriers_after:
                continue
            barrier = exit_.barriers_after[0]
            yield self.finding(
                module, exit_.span,
                f"`{exit_.statement}` under `{exit_.guard}` runs before the `__syncthreads()` on line"
                f" {barrier.line}: threads of a partial tile leave while the rest wait at the barrier"
                f" (undefined behaviour; deadlock or stale shared memory); keep every thread to the"
                f" barrier and guard only the loads and stores",
                kernel,
            )
