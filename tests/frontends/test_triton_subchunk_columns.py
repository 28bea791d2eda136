"""A sub-chunk column ``(i_c % NC) * BC + arange(0, BC)`` inside rows of BT elements is in bounds
when every launch passes NC = cdiv(BT, BC) and the host makes BT a multiple of BC (literals, or
``BC = min(16, BT)`` with BT a power of two in the module); otherwise it stays a finding."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of

KERNEL = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def intra_kernel(a, out, T, H: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr, NC: tl.constexpr):
        i_c, i_bh = tl.program_id(0), tl.program_id(1)
        i_t, i_i = i_c // NC, SUBCHUNK
        i_h = i_bh % H
        if i_t * BT + i_i * BC >= T:
            return
        o_a = (i_t * BT + i_i * BC) * H * BT + i_h * BT + i_i * BC + tl.arange(0, BC)
        for j in range(0, tl.minimum(BC, T - i_t * BT - i_i * BC)):
            b_a = tl.load(a + o_a + j * H * BT)
            tl.store(out + o_a + j * H * BT, b_a * 2)


    def intra(a, chunk_size: int = 64):
        B, T, H, _ = a.shape
    HOST
        NT = triton.cdiv(T, BT)
        NC = COUNT
        out = a.new_empty(a.shape)
        intra_kernel[(NT * NC, B * H)](a, out, T, H=H, BT=BT, BC=BC, NC=NC)
        return out
    ''')

LITERALS = "    BT, BC = 64, 16\n"
MIN_OF_POW2 = "    BT = chunk_size\n    BC = min(16, BT)\n"
CHECKED = textwrap.dedent('''\


    def run(a, chunk_size=None):
        if chunk_size is not None and chunk_size != 2 ** (chunk_size.bit_length() - 1):
            raise ValueError("chunk_size must be a power of 2")
        return intra(a, chunk_size=chunk_size or 64)
    ''')
COMPUTED = textwrap.dedent('''\


    def run(a):
        chunk_size = min(64, max(16, triton.next_power_of_2(a.shape[1])))
        return intra(a, chunk_size=chunk_size)
    ''')


def _src(host: str, count: str = "triton.cdiv(BT, BC)", sub: str = "i_c % NC", tail: str = "") -> str:
    return KERNEL.replace("HOST\n", host).replace("COUNT", count).replace("SUBCHUNK", sub) + tail


def _lines(src: str) -> list[tuple[int, str]]:
    return [(line_of(src, "b_a = tl.load("), "BC101"), (line_of(src, "tl.store(out"), "BC102")]


def test_literal_chunk_sizes_keep_the_column_in_its_row() -> None:
    assert findings(_src(LITERALS)) == []


def test_a_floor_count_of_literal_sizes_keeps_the_column_in_its_row() -> None:
    assert findings(_src(LITERALS, count="BT // BC")) == []


def test_min_of_a_checked_power_of_two_keeps_the_column_in_its_row() -> None:
    assert findings(_src(MIN_OF_POW2, tail=CHECKED)) == []


def test_min_of_a_computed_power_of_two_keeps_the_column_in_its_row() -> None:
    assert findings(_src(MIN_OF_POW2, tail=COMPUTED)) == []


def test_literal_sizes_that_do_not_divide_are_reported() -> None:
    src = _src("    BT, BC = 48, 32\n")
    assert findings(src) == _lines(src)


def test_a_chunk_size_nothing_makes_a_multiple_is_reported() -> None:
    src = _src("    BT = chunk_size\n    BC = 16\n", tail=CHECKED)
    assert findings(src) == _lines(src)


def test_min_of_an_unchecked_chunk_size_is_reported() -> None:
    src = _src(MIN_OF_POW2)
    assert findings(src) == _lines(src)


def test_a_chunk_size_also_set_to_another_number_is_reported() -> None:
    src = _src(MIN_OF_POW2, tail=COMPUTED + "\n\ndef run48(a):\n    chunk_size = 48\n    return intra(a, chunk_size=chunk_size)\n")
    assert findings(src) == _lines(src)


def test_a_sub_chunk_index_not_bounded_by_the_count_is_reported() -> None:
    src = _src(LITERALS, sub="i_c % (2 * NC)")
    assert findings(src) == _lines(src)


def test_a_count_that_is_no_quotient_of_the_sizes_is_reported() -> None:
    src = _src(LITERALS, count="8")
    assert findings(src) == _lines(src)


def test_a_column_shifted_past_its_sub_chunk_is_reported() -> None:
    src = _src(LITERALS).replace("i_i * BC + tl.arange(0, BC)", "i_i * BC + 1 + tl.arange(0, BC)")
    assert findings(src) == _lines(src)


def test_min_of_an_asserted_power_of_two_keeps_the_column_in_its_row() -> None:
    tail = "\n\ndef run(a, chunk_size=64):\n    assert chunk_size & (chunk_size - 1) == 0\n" \
        "    return intra(a, chunk_size=chunk_size)\n"
    assert findings(_src(MIN_OF_POW2, tail=tail)) == []


def test_a_check_that_raises_for_powers_of_two_proves_nothing() -> None:
    tail = "\n\ndef run(a, chunk_size=64):\n    if chunk_size & (chunk_size - 1) == 0:\n" \
        "        raise ValueError('odd')\n    return intra(a, chunk_size=chunk_size)\n"
    src = _src(MIN_OF_POW2, tail=tail)
    assert findings(src) == _lines(src)


DISPATCH = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def diag_kernel(A, Ai, chunks, T, H: tl.constexpr, BT: tl.constexpr):
        i_t, i_bh = tl.load(chunks + tl.program_id(0)), tl.program_id(1)
        i_b, i_h = i_bh // H, i_bh % H
        o_i = tl.arange(0, 16)
        A = A + (i_b * T * H + i_h) * BT
        offset = OFFSET
        acc = tl.zeros([16], dtype=tl.float32)
        for i in range(0, tl.minimum(16, T - i_t * 16)):
            b_a = tl.load(A + (i_t * 16 + i) * H * BT + o_i + offset)
            b_a = tl.where(o_i < i, b_a, 0.0)
            acc += b_a
        o_t = i_t * 16 + o_i
        b_d = tl.load(A + o_t[:, None] * H * BT + o_i[None, :], mask=(o_t < T)[:, None], other=0.0)
        tl.store(Ai + o_t[:, None] * H * 16 + o_i[None, :], b_d + acc[None, :], mask=(o_t < T)[:, None])


    @triton.jit
    def pair_kernel(A, Ai, chunks, T, H: tl.constexpr, BT: tl.constexpr):
        i_t, i_bh = tl.load(chunks + tl.program_id(0)), tl.program_id(1)
        i_b, i_h = i_bh // H, i_bh % H
        o_i = tl.arange(0, 16)
        A = A + (i_b * T * H + i_h) * BT
        acc = tl.zeros([16], dtype=tl.float32)
        for i in range(16, tl.minimum(32, T - i_t * BT)):
            b_a = tl.load(A + (i_t * BT + i) * H * BT + o_i + SECOND)
            b_a = tl.where(o_i < i - 16, b_a, 0.0)
            acc += b_a
        o_t = i_t * BT + o_i
        b_d = tl.load(A + o_t[:, None] * H * BT + o_i[None, :], mask=(o_t < T)[:, None], other=0.0)
        tl.store(Ai + o_t[:, None] * H * 16 + o_i[None, :], b_d + acc[None, :], mask=(o_t < T)[:, None])


    def invert(A, chunks):
        B, T, H, BT = A.shape
        Ai = A.new_zeros(B, T, H, 16)
        if BT == 16:
            fn = diag_kernel
        elif BT == PAIR:
            fn = pair_kernel
        fn[chunks.numel(), B * H](A, Ai, chunks, T, H=H, BT=BT)
        return Ai
    ''')


def _dispatch(offset: str = "(i_t * 16) % BT", second: str = "16", pair: str = "32") -> str:
    return DISPATCH.replace("OFFSET", offset).replace("SECOND", second).replace("PAIR", pair)


def test_columns_inside_the_row_length_the_dispatching_branch_fixes_are_in_bounds() -> None:
    assert findings(_dispatch()) == []


def test_a_column_past_the_row_length_the_branch_fixes_is_reported() -> None:
    src = _dispatch(second="32")
    assert findings(src) == [(line_of(src, "o_i + 32)"), "BC101")]


def test_a_wrap_of_steps_smaller_than_the_tile_is_reported() -> None:
    src = _dispatch(offset="(i_t * 8) % BT")
    assert findings(src) == [(line_of(src, "o_i + offset)"), "BC101")]


def test_without_a_dispatch_on_the_row_length_the_columns_are_reported() -> None:
    chain = "    if BT == 16:\n        fn = diag_kernel\n    elif BT == 32:\n        fn = pair_kernel\n"
    assert chain in _dispatch()
    src = _dispatch().replace(chain, "    fn = pair_kernel\n")
    assert findings(src) == [(line_of(src, "o_i + offset)"), "BC101"), (line_of(src, "o_i + 16)"), "BC101")]


def test_a_branch_that_fixes_a_shorter_row_is_reported() -> None:
    src = _dispatch(pair="24")
    assert findings(src) == [(line_of(src, "o_i + 16)"), "BC101")]
