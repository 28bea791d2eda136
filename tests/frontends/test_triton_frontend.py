"""The Triton frontend reads what makes real kernels safe; each test pairs the safe form with the
unsafe one it must still report."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, path: str = "k.py") -> list[tuple[int, str]]:
    found, _ = check_source(path, Language.TRITON, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def line_of(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), start=1) if text in line)


# A [T, H, D] tensor: head `pid_h` occupies D of the H * D elements of a row, so the head lane
# `pid_h * D + arange(0, D)` never leaves the row.
HEADS = """\
import triton
import triton.language as tl


@triton.jit
def heads(x_ptr, y_ptr, T, H, D: tl.constexpr, BLOCK_T: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_h = tl.program_id(1)
    o_t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    o_d = tl.arange(0, D)
    offs = o_t[:, None] * ({pitch}) + pid_h * D + o_d[None, :]
    x = tl.load(x_ptr + offs, mask=o_t[:, None] < T, other=0.0)
    tl.store(y_ptr + offs, x, mask=o_t[:, None] < T)
"""


def test_a_row_of_whole_tiles_needs_no_bound_on_the_tile_lane() -> None:
    assert findings(HEADS.format(pitch="H * D")) == []


def test_a_row_pitch_that_is_not_a_multiple_of_the_tile_is_still_partial() -> None:
    src = HEADS.format(pitch="H * 96")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC103"), (line_of(src, "tl.store"), "BC103")]


def test_a_grouped_program_order_is_not_a_pitch() -> None:
    """``(pid // width) * GROUP_M * BLOCK_M`` is a tile offset in grouped order, not the stride
    of another dimension: the unmasked row tile is still reported."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def rows(x_ptr, y_ptr, M, GROUP_M: tl.constexpr, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = (pid // 8) * GROUP_M + pid % GROUP_M
    offs = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))
"""
    line = line_of(src, "tl.store")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]
