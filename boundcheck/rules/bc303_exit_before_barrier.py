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
            if not exit_.barriers_after or _uniform(exit_.uniform_if, kernel):
                continue
            barrier = exit_.barriers_after[0]
            made_in = f"block-wide call `{exit_.barrier_call}(…)`" if exit_.barrier_call else "`__syncthreads()`"
            yield self.finding(
                module, exit_.span,
                f"`{exit_.statement}` under `{exit_.guard}` runs before the {made_in} on line"
                f" {barrier.line}: threads of a partial tile leave while the rest wait at the barrier"
                f" (undefined behaviour; deadlock or stale shared memory); keep every thread to the"
                f" barrier and guard only the loads and stores",
                kernel,
            )


def _uniform(pairs: tuple[tuple[str, str], ...], kernel: Kernel) -> bool:
    """An exit all threads take together (its extent divides into the tiles it steps by)."""
    return bool(pairs) and all(any(c.extent == extent and _factors(c.tile) == _factors(tile)
                                   for c in kernel.contracts) for extent, tile in pairs)


def _factors(product: str) -> list[str]:
    return sorted(f.strip(" ()") for f in product.split("*"))
