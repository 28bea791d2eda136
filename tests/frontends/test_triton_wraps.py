"""Indices kept in bounds by a remainder: by a size computed in the kernel (``% (head_size // 2)``,
a ring of ``ratio * 2`` rows), and a tile index wrapped by a floored count of tiles. Each is
paired with a near variant that is still reported."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

PACKED = """\
import triton
import triton.language as tl


@triton.jit
def unpack(k_ptr, o_ptr, head_size: tl.constexpr, BLOCK: tl.constexpr):
    raw = tl.arange(0, BLOCK)
    packed: tl.constexpr = {modulus}
    offs = raw % packed
    k = tl.load(k_ptr + offs)
    tl.store(o_ptr + raw, (k >> (raw // packed * 4)) & 15, mask=raw < head_size)
"""


def test_a_lane_wrapped_by_a_size_computed_in_the_kernel_stays_below_it() -> None:
    assert findings(PACKED.format(modulus="head_size // 2")) == []


def test_a_ring_of_twice_the_tile_wraps_its_rows() -> None:
    src = PACKED.format(modulus="BLOCK * 2")
    assert findings(src) == []


def test_the_same_lane_unwrapped_is_reported() -> None:
    src = PACKED.format(modulus="head_size // 2").replace("offs = raw % packed", "offs = raw + packed")
    assert findings(src) == [(line_of(src, "k = tl.load"), "BC101")]


def test_a_literal_remainder_of_a_thread_index_splits_lanes_it_bounds_nothing() -> None:
    src = """\
__global__ void quads(const float* x, float* y, int n) {
    int col = blockIdx.x * 16 + (threadIdx.x % 4) * 4;
    y[col] = x[col];
}
"""
    assert {code for _, code in findings(src, Language.CUDA)} == {"BC101", "BC102"}


TILES = """\
import triton
import triton.language as tl


@triton.jit
def copy_tiles(x_ptr, y_ptr, D: tl.constexpr, BLOCK_D: tl.constexpr):
    n_tiles: tl.constexpr = {count}
    d_tile = tl.program_id(0) % n_tiles
    row = tl.program_id(0) // n_tiles
    offs = d_tile * BLOCK_D + tl.arange(0, BLOCK_D)
    x = tl.load(x_ptr + row * D + offs)
    tl.store(y_ptr + row * D + offs, x)
"""


def test_a_tile_index_wrapped_by_a_floored_tile_count_keeps_whole_tiles_inside() -> None:
    """``d_tile < D // BLOCK_D``: its tile ends at most at ``D``."""
    assert findings(TILES.format(count="D // BLOCK_D")) == []


def test_a_tile_index_wrapped_by_a_ceiling_count_reaches_the_partial_tile() -> None:
    src = TILES.format(count="tl.cdiv(D, BLOCK_D)")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC101"), (line_of(src, "tl.store"), "BC102")]


def test_a_wrapped_tile_index_with_a_further_offset_is_not_bounded_by_the_count() -> None:
    src = TILES.format(count="D // BLOCK_D").replace(
        "offs = d_tile * BLOCK_D", "offs = (d_tile + 1) * BLOCK_D")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC101"), (line_of(src, "tl.store"), "BC102")]


def test_a_tile_index_wrapped_by_a_rounded_up_count_written_as_a_floor_reaches_the_partial_tile() -> None:
    """``(D + BLOCK_D - 1) // BLOCK_D`` is a ceiling: Liger's fused MoE kernels count tiles so."""
    src = TILES.format(count="(D + BLOCK_D - 1) // BLOCK_D")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC101"), (line_of(src, "tl.store"), "BC102")]


PACKED_ROWS = """\
import triton
import triton.language as tl


@triton.jit
def zero_points(zp_ptr, o_ptr, N, K, stride, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_n = (tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    zp = tl.load(zp_ptr + (offs_n[None, :] // 2) * stride + offs_k[:, None], mask=offs_k[:, None] < K, other=0)
    tl.store(o_ptr + offs_k, tl.sum(zp, axis=1), mask=offs_k < K)
"""


def test_a_wrapped_lane_broadcast_then_halved_stays_inside_the_packed_rows() -> None:
    # (offs_n % N)[None, :] // 2 <= (N - 1) // 2: two int4 zero points per byte row
    assert findings(PACKED_ROWS) == []


def test_the_broadcast_lane_halved_without_the_wrap_is_a_partial_guard() -> None:
    src = PACKED_ROWS.replace(" % N\n", "\n")
    assert findings(src) == [(line_of(src, "zp = tl.load"), "BC103")]
