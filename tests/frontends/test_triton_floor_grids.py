"""A Triton kernel launched on ``n // BLOCK`` programs never runs past n: where every launch
floors the axis, its tiles are full and the skipped tail is reported once, at the launch (BC302),
as for a CUDA grid. A launch that rounds the same axis up, or a floor of another axis, leaves the
unmasked tiles reported: the floor counts the tiles of the axis whose program id the kernel
scales by the tile."""

from boundcheck.model import Language
from tests.checking import findings as _findings
from tests.checking import line_of

GROUP_MEAN = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def group_mean(x_ptr, out_ptr, L, D: tl.constexpr, GROUP: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_g = tl.program_id(1)
    offs = pid_g * GROUP + tl.arange(0, GROUP)
    ptrs = x_ptr + pid_b * L * D + offs[:, None] * D + tl.arange(0, D)[None, :]
    x = tl.load(ptrs)
    tl.store(out_ptr + ptrs - x_ptr, x - tl.sum(x, axis=0)[None, :] / GROUP)


def run(x):
    B, L, D = x.shape
    GROUP = 128
    out = torch.empty_like(x)
    group_mean[GRID](x, out, L, D, GROUP=GROUP)
    OTHER
    return out
'''


def findings(grid: str, other: str = "") -> tuple[str, list[tuple[int, str]]]:
    src = GROUP_MEAN.replace("GRID", grid).replace("OTHER", other)
    return src, _findings(src, Language.TRITON)


def test_tiles_of_a_floored_axis_are_full_and_the_launch_is_reported() -> None:
    src, found = findings("(B, L // GROUP)")
    assert found == [(line_of(src, "group_mean[(B,"), "BC302")]


def test_a_launch_rounding_the_axis_up_keeps_the_tiles_reported() -> None:
    src, found = findings("(B, L // GROUP)", "group_mean[(B, triton.cdiv(L, GROUP))](x, out, L, D, GROUP=GROUP)")
    load, store = line_of(src, "x = tl.load(ptrs)"), line_of(src, "tl.store(out_ptr")
    assert found == [(load, "BC101"), (store, "BC102"), (line_of(src, "group_mean[(B, L"), "BC302")]


def test_a_floor_of_another_axis_says_nothing_of_this_one() -> None:
    # axis 0 counts `B // GROUP` programs, but the kernel's tiles of GROUP run along axis 1
    src, found = findings("(B // GROUP, triton.cdiv(L, GROUP))")
    load, store = line_of(src, "x = tl.load(ptrs)"), line_of(src, "tl.store(out_ptr")
    assert found == [(load, "BC101"), (store, "BC102"), (line_of(src, "group_mean[(B //"), "BC302")]


SAME_SIZE_TILES = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def row_dot(x_ptr, w_ptr, y_ptr, K: tl.constexpr, N: tl.constexpr, BLOCK_N: tl.constexpr,
            BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        x = tl.load(x_ptr + k * BLOCK_K + offs_k)
        w = tl.load(w_ptr + (k * BLOCK_K + offs_k)[:, None] * N + offs_n[None, :])
        acc += tl.sum(x[:, None] * w, axis=0)
    tl.store(y_ptr + offs_n, acc)


def run(x, w):
    K, N = w.shape
    y = torch.empty(N, device=x.device)
    BLOCK_N = 128
    BLOCK_K = 128
    grid = N // BLOCK_N,
    row_dot[grid](x, w, y, K=K, N=N, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return y
'''


def test_a_floor_counts_only_the_tile_its_axis_is_scaled_by() -> None:
    # BLOCK_K and BLOCK_N are both 128 at the launch (scattermoe's single2scatter); the grid counts tiles of BLOCK_N only
    found = _findings(SAME_SIZE_TILES, Language.TRITON)
    x, w = line_of(SAME_SIZE_TILES, "x = tl.load("), line_of(SAME_SIZE_TILES, "w = tl.load(")
    assert found == [(x, "BC101"), (w, "BC101"), (line_of(SAME_SIZE_TILES, "grid = N //"), "BC302")]


SUBTILES = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def quant(x_ptr, s_ptr, L, BLK: tl.constexpr):
    offs = tl.program_id(0) * BLK + tl.arange(0, BLK)
    x = tl.load(x_ptr + offs, mask=offs < L, other=0.0)
    tl.store(s_ptr + tl.program_id(0), tl.max(tl.abs(x), axis=0))


def run(x, BLKQ=128, WARPQ=32):
    L = x.numel()
    s = torch.empty(GRID, device=x.device)
    quant[(GRID,)](x, s, L, BLK=WARPQ)
    return s
'''


def test_a_floor_of_a_tile_the_grid_cuts_its_extent_into_counts_subtiles() -> None:
    src = SUBTILES.replace("GRID", "(L + BLKQ - 1) // BLKQ * (BLKQ // WARPQ)")
    assert _findings(src, Language.TRITON) == []
    src = SUBTILES.replace("GRID", "triton.cdiv(L, BLKQ) * (BLKQ // WARPQ)")
    assert _findings(src, Language.TRITON) == []


def test_a_floor_of_the_extent_itself_is_reported() -> None:
    src = SUBTILES.replace("GRID", "L // WARPQ")
    assert _findings(src, Language.TRITON) == [(line_of(src, "quant[("), "BC302")]
