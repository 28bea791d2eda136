"""BC302 on grids the launch does not spell out: held in locals, ``dim3`` members, grid functions,
branches, argument packs; and the contracts that make them exact."""

from __future__ import annotations

import pytest

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, language: Language) -> list[tuple[int, str]]:
    path = "k.cu" if language is Language.CUDA else "k.py"
    found, _ = check_source(path, language, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


def triton(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.TRITON)


def line_of(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), start=1) if text in line)


TRANSPOSE = """\
#include <cuda_runtime.h>
#include <assert.h>
template <typename T, int BM, int BN, typename Layout>
__global__ void transpose(const T* a, T* b, int m, int n, Layout layout) {
    int r = blockIdx.y * BM + threadIdx.y;
    int c = blockIdx.x * BN + threadIdx.x;
    if (r < m && c < n) {
        b[c * m + r] = a[r * n + c];
    }
}
"""

# `tile_layout` is declared nowhere (a library the stub cannot provide): libclang drops the
# whole launch statement, whose template arguments name the layout's type.
LAYOUT_LAUNCH = TRANSPOSE + """\
void run(const float* a, float* b, int m, int n) {
    const int BM = 32;
    const int BN = 32;
    auto layout = tile_layout(BM, BN);
    dim3 block(BN, BM);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    transpose<float, BM, BN, decltype(layout)><<<grid, block>>>(a, b, m, n, layout);
}
"""


def test_a_floored_dim3_grid_of_a_launch_libclang_dropped_is_reported_on_its_definition():
    floored = LAYOUT_LAUNCH.replace("(n + BN - 1) / BN, (m + BM - 1) / BM", "n / BN, m / BM")
    line = line_of(floored, "dim3 grid(")
    assert cuda(floored) == [(line, "BC302"), (line, "BC302")]
    assert cuda(LAYOUT_LAUNCH) == []


def test_a_host_assert_before_the_dropped_launch_makes_its_floored_grid_exact():
    floored = LAYOUT_LAUNCH.replace("(n + BN - 1) / BN, (m + BM - 1) / BM", "n / BN, m / BM")
    asserted = floored.replace("    dim3 block(", "    assert(n % BN == 0 && m % BM == 0);\n    dim3 block(")
    assert cuda(asserted) == []
    one_axis = floored.replace("    dim3 block(", "    assert(n % BN == 0);\n    dim3 block(")
    assert cuda(one_axis) == [(line_of(one_axis, "dim3 grid("), "BC302")]


MEMBER_GRID = TRANSPOSE + """\
void run(const float* a, float* b, int n) {
    dim3 grid;
    grid.x = (n + 255) / 256;
    transpose<float, 1, 256, int><<<grid, 256>>>(a, b, 1, n, 0);
}
"""


def test_a_grid_set_member_by_member_is_reported_on_the_floored_assignment():
    floored = MEMBER_GRID.replace("(n + 255) / 256", "n / 256")
    assert cuda(floored) == [(line_of(floored, "grid.x ="), "BC302")]
    assert cuda(MEMBER_GRID) == []


def test_an_assume_comment_in_the_host_function_documents_the_floored_grid():
    floored = MEMBER_GRID.replace("(n + 255) / 256", "n / 256")
    assumed = floored.replace("    grid.x =", "    // boundcheck: assume n % 256 == 0\n    grid.x =")
    assert cuda(assumed) == []


INT_BLOCKS = TRANSPOSE + """\
void run(const float* a, float* b, int n) {
    int blocks = (n + 255) / 256;
    transpose<float, 1, 256, int><<<blocks, 256>>>(a, b, 1, n, 0);
}
"""


def test_a_block_count_held_in_an_integer_local_is_reported_on_its_definition():
    floored = INT_BLOCKS.replace("(n + 255) / 256", "n / 256")
    assert cuda(floored) == [(line_of(floored, "int blocks"), "BC302")]
    assert cuda(INT_BLOCKS) == []


