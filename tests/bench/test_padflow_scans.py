"""The padding mutants the Triton mutator makes around a forward scan: padding past every valid
lane (``offs < n``) reaches no valid lane of a ``tl.cumsum``, so ``other=0`` -> ``-inf`` there is
no bug unless what the scan leaves in the padded lanes reaches a reduction; a reversed scan, or a
mask with a lower bound, still carries the padding into valid lanes."""

from __future__ import annotations

import textwrap

import pytest

from bench.quality import mutate_triton

KERNEL = '''\
@triton.jit
def k(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=MASK, other=0.0)
    c = SCAN
    tl.store(Y + offs, c, mask=offs < n)
'''


def _padding_mutants(mask: str, scan: str) -> list[str]:
    body = KERNEL.replace("MASK", mask).replace("SCAN", scan)
    muts = mutate_triton.mutate("k.py", "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent(body))
    return [m.description for m in muts.mutants if m.operator == "padding-zero-to-neginf"]


def test_a_forward_scan_of_tail_padding_makes_no_padding_mutant() -> None:
    assert _padding_mutants("offs < n", "tl.cumsum(x, 0)") == []


@pytest.mark.parametrize("mask, scan", [
    ("offs < n", "tl.cumsum(x, 0, reverse=True)"),
    ("offs < n", "tl.cumsum(x, 0, True)"),
    ("(offs >= 1) & (offs < n)", "tl.cumsum(x, 0)"),
    ("n - 1 - offs >= 0", "tl.cumsum(x, 0)"),
])
def test_padding_a_scan_carries_into_valid_lanes_is_mutated(mask: str, scan: str) -> None:
    assert len(_padding_mutants(mask, scan)) == 1
