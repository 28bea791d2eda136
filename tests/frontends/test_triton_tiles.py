"""Tiled Triton accesses the frontend used to see as safe: loops stepped up to a compile-time
extent, clamped writes, and branches selected by a program id. Each unsafe kernel is paired with
its guarded twin, and the rule code and line are asserted."""

from __future__ import annotations

from tests.checking import findings, line_of

# A row of N (a vocabulary, compiled per value) walked in tiles of BLOCK_N: the last is partial.
# The masked zero fill of skipped rows is no peeled tail of the other loop.
CONSTEXPR_ROW = """\
import triton
import triton.language as tl


@triton.jit
def scale_rows(x_ptr, y_ptr, skip_ptr, stride, N: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    y_ptr += row * stride
    if tl.load(skip_ptr + row) != 0:
        for start in range(0, N, BLOCK_N):
            cols = start + tl.arange(0, BLOCK_N)
            tl.store(y_ptr + cols, 0.0, mask=cols < N)
        return
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + cols, x * 2.0{mask})
"""


def test_a_loop_stepped_up_to_a_constexpr_extent_runs_the_partial_tile() -> None:
    src = CONSTEXPR_ROW.format(mask="")
    assert findings(src) == [(line_of(src, "x * 2.0"), "BC102")]


def test_the_masked_write_in_that_loop_is_safe() -> None:
    assert findings(CONSTEXPR_ROW.format(mask=", mask=cols < N")) == []


def test_a_constexpr_extent_passed_as_a_number_at_every_launch_is_the_authors_size() -> None:
    """Every launch passes N=4096: the author chose a size of whole tiles and peeled nothing."""
    src = CONSTEXPR_ROW.format(mask="") + """

def launch(x, y, skip):
    scale_rows[(x.shape[0],)](x, y, skip, x.stride(0), N=4096, BLOCK_N=1024)
"""
    assert findings(src) == []


# Lanes past the end are clamped onto the last row: fine for a read, not for a write.
CLAMPED = """\
import triton
import triton.language as tl


@triton.jit
def clamped(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    safe = tl.minimum(offs, n - 1)
    x = tl.load(x_ptr + safe)
    acc = tl.where(offs < n, x * 2.0, 0.0)
    tl.store(y_ptr + safe, acc{mask})
"""


def test_a_write_through_a_clamped_index_is_unguarded() -> None:
    src = CLAMPED.format(mask="")
    assert findings(src) == [(line_of(src, "tl.store"), "BC102")]


def test_a_masked_write_through_a_clamped_index_is_safe() -> None:
    assert findings(CLAMPED.format(mask=", mask=offs < n")) == []


def test_a_read_through_a_clamped_index_stays_safe() -> None:
    src = CLAMPED.format(mask=", mask=offs < n").replace("tl.load(x_ptr + safe)", "tl.load(x_ptr + safe) + 1.0")
    assert findings(src) == []


# One extra program (pid == E) scans the E counters in tiles: the test names the program, it
# does not make E a multiple of the tile.
EXTRA_PROGRAM = """\
import triton
import triton.language as tl


@triton.jit
def offsets(counts_ptr, offs_ptr, E: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid == E:
        total = 0
        for start in tl.static_range(0, E, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            c = tl.load(counts_ptr + offs, mask=offs < E, other=0)
            tl.store(offs_ptr + offs, tl.cumsum(c, 0) - c + total{mask})
            total += tl.sum(c, 0)
"""


def test_a_branch_on_a_program_id_equal_to_an_extent_is_no_divisibility() -> None:
    src = EXTRA_PROGRAM.format(mask="")
    assert findings(src) == [(line_of(src, "tl.store"), "BC102")]


def test_the_masked_scan_of_the_extra_program_is_safe() -> None:
    assert findings(EXTRA_PROGRAM.format(mask=", mask=offs < E")) == []


