"""A divisibility fact is a contract for a floor division only if it makes that division exact:
``n % 4 == 0`` says nothing about ``n % (U * 4)`` or ``n % 64``."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings

LAUNCH = """\
#include <cassert>
#define U 16
__global__ void k(float* x, int M) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) x[i] = 0.0f;
}
void launch(float* x, int M) {
    assert(M % FACT == 0);
    k<<<M / TILE, 64>>>(x, M);
}
"""


def findings(tile: str, fact: str) -> list[tuple[int, str]]:
    src = LAUNCH.replace("TILE", tile).replace("FACT", fact)
    found, _ = check_source("k.cu", Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def test_a_smaller_factor_of_the_tile_is_no_contract() -> None:
    assert findings("(U * 4)", "4") == [(9, "BC302")]


def test_a_smaller_number_is_no_contract() -> None:
    assert findings("64", "4") == [(9, "BC302")]


def test_the_tile_itself_or_a_multiple_is_a_contract() -> None:
    assert findings("(U * 4)", "(U * 4)") == []
    assert findings("64", "64") == []
    assert findings("64", "128") == []


def test_the_message_parenthesises_a_compound_tile() -> None:
    src = LAUNCH.replace("TILE", "(U * 4)").replace("FACT", "4")
    found, _ = check_source("k.cu", Language.CUDA, src, Settings())
    assert "use `(M + (U * 4) - 1) / (U * 4)`" in found[0].message
    assert "assert `M % (U * 4) == 0`" in found[0].message
    assert "cdiv" not in found[0].message
