"""The BC103 skip of a key-tile loop up to the program's own tile, where the host gives the tile
sizes only powers of two (``BT = 128``, ``BS = min(64, max(16, next_power_of_2(T)))``, autotune
configs over literal lists) with BS never larger than BT: BS divides BT, so no key tile crosses the
program's own start. A size that can be no power of two, or larger than the tile, or that comes in
as a host function's parameter, is no such fact."""

from __future__ import annotations

import textwrap

from bench.quality.mutate_triton import BELOW_OWN_TILE
from bench.quality.pow2 import pow2_divides
from tests.bench.test_mutation_skips_rowcol import _keys, dropped, mutate


def divides(host: str) -> bool:
    return pow2_divides(textwrap.dedent(host), "BT", "BS")


def test_literals_and_bounded_next_power_of_two_divide() -> None:
    assert divides('''
        def run(T, big):
            BT = 128 if big else 64
            BS = min(64, max(16, triton.next_power_of_2(T)))
            kernel[(1,)](BT=BT, BS=BS)
        configs = [triton.Config({'BT': BT, 'BS': BS}) for BT in [64, 128] for BS in [16, 32]]
        ''')


def test_no_power_of_two_a_larger_size_or_a_parameter_do_not() -> None:
    assert not divides("BT = 96\nBS = 32\n")
    assert not divides("BT = 64\nBS = min(128, triton.next_power_of_2(T))\n")
    assert not divides("BT = 128\nBS = max(16, triton.next_power_of_2(T))\n")
    assert not divides("def run(x, BS=32):\n    BT = 128\n    kernel[(1,)](x, BT=BT, BS=BS)\n")
    assert not divides("BT = 128\nconfigs = [{'BT': BT, 'BS': BS} for BS in sizes]\n")


def test_key_tiles_up_to_the_own_tile_with_power_of_two_sizes_are_skipped() -> None:
    host = '''
        def launch(q, k, o, T, D):
            BT = 128
            BS = min(64, max(16, triton.next_power_of_2(T)))
            k[(triton.cdiv(T, BT),)](q, k, o, T, D, BT=BT, BS=BS)
        '''
    muts = mutate(_keys("0, i_t * BT, BS", host))
    assert muts.skipped[("drop-k-term", "BC103", BELOW_OWN_TILE)] == 1
    assert dropped(muts) == []
    muts = mutate(_keys("0, i_t * BT, BS", host.replace("min(64,", "min(256,")))  # BS may pass BT
    assert dropped(muts) == ["dropped `m_k[:, None]` from the mask"]
