"""The BC103 site the Triton mutator skips because a loop walks only the sub-tiles below the
program's own, which an early exit keeps inside the extent: the dropped row bound always holds.
Next to it, the near variants that are bugs and are still mutated."""

from __future__ import annotations

import textwrap

from bench.quality import mutate_triton
from bench.quality.mutate_triton import BELOW_EXIT

KERNEL = '''\
@triton.jit
def intra(k_ptr, y_ptr, T, K: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr, BK: tl.constexpr,
          NC: tl.constexpr):
    i_k, i_c = tl.program_id(0), tl.program_id(1)
    i_t, i_i = i_c // NC, i_c % NC
{exit}
    o_k = i_k * BK + tl.arange(0, BK)
    m_k = o_k < K
    acc = tl.zeros([BC, BK], dtype=tl.float32)
    for i_j in range({range}):
        o_j = i_t * BT + i_j * BC + tl.arange(0, BC)
        m_jk = (o_j[:, None] < T) & m_k[None, :]
        acc += tl.load(k_ptr + o_j[:, None] * K + o_k[None, :], mask=m_jk, other=0.0)
    o_c = i_t * BT + i_i * BC + tl.arange(0, BC)
    tl.store(y_ptr + o_c[:, None] * K + o_k[None, :], acc, mask=(o_c[:, None] < T) & m_k[None, :])
'''
EXIT = "    if i_t * BT + i_i * BC >= T:\n        return"
ROW = "dropped `(o_j[:, None] < T)` from the mask"


def mutate(exit: str, range_: str = "0, i_i"):
    body = KERNEL.format(exit=exit, range=range_)
    return mutate_triton.mutate("k.py", "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent(body))


def k_terms(muts) -> list[str]:
    return [m.description for m in muts.mutants if m.operator == "drop-k-term"]


def test_subtiles_below_an_exited_own_subtile_are_skipped() -> None:
    muts = mutate(EXIT)
    assert muts.skipped[("drop-k-term", "BC103", BELOW_EXIT)] == 1
    assert ROW not in k_terms(muts)


def test_named_start_of_the_own_subtile_counts_too() -> None:
    muts = mutate("    i_tc = i_t * BT + i_i * BC\n    if i_tc >= T:\n        return")
    assert muts.skipped[("drop-k-term", "BC103", BELOW_EXIT)] == 1


def test_without_the_exit_the_row_bound_is_still_mutated() -> None:
    """The grid runs every sub-tile of the last, partial chunk: sub-tiles before one past T can
    be past T too."""
    muts = mutate("")
    assert not muts.skipped[("drop-k-term", "BC103", BELOW_EXIT)]
    assert ROW in k_terms(muts)


def test_an_exit_on_the_chunk_alone_is_no_reason() -> None:
    muts = mutate("    if i_t * BT >= T:\n        return")
    assert ROW in k_terms(muts)


def test_subtiles_after_the_own_one_are_still_mutated() -> None:
    muts = mutate(EXIT, "i_i + 1, NC")
    assert ROW in k_terms(muts)
