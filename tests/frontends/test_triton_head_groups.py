"""A head of a row, ``row * (H * S) + h * S + arange(0, S)``, stays inside its row only where the
code bounds ``h`` by ``H`` (``x % H``, or a grid dimension launched as ``H``) and the row index
counts rows (no ceiling grid). The same text with ``h`` a member of a group of tiles per program
(``cdiv(n, GROUP * BLOCK)`` programs) is a partial last group and stays reported."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of

_HEAD = "import torch\nimport triton\nimport triton.language as tl\n\n\n"


def _src(body: str) -> str:
    return _HEAD + textwrap.dedent(body)


_ROWS_OF_HEADS = '''\
    @triton.jit
    def k(x_ptr, out_ptr, num_heads, S: tl.constexpr):
        row = tl.program_id(0)
        head = tl.program_id(1)
        offs = row * (num_heads * S) + head * S + tl.arange(0, S)
        x = tl.load(x_ptr + offs)
        tl.store(out_ptr + offs, x * 2)


    def launch(x, out, n_rows, n_heads, head_size):
        k[GRID](x, out, num_heads=n_heads, S=head_size)
    '''


def test_a_head_whose_grid_dimension_is_the_head_count_stays_in_its_row() -> None:
    src = _src(_ROWS_OF_HEADS.replace("GRID", "(n_rows, n_heads)"))
    assert findings(src) == []


def test_a_head_grid_dimension_other_than_the_pitch_count_is_still_reported() -> None:
    src = _src(_ROWS_OF_HEADS.replace("GRID", "(n_rows, n_heads + 1)"))
    assert findings(src) == [(line_of(src, "tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")]


def test_a_group_of_tiles_under_a_ceiling_grid_is_still_reported() -> None:
    src = _src('''\
        @triton.jit
        def k(x_ptr, out_ptr, n, GROUP, BLOCK: tl.constexpr):
            pid = tl.program_id(0)
            u = tl.program_id(1)
            offs = pid * (GROUP * BLOCK) + u * BLOCK + tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, tl.load(x_ptr + offs))


        def launch(x, out, n, group):
            k[(triton.cdiv(n, group * 128), group)](x, out, n, group, BLOCK=128)
        ''')
    assert findings(src) == [(line_of(src, "tl.store("), "BC101"), (line_of(src, "tl.store("), "BC102")]


def test_a_group_member_walked_by_a_loop_is_still_reported() -> None:
    src = _src('''\
        @triton.jit
        def k(x_ptr, out_ptr, n, GROUP: tl.constexpr, BLOCK: tl.constexpr):
            pid = tl.program_id(0)
            for u in range(GROUP):
                offs = pid * (GROUP * BLOCK) + u * BLOCK + tl.arange(0, BLOCK)
                tl.store(out_ptr + offs, tl.load(x_ptr + offs))


        def launch(x, out, n):
            k[(n,)](x, out, n, GROUP=4, BLOCK=128)
        ''')
    assert findings(src) == [(line_of(src, "tl.store("), "BC101"), (line_of(src, "tl.store("), "BC102")]


_QUERY_GROUPS = '''\
    @triton.jit
    def k(lse, T, H: tl.constexpr, HQ: tl.constexpr, G: tl.constexpr):
        i_t, i_bh = tl.program_id(0), tl.program_id(1)
        i_b, i_h = i_bh // H, i_bh % H
        tl.store(lse + (i_b * T + i_t) * HQ + i_h * G + tl.arange(0, G), tl.zeros([G], dtype=tl.float32))


    def launch(q, k_):
        B, T, HQ = q.shape[0], q.shape[1], q.shape[2]
        H = k_.shape[2]
        G = GROUPS
        lse = torch.empty(B, T, HQ, dtype=torch.float, device=q.device)
        k[(T, B * H)](lse, T, H=H, HQ=HQ, G=G)
    '''


def test_query_groups_of_a_floor_divided_head_count_stay_in_their_row() -> None:
    """G = HQ // H and i_h = i_bh % H: i_h * G + G <= H * (HQ // H) <= HQ, whatever the remainder."""
    src = _src(_QUERY_GROUPS.replace("GROUPS", "HQ // H"))
    assert findings(src) == []