def test_a_branch_on_an_extent_equal_to_the_tile_is_still_a_contract() -> None:
    src = """\
import triton
import triton.language as tl


@triton.jit
def one_tile(x_ptr, y_ptr, d, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_D)
    if d == BLOCK_D:
        tl.store(y_ptr + pid * d + cols, tl.load(x_ptr + pid * d + cols))
    else:
        tl.store(y_ptr + pid * d + cols, tl.load(x_ptr + pid * d + cols, mask=cols < d, other=0.0),
                 mask=cols < d)
"""
    assert findings(src) == []


# Under IS_VARLEN the chunk index comes from a table; otherwise it is the program id. Either way
# it numbers tiles of BT along T, and the last may be partial.
VARLEN_CHUNK = """\
import triton
import triton.language as tl


@triton.jit
def cumsum_chunk(g, o, cu_seqlens, chunk_indices, T, H: tl.constexpr, BT: tl.constexpr,
                 IS_VARLEN: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    if IS_VARLEN:
        i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        T = eos - bos
    else:
        bos, eos = i_b * T, i_b * T + T
    p_g = tl.make_block_ptr(g + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    p_o = tl.make_block_ptr(o + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_g = tl.load(p_g, boundary_check=(0,)).to(tl.float32)
    tl.store(p_o, tl.cumsum(b_g, axis=0){check})
"""


def test_a_chunk_index_loaded_in_one_branch_still_tiles_the_block_pointer() -> None:
    src = VARLEN_CHUNK.format(check="")
    assert findings(src) == [(line_of(src, "tl.store(p_o"), "BC102")]


def test_the_boundary_checked_store_of_that_chunk_is_safe() -> None:
    assert findings(VARLEN_CHUNK.format(check=", boundary_check=(0,)")) == []



def test_a_host_equality_about_something_the_kernel_is_not_given_is_no_contract() -> None:
    """``x.ndim == 2`` (with a block size of 2 that divides it) says nothing about ``n``."""
    src = """\
import torch
import triton
import triton.language as tl


@triton.jit
def diag_sum(x_ptr, out_ptr, n, step, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n // BLOCK):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs * step, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def trace(x):
    if x.ndim != 2:
        raise RuntimeError("trace expects a matrix")
    out = torch.empty((), device=x.device)
    diag_sum[(1,)](x, out, min(x.shape), x.stride(0) + x.stride(1), BLOCK=2)
    return out
"""
    assert findings(src) == [(line_of(src, "for i in range"), "BC301")]


# A persistent grid-stride loop over row blocks of a compile-time row count.
GRID_STRIDE = """\
import triton
import triton.language as tl


@triton.jit
def row_scale(x_ptr, y_ptr, stride, n_rows: tl.constexpr, n_cols, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    grid_stride = tl.num_programs(0) * BLOCK_M
    num_iterations = {trips}
    cols = tl.arange(0, BLOCK_N)
    for i in range(num_iterations):
        rows = i * grid_stride + pid * BLOCK_M + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
        tl.store(y_ptr + rows[:, None] * stride + cols[None, :], x * 2.0, mask=mask)
"""


def test_a_floor_of_a_constexpr_row_count_by_the_grid_stride_skips_rows() -> None:
    src = GRID_STRIDE.format(trips="n_rows // grid_stride")
    assert findings(src) == [(line_of(src, "for i in range"), "BC301")]


def test_the_ceiling_grid_stride_loop_is_safe() -> None:
    assert findings(GRID_STRIDE.format(trips="tl.cdiv(n_rows, grid_stride)")) == []


