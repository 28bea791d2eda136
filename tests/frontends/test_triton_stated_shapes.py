"""What authors state about sizes, read where they state it: a kernel docstring's ``assert`` line or
sentence and a kernel ``assert`` (preconditions, as a contract must be), a launch's ``x.stride(3)`` into a tensor
whose shape is allocated or asserted on the host, a grid or trip count divided by 1, and a scalar
``tl.where`` choosing between 0 and a ceiling numerator. Each beside a near variant still reported."""

from __future__ import annotations

from tests.checking import findings, line_of

K_LOOP = '''\
import triton
import triton.language as tl


@triton.jit
def dot_k(a_ptr, b_ptr, c_ptr, K, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """Partial dot products over K.

{doc}
    """
{pre}    offs_k = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = 0.0
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        a = tl.load(a_ptr + offs_k)
        acc += tl.sum(a)
        a_ptr += BLOCK_K * SPLIT_K
    tl.store(c_ptr + tl.program_id(1), acc)
'''


def _k_loop(doc: str = "", pre: str = "") -> str:
    return K_LOOP.format(doc=doc, pre=pre)


def test_a_docstring_assert_is_a_contract() -> None:
    assert findings(_k_loop(doc="    assert K % (BLOCK_K * SPLIT_K) == 0")) == []


def test_a_docstring_sentence_stating_the_divisibility_is_a_contract() -> None:
    assert findings(_k_loop(doc="    K must be a multiple of BLOCK_K * SPLIT_K.")) == []


def test_a_kernel_assert_is_a_contract() -> None:
    assert findings(_k_loop(pre="    assert K % BLOCK_K == 0\n")) == []


def test_conditional_prose_and_other_asserts_are_no_contract() -> None:
    for doc in ("    If K is a multiple of BLOCK_K, no mask is needed.", "    assert K > 0",
                "    # assert K % BLOCK_K == 0"):
        src = _k_loop(doc=doc)
        assert findings(src) == [(line_of(src, "a = tl.load(a_ptr + offs_k)"), "BC101")], doc


STRIDED = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def tri_kernel(seq_ptr, x_ptr, out_ptr, S, stride_xb, stride_xr, stride_xc, stride_b, stride_r, stride_c,
               CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, CHUNK)
    s = tl.load(seq_ptr + pid * S + offs, mask=offs < S, other=0.0)  # a row of S <= CHUNK
    x = tl.load(x_ptr + pid * stride_xb + offs[:, None] * stride_xr + offs[None, :] * stride_xc)
    tl.store(out_ptr + pid * stride_b + offs[:, None] * stride_r + offs[None, :] * stride_c, x + s[:, None])


def tri(seq, x, chunk):
    n, S = seq.shape
{host}    tri_kernel[(n,)](seq, x, out, S, x.stride(0), x.stride(1), x.stride(2),
                     out.stride(0), out.stride(1), out.stride(2), chunk)
    return out
'''


def test_strides_of_a_tensor_allocated_in_chunks_name_whole_dimensions() -> None:
    src = STRIDED.format(host="    out = torch.zeros(n, chunk, chunk, device=x.device)\n"
                              "    assert x.shape == (n, chunk, chunk)\n")
    assert findings(src) == []


def test_an_asserted_shape_needs_the_tile_as_its_size() -> None:
    src = STRIDED.format(host="    out = torch.zeros(n, chunk, chunk, device=x.device)\n"
                              "    assert x.shape == (n, chunk - 1, chunk)\n")
    assert findings(src) == [(line_of(src, "x = tl.load("), "BC101")]


def test_a_stride_of_another_tensor_names_no_dimension() -> None:
    src = STRIDED.format(host="    out = torch.zeros(n, chunk, chunk, device=x.device)\n"
                              "    assert x.shape == (n, chunk, chunk)\n").replace("x.stride(1)", "out.stride(1)")
    assert findings(src) == [(line_of(src, "x = tl.load("), "BC101")]


def test_a_tensor_of_unstated_shape_is_reported() -> None:
    src = STRIDED.format(host="    out = torch.empty_like(x)\n")
    assert (line_of(src, "x = tl.load("), "BC101") in findings(src)
    assert (line_of(src, "tl.store(out_ptr"), "BC102") in findings(src)


GRID = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def row_kernel(x_ptr, M, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_K)
    mask = (rows[:, None] < M) & (cols[None, :] < K)
    x = tl.load(x_ptr + rows[:, None] * K + cols[None, :], mask=mask, other=0.0)
    tl.store(x_ptr + rows[:, None] * K + cols[None, :], x * 2, mask=mask)


def run(x):
    M, K = x.shape
    BLOCK_M = {block}
    row_kernel[(M // BLOCK_M,)](x, M, K, BLOCK_M, triton.next_power_of_2(K))
'''


