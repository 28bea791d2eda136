"""Which drop-guard mutants the CUDA benchmark counts: a guard whose every exposed access clamps
the guarded index into the extent (``y[min(n - 1, i)]``) is no bound bug and is skipped, while the
same guard over an unclamped access stays a BC102 mutant."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_cuda
from bench.quality.mutate_cuda import CLAMPED
from bench.quality.mutant import Mutations

CLAMP = textwrap.dedent('''\
    __global__ void expo(float* y, const float* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = x[min(n - 1, i)];
        if (i < n) {
            y[STORE] = expf(v);
        }
    }
    ''')


def mutate(store: str) -> Mutations:
    return mutate_cuda.mutate("/tmp/rule_choice.cu", CLAMP.replace("STORE", store))


def drop_guard(m: Mutations) -> list[tuple[int, str]]:
    return [(x.line, x.rule) for x in m.mutants if x.operator == "drop-guard"]


def test_guard_over_clamped_store_is_skipped() -> None:
    """``y[min(n - 1, i)]`` stays inside y however large i is: dropping ``i < n`` writes no
    element past n, so it is no unguarded-store mutant."""
    for store in ("min(n - 1, i)", "min(i, n - 1)"):
        m = mutate(store)
        assert (drop_guard(m), m.skipped[("drop-guard", "BC102", CLAMPED)]) == ([], 1)


def test_guard_over_unclamped_store_is_mutated() -> None:
    """The same guard over ``y[i]`` protects a store that lanes past n would write out of bounds."""
    m = mutate("i")
    assert (drop_guard(m), m.skipped[("drop-guard", "BC102", CLAMPED)]) == ([(4, "BC102")], 0)


def test_guard_over_a_clamp_to_another_limit_is_mutated() -> None:
    """A clamp to another extent (``min(m - 1, i)`` under ``i < n``) does not keep i below n."""
    m = mutate("min(2 * n - 1, i)")
    assert drop_guard(m) == [(4, "BC102")]