COPY = """\
import triton
import triton.language as tl


@triton.jit
def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def copy_rows(x_ptr, y_ptr, S: tl.constexpr, BS: tl.constexpr):
    offs = tl.program_id(0) * BS + tl.arange(0, BS)
    row = tl.program_id(1) * S
    tl.store(y_ptr + row + offs, tl.load(x_ptr + row + offs, mask=offs < S), mask=offs < S)
"""


def test_a_meta_extent_that_is_compile_time_in_the_kernel_but_runtime_at_the_launch_is_a_problem_size():
    """`S: tl.constexpr` given `x.shape[-1]`: `meta["S"] // meta["BS"]` still drops the tail."""
    src = COPY + """

def launch(x, y):
    B, S = x.shape

    def grid(meta):
        return (triton.cdiv(meta["S"], meta["BS"]), B)

    copy_rows[grid](x, y, S=S, BS=64)
"""
    floored = src.replace('triton.cdiv(meta["S"], meta["BS"])', 'meta["S"] // meta["BS"]')
    assert triton(floored) == [(line_of(floored, "return ("), "BC302")]
    assert triton(src) == []
    literal = floored.replace("S=S, BS=64", "S=256, BS=64")  # a compile-time size: no tail to drop
    assert triton(literal) == []


def test_an_assert_in_the_grid_function_is_a_fact_of_the_launch():
    """`def grid(meta): assert S % meta["BS"] == 0; return (S // meta["BS"], B)`: the assert runs
    before every launch that takes this grid, so the floor drops nothing."""
    src = COPY + """

def launch(x, y):
    B, S = x.shape

    def grid(meta):
        ASSERT
        return (meta["S"] // meta["BS"], B)

    copy_rows[grid](x, y, S=S, BS=64)
"""
    unchecked = src.replace("ASSERT", "pass")
    assert triton(unchecked) == [(line_of(unchecked, "return ("), "BC302")]
    assert triton(src.replace("ASSERT", 'assert S % meta["BS"] == 0')) == []


BRANCHED = COPY + """

def launch(x, y, chunks=None):
    n = x.numel()
    BLOCK = 128
    if chunks is None:
        grid = (triton.cdiv(n, BLOCK),)
    else:
        grid = (len(chunks),)
    copy[grid](x, y, n, BLOCK=BLOCK)
"""


def test_a_grid_chosen_in_an_if_is_checked_in_each_branch():
    floored = BRANCHED.replace("triton.cdiv(n, BLOCK)", "n // BLOCK")
    assert triton(floored) == [(line_of(floored, "grid = (n // BLOCK"), "BC302")]
    assert triton(BRANCHED) == []
    asserted = floored.replace("    copy[grid]", "    assert n % BLOCK == 0\n    copy[grid]")
    assert triton(asserted) == []
    assumed = floored.replace("    copy[grid]", "    # boundcheck: assume n % BLOCK == 0\n    copy[grid]")
    assert triton(assumed) == []


def test_a_kernel_launched_through_a_local_alias_or_its_fn_is_a_launch():
    src = COPY + """

def launch(x, y, plain=False):
    n = x.numel()
    kernel = copy.fn if plain else copy
    kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
"""
    floored = src.replace("triton.cdiv(n, 256)", "n // 256")
    assert triton(floored) == [(line_of(floored, "kernel[("), "BC302")]
    assert triton(src) == []


def test_block_sizes_passed_through_an_argument_pack_are_the_grid_tiles():
    """`**args` of a local dict (built whole or key by key) and `*args` of a local tuple bind the
    block size, so a grid divided by the same literal divides by the kernel's tile."""
    packs = {
        "dict": ("    args = dict(BLOCK=BLOCK)\n", "copy[grid](x, y, n, **args)"),
        "keys": ('    args = {}\n    args["BLOCK"] = BLOCK\n', "copy[grid](x, y, n, **args)"),
        "tuple": ("    args = (x, y, n, BLOCK)\n", "copy[grid](*args[:2], *args[2:])"),
    }
    for name, (pack, call) in packs.items():
        src = COPY + f"""

def launch(x, y):
    n = x.numel()
    BLOCK = 64
{pack}    grid = (triton.cdiv(n, BLOCK),)
    {call}
"""
        floored = src.replace("triton.cdiv(n, BLOCK)", "n // BLOCK")
        assert triton(floored) == [(line_of(floored, "grid = ("), "BC302")], name
        assert triton(src) == [], name