def test_a_grid_divided_by_one_drops_nothing() -> None:
    assert findings(GRID.format(block=1)) == []


def test_a_grid_divided_by_a_larger_tile_is_reported() -> None:
    src = GRID.format(block=4)
    assert findings(src) == [(line_of(src, "row_kernel[(M // BLOCK_M,)]"), "BC302")]


TRIP = '''\
import triton
import triton.language as tl


@triton.jit
def reduce_blocks(Lens, Mid, Out, stride, BLOCK_SEQ: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(Lens + b)
    blocks = tl.where(n <= 0, 0, {numerator}) // BLOCK_SEQ
    acc = 0.0
    for i in range(0, blocks, 1):
        acc += tl.load(Mid + b * stride + i)
    tl.store(Out + b, acc)
'''


def test_a_scalar_choice_of_zero_or_a_ceiling_is_no_floor() -> None:
    assert findings(TRIP.format(numerator="n + BLOCK_SEQ - 1")) == []


def test_a_scalar_choice_of_a_floor_is_reported() -> None:
    src = TRIP.format(numerator="n")
    assert findings(src) == [(line_of(src, "for i in range(0, blocks, 1):"), "BC301")]


def test_a_tensor_method_allocation_gives_a_shape() -> None:
    src = STRIDED.format(host="    out = x.new_empty((n, chunk, chunk))\n"
                              "    assert x.shape == (n, chunk, chunk)\n")
    assert findings(src) == []
    src = STRIDED.format(host="    out = x.new_empty((n, chunk, chunk - 1))\n"
                              "    assert x.shape == (n, chunk, chunk)\n")
    assert findings(src) == [(line_of(src, "tl.store(out_ptr"), "BC102")]


