"""A finding names each dimension by the variable its index is written with: two tiles of one
``arange(0, B)`` (``offs_m``, ``offs_n``) are told apart, through the local names a pointer is built
from, and a pointer variable (``p = x + offs``) is no dimension's name."""

from __future__ import annotations

import textwrap

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings

SRC = "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent('''\
    @triton.jit
    def dequant(x_ptr, y_ptr, M, N, BLOCK: tl.constexpr):
        offs_m = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        offs_n = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
        offs = offs_m[:, None] * N + offs_n[None, :]
        mask = offs_m[:, None] < M
        x = tl.load(x_ptr + offs, mask=mask)
        p = y_ptr + offs
        tl.store(p, x * 2, mask=mask)
    ''')


def test_the_unbounded_axis_is_named_by_its_own_variable() -> None:
    found, _ = check_source("k.py", Language.TRITON, SRC, Settings())
    messages = [f.message for f in found]
    assert [f.code for f in found] == ["BC103", "BC103"]
    for message in messages:
        assert "bounded along `offs_m`" in message and "not along `offs_n`" in message
        assert "add `offs_n < <extent>`" in message
