"""An expression the analysis builds from inlined values (a trip count of several loads, a
helper's arguments spelled out) is quoted in a message by its two ends: the finding's line holds
the rest, and a message stays readable. Short quotes and the prose between them are kept whole."""

from __future__ import annotations

import re

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings

LOOP = '''\
import triton
import triton.language as tl


@triton.jit
def copy_state(src, dst, sizes, widths, elems, idx, BLOCK: tl.constexpr):
    nbytes = TRIP
    for i in range(nbytes // 8):
        offs = i * 8 + tl.arange(0, 8)
        tl.store(dst + offs, tl.load(src + offs))
'''

LONG = ("(tl.load(widths + idx) - tl.load(sizes + idx + 1)) * tl.load(sizes + idx) * tl.load(elems + idx)"
        " - tl.load(widths + idx + 2) * tl.load(elems + idx + 3)")


def messages(trip: str) -> list[str]:
    found, _ = check_source("k.py", Language.TRITON, LOOP.replace("TRIP", trip), Settings())
    return [f.message for f in found if f.code == "BC301"]


def test_a_long_inlined_trip_count_is_quoted_by_its_two_ends() -> None:
    (message,) = messages(LONG)
    quoted = re.findall(r"`([^`]*)`", message)
    assert quoted and all(" … " in q and len(q) <= 120 for q in quoted)
    assert message.startswith("the loop runs `((tl.load(widths + idx)")


def test_a_short_trip_count_is_quoted_whole() -> None:
    (message,) = messages("tl.load(sizes + idx)")
    assert " … " not in message and "`tl.load(sizes + idx) // 8`" in message