TILES_2D = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def copy_2d(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


def copy(x, BM=32, BN=64):
    M, N = x.shape
{check}
    y = torch.empty_like(x)
    copy_2d[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, y, M, N, BM=BM, BN=BN)
    return y
'''


def test_each_side_of_a_raised_or_holds_after_it() -> None:
    for check in ("    if M % BM != 0 or N % BN != 0:\n        raise ValueError('tiles must be whole')",
                  "    if M % BM or not N % BN == 0:\n        raise ValueError('tiles must be whole')"):
        assert findings(TILES_2D.format(check=check)) == [], check


def test_a_raised_and_holds_neither_side() -> None:
    src = TILES_2D.format(check="    if M % BM != 0 and N % BN != 0:\n        raise ValueError('both ragged')")
    line = line_of(src, "tl.store(y_ptr")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


def test_a_launch_through_wrap_triton_carries_the_host_facts() -> None:
    wrapped = TILES_2D.replace("    copy_2d[", "    torch.library.wrap_triton(copy_2d)[")
    assert findings(wrapped.format(check="    assert M % BM == 0 and N % BN == 0")) == []
    src = wrapped.format(check="    assert M % BM == 0")
    line = line_of(src, "tl.store(y_ptr")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


PACKED = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def pack_fp4(x_ptr, q_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rp = tl.program_id(1) * (BN // 2) + tl.arange(0, BN // 2)
    lo = tl.load(x_ptr + rm[:, None] * N + 2 * rp[None, :], mask=rm[:, None] < M, other=0)
    tl.store(q_ptr + rm[:, None] * (N // 2) + rp[None, :], lo.to(tl.uint8), mask=rm[:, None] < M)


def pack(x, BM=32, BN=128):
    M, N = x.shape
{check}
    q = torch.empty((M, N // 2), dtype=torch.uint8, device=x.device)
    pack_fp4[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, q, M, N, BM=BM, BN=BN)
    return q
'''


def test_whole_tiles_make_whole_packed_tiles() -> None:
    # N % BN == 0 gives packed rows of N // 2 whole tiles of BN // 2
    assert findings(PACKED.format(check="    if N % BN != 0:\n        raise ValueError('N')")) == []
    src = PACKED.format(check="    if N % 64 != 0:\n        raise ValueError('N')")
    load, store = line_of(src, "lo = tl.load"), line_of(src, "tl.store(q_ptr")
    assert findings(src) == [(load, "BC103"), (store, "BC103")]


ROWS = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def copy_rows(y_ptr, x_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs)
    tl.store(y_ptr + row * stride + offs, x, mask=offs < n_cols)


def copy(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    copy_rows[(n_rows,)](y, x, x.stride(0), n_cols, BLOCK={block})
    return y
'''


def test_a_tile_every_launch_binds_to_the_size_is_the_whole_row() -> None:
    # `BLOCK=n_cols`: arange(0, BLOCK) spans the row (a size that is no power of two fails to compile)
    assert findings(ROWS.format(block="n_cols")) == []
    assert findings(ROWS.format(block="x.shape[1]")) == []
    for padded in ("triton.next_power_of_2(n_cols)", "128"):
        src = ROWS.format(block=padded)
        assert findings(src) == [(line_of(src, "x = tl.load"), "BC101")], padded
    # one launch of two binds the tile to a padded size
    both = ROWS.format(block="n_cols").replace(
        "    return y\n", "    copy_rows[(n_rows,)](y, x, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))\n"
                          "    return y\n")
    assert findings(both) == [(line_of(both, "x = tl.load"), "BC101")]


CHECKED = '''\
import torch
import triton
import triton.language as tl

BLOCK_N = 128


def _validate(A, block):
    if A.ndim != 2:
        raise ValueError("2-D")
    if A.shape[1] % block != 0:
        raise ValueError("columns")


@triton.jit
def scale_cols(a_ptr, o_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(a_ptr + offs, mask=rm[:, None] < M)
    tl.store(o_ptr + offs, x * 2, mask=rm[:, None] < M)


def scale(A):
    _validate(A, BLOCK_N)
    m, n = A.shape
    out = torch.empty_like(A)
    scale_cols[(triton.cdiv(m, 32), triton.cdiv(n, BLOCK_N))](A, out, m, n, BM=32, BN=BLOCK_N)
    return out
'''


def test_a_check_function_called_before_the_launch_is_a_contract() -> None:
    # `_validate(A, BLOCK_N)` raises unless A.shape[1] % BLOCK_N == 0, with n = A.shape[1] launched
    assert findings(CHECKED) == []
    other = CHECKED.replace("    _validate(A, BLOCK_N)", "    _validate(A, 64)")
    assert findings(other) == [(line_of(other, "x = tl.load"), "BC103"), (line_of(other, "tl.store(o_ptr"), "BC103")]


PACKED_K = '''\
import triton
import triton.language as tl


@triton.heuristics({"EVEN_K": lambda args: args["K"] % (args["BLOCK_K"] // 2) == 0})
@triton.jit
def packed_rowsum(a_ptr, out_ptr, K, BLOCK_K: tl.constexpr, EVEN_K: tl.constexpr):
    offs = tl.arange(0, BLOCK_K // 2)
    acc = tl.zeros((BLOCK_K // 2,), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K // 2)):
        if EVEN_K:
            a = tl.load(a_ptr + k * (BLOCK_K // 2) + offs)
        else:
            a = tl.zeros((BLOCK_K // 2,), dtype=tl.float32)
        acc += a
    tl.store(out_ptr + offs, acc)
'''


def test_a_heuristic_flag_on_a_packed_tile_names_it_as_the_kernel_does() -> None:
    # `args["BLOCK_K"] // 2` in the heuristic is the kernel's `BLOCK_K // 2`
    assert findings(PACKED_K) == []
    src = PACKED_K.replace('args["K"] % (args["BLOCK_K"] // 2) == 0', 'args["K"] % 16 == 0')
    assert findings(src) == [(line_of(src, "a = tl.load(a_ptr + k * (BLOCK_K // 2) + offs)"), "BC101")]


FUSED_QKV = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def split(qkv_ptr, q_ptr, T, stride_t, QH: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_t = tl.program_id(0)
    hq = tl.program_id(1)
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    d = tl.arange(0, BLOCK_D)
    m = (t < T)[:, None]
    x = tl.load(qkv_ptr + t[:, None] * stride_t + (hq * BLOCK_D + d)[None, :], mask=m)
    tl.store(q_ptr + t[:, None] * (QH * BLOCK_D) + (hq * BLOCK_D + d)[None, :], x, mask=m)


def run(qkv, qh, kvh, head_dim):
    T = qkv.shape[0]
    q_size = qh * head_dim
    kv_size = kvh * head_dim
    CHECK
    q = torch.empty((T, qh, head_dim), dtype=qkv.dtype, device=qkv.device)
    BLOCK_D = head_dim
    split[(triton.cdiv(T, 32), triton.cdiv(q_size, BLOCK_D))](qkv, q, T, qkv.stride(0), QH=qh, BLOCK_T=32, BLOCK_D=BLOCK_D)
    return q
'''


def test_a_row_asserted_as_a_sum_of_head_multiples_holds_whole_heads() -> None:
    # the head axis is a ceiling of q_size by the tile, so only the asserted row bounds it (a grid
    # of `qh` programs would count whole heads: tests/frontends/test_triton_whole_items.py)
    # aiter fused_qkv_split: the qkv row is qh + 2 * kvh heads of head_dim, the tile head_dim
    assert findings(FUSED_QKV.replace("CHECK", "assert qkv.shape[-1] == q_size + 2 * kv_size")) == []


def test_a_sum_with_a_term_that_is_no_multiple_says_nothing() -> None:
    src = FUSED_QKV.replace("CHECK", "assert qkv.shape[-1] == q_size + 2 * kvh")
    assert findings(src) == [(line_of(src, "x = tl.load(qkv_ptr"), "BC103")]