def test_a_grid_summing_tile_counts_over_a_list_of_sizes_is_checked_per_size():
    src = COPY + """

def launch(xs, y):
    sizes = [x.numel() for x in xs]

    def grid(META):
        return (sum(triton.cdiv(s, META["BLOCK"]) for s in sizes),)

    copy[grid](xs[0], y, sizes[0], BLOCK=128)
"""
    floored = src.replace('triton.cdiv(s, META["BLOCK"])', 's // META["BLOCK"]')
    assert triton(floored) == [(line_of(floored, "return ("), "BC302")]
    assert triton(src) == []


def test_a_tile_count_named_in_the_launch_is_reported_where_it_is_divided():
    src = COPY + """

def launch(x, y):
    n = x.numel()
    nb = triton.cdiv(n, 512)
    copy[nb, 1](x, y, n, BLOCK=512)
"""
    floored = src.replace("triton.cdiv(n, 512)", "n // 512")
    assert triton(floored) == [(line_of(floored, "nb = n // 512"), "BC302")]
    assert triton(src) == []


def test_a_floored_tile_count_capped_at_the_number_of_sms_is_a_floor_grid():
    """A persistent grid `min(NUM_SMS, tiles)`: with `M // BLOCK` tiles the last partial tile has
    no program when there are fewer tiles than SMs."""
    src = COPY + """

def launch(x, y, NUM_SMS):
    M = x.numel()
    grid = lambda META: (min(NUM_SMS, triton.cdiv(M, META["BLOCK"])),)
    copy[grid](x, y, M, BLOCK=128)
"""
    floored = src.replace('triton.cdiv(M, META["BLOCK"])', 'M // META["BLOCK"]')
    assert triton(floored) == [(line_of(floored, "grid = lambda"), "BC302")]
    assert triton(src) == []


ROUNDED = '''\
import math
import torch
import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def run(x):
    y = torch.empty_like(x)
    n = x.numel()
    add[(GRID,)](x, y, n, BLOCK=1024)
'''


@pytest.mark.parametrize("grid", ["math.ceil(n // 1024)", "int(n / 1024)", "math.floor(n / 1024)"])
def test_a_grid_rounded_after_the_division_floored_it_is_a_floor(grid: str) -> None:
    src = ROUNDED.replace("GRID", grid)
    assert triton(src) == [(line_of(src, "add[("), "BC302")]


@pytest.mark.parametrize("grid", ["math.ceil(n / 1024)", "int(math.ceil(n / 1024))", "triton.cdiv(n, 1024)"])
def test_a_ceiling_of_the_true_quotient_rounds_up(grid: str) -> None:
    assert triton(ROUNDED.replace("GRID", grid)) == []


_WHOLE_MULTIPLES = '''\
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, G: tl.constexpr):
    offs = tl.program_id(0) * G + tl.arange(0, G)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def run(x, T, G):
    T_main = T // G * G
    k[(GRID,)](x, T_main, G=TILE)
'''


@pytest.mark.parametrize("grid, tile", [("T_main // G", "G"), ("triton.cdiv(T, 128) * 128 * 4 // 256", "256")])
def test_a_floor_of_a_multiple_of_the_tile_drops_nothing(grid: str, tile: str) -> None:
    # sglang's sparse MLA prefill launches `T_main // G` programs over `T_main = T // G * G`
    src = _WHOLE_MULTIPLES.replace("GRID", grid).replace("TILE", tile)
    assert triton(src) == []


@pytest.mark.parametrize("grid, tile", [("T // G", "G"), ("triton.cdiv(T, 128) * 128 * 4 // 1024", "1024")])
def test_a_floor_of_something_else_is_still_reported(grid: str, tile: str) -> None:
    src = _WHOLE_MULTIPLES.replace("GRID", grid).replace("TILE", tile)
    assert triton(src) == [(line_of(src, "k[("), "BC302")]