def test_a_host_divisibility_by_a_parameter_that_is_no_tile_leaves_the_floor_unguarded() -> None:
    """``T % G == 0`` (G groups per sequence) says nothing about ``T % BT``."""
    src = """\
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_sum(x_ptr, out_ptr, T, G: tl.constexpr, BT: tl.constexpr):
    acc = tl.zeros((BT,), dtype=tl.float32)
    for i_t in range(T // BT):
        o_t = i_t * BT + tl.arange(0, BT)
        acc += tl.load(x_ptr + o_t * G, mask=o_t < T, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def chunk_sum_host(x, groups):
    T = x.shape[0]
    assert T % groups == 0, "T must be divisible by the number of groups"
    out = torch.empty((), device=x.device)
    chunk_sum[(1,)](x, out, T, G=groups, BT=64)
    return out
"""
    assert findings(src) == [(line_of(src, "for i_t in range"), "BC301")]


# A loop over the whole tiles of a row, then the last, masked, at the offsets the loop advanced
# (aiter fp8_mqa_logits): the tail is peeled, not skipped.
PEELED = """\
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ptrs = x_ptr + offs
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for _ in tl.range(0, n // BLOCK * BLOCK, BLOCK):
        acc += tl.load(ptrs)
        ptrs += BLOCK
        offs += BLOCK
    acc += tl.load(TAIL, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, 0))
"""


def test_a_masked_tile_at_the_offsets_a_floor_loop_advanced_is_its_peeled_tail() -> None:
    assert findings(PEELED.replace("TAIL", "ptrs")) == []


def test_a_masked_tile_elsewhere_leaves_the_floor_reported() -> None:
    src = PEELED.replace("TAIL", "x_ptr + tl.arange(0, BLOCK)")
    assert findings(src) == [(line_of(src, "for _ in"), "BC301")]


def test_a_load_accumulated_in_a_loop_is_one_access_made_in_the_walk() -> None:
    """``acc += tl.load(…)`` is data, not an advance: reading it for the loop's carried values made
    a second access before the loop variable was bound, with whatever ``o`` held before the loop."""
    from boundcheck.frontends.triton import parse_module

    src = """\
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n, BLOCK):
        o = i + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + o, mask=o < n, other=0.0)
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)
"""
    (kernel,) = parse_module("k.py", src).kernels
    reads = [a for a in kernel.accesses if a.span.line == line_of(src, "acc += tl.load(")]
    assert len(reads) == 1 and reads[0].within


# vllm's fused MoE: `a_ptrs` is set under `if SWAP_AB:`, a later `if SWAP_AB: a = a.T` in another
# branch sets only `a`, and the load under a third `elif SWAP_AB:` reads the first arm's pointer
_SWAPPED = '''\
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, o_ptr, K, M, s_m, s_k, BM: tl.constexpr, BK: tl.constexpr, SWAP: tl.constexpr, TMA: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_k = tl.arange(0, BK)
    m_mask = offs_m < M
    if SWAP:
        a_ptrs = a_ptr + offs_k[:, None] * s_k + offs_m[None, :] * s_m
    else:
        a_ptrs = a_ptr + offs_m[:, None] * s_m + offs_k[None, :] * s_k
    acc = tl.zeros((BK, BM), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        if TMA:
            a = tl.zeros((BM, BK), dtype=tl.float32)
            if SWAP:
                a = a.T
        elif SWAP:
            a = tl.load(a_ptrs, mask=(MASK) & m_mask[None, :], other=0.0)
        else:
            a = tl.load(a_ptrs, mask=m_mask[:, None] & (offs_k[None, :] < K - k * BK), other=0.0).T
        acc += a
        a_ptrs += BK * s_k
    tl.store(o_ptr + offs_k[:, None] * M + offs_m[None, :], acc, mask=m_mask[None, :] & (offs_k[:, None] < K))
'''


def test_a_pointer_set_under_a_flag_keeps_that_arm_past_another_test_of_the_flag() -> None:
    assert findings(_SWAPPED.replace("MASK", "offs_k[:, None] < K - k * BK")) == []


def test_that_pointer_masked_along_the_wrong_axis_is_still_reported() -> None:
    src = _SWAPPED.replace("MASK", "offs_k[None, :] < K - k * BK")
    assert findings(src) == [(line_of(src, "mask=(offs_k[None, :]"), "BC103")]