def test_query_groups_rounded_up_are_still_reported() -> None:
    src = _src(_QUERY_GROUPS.replace("GROUPS", "triton.next_power_of_2(HQ // H)"))
    assert findings(src) == [(line_of(src, "tl.store("), "BC102")]


_WHOLE_ROWS = '''\
    @triton.jit
    def k(s, o, M: tl.constexpr):
        i = tl.program_id(0)
        b_s = tl.load(s + i * M + tl.arange(0, M))
        tl.store(o + i, tl.sum(b_s, 0))


    def launch(s, g):
        SIZES
        o = torch.empty(s.shape[0], device=s.device)
        k[(s.shape[0],)](s, o, M=M)
    '''


def test_a_tile_passed_as_the_tensors_last_dimension_spans_its_rows() -> None:
    for sizes in ("N, M = s.shape[0], s.shape[-1]", "B, T, M = *s.shape,", "B, M = *g.shape[:1], s.size(-1)"):
        src = _src(_WHOLE_ROWS.replace("SIZES", sizes))
        assert findings(src) == [], sizes


def test_a_tile_passed_as_another_dimension_is_still_reported() -> None:
    for sizes in ("M = g.shape[-1]", "M = s.shape[1]", "B, M, T = *s.shape,"):
        src = _src(_WHOLE_ROWS.replace("SIZES", sizes))
        assert findings(src) == [(line_of(src, "tl.load("), "BC101")], sizes


def test_a_constant_step_past_the_head_or_row_start_is_still_reported() -> None:
    src = _src(_ROWS_OF_HEADS.replace("GRID", "(n_rows, n_heads)").replace("tl.arange(0, S)", "tl.arange(0, S) + 1"))
    assert findings(src) == [(line_of(src, "tl.load("), "BC101"), (line_of(src, "tl.store("), "BC102")]
    src = _src(_WHOLE_ROWS.replace("SIZES", "M = s.shape[-1]").replace("tl.arange(0, M)", "tl.arange(0, M) + 1"))
    assert findings(src) == [(line_of(src, "tl.load("), "BC101")]


def test_a_tile_that_only_reads_like_a_floor_of_the_pitch_is_still_reported() -> None:
    """G = HQ - 1 + HQ // H renders with a ``HQ // H`` tail; it is no floor of the pitch."""
    src = _src(_QUERY_GROUPS.replace("G = GROUPS", "HQ1 = HQ - 1\n        G = HQ1 + HQ // H")
               .replace("HQ=HQ", "HQ=HQ1 + HQ"))
    assert findings(src) == [(line_of(src, "tl.store("), "BC102")]


_SAME_OFFSETS = '''\
    @triton.jit
    def k(s, g, o, M: tl.constexpr):
        i = tl.program_id(0)
        b_s = tl.load(s + i * M + tl.arange(0, M))
        b_g = tl.load(g + G_OFFSET)
        tl.store(o + i, tl.sum(b_s * b_g, 0))


    def launch(s, g):
        M = s.shape[-1]
        o = torch.empty(s.shape[0], device=s.device)
        k[(s.shape[0],)](s, g, o, M=M)
    '''


def test_a_buffer_read_at_the_same_offsets_shares_the_whole_row() -> None:
    """fla gsa fused_recurrent: ``g`` is read where ``s`` is, and M is s's last dimension."""
    assert findings(_src(_SAME_OFFSETS.replace("G_OFFSET", "i * M + tl.arange(0, M)"))) == []


def test_a_buffer_read_at_other_offsets_is_still_reported() -> None:
    for offset in ("i * M + tl.arange(0, M) + 1", "i * 2 * M + tl.arange(0, M)"):
        src = _src(_SAME_OFFSETS.replace("G_OFFSET", offset))
        assert findings(src) == [(line_of(src, "b_g = tl.load("), "BC101")], offset
