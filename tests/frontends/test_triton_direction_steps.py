"""A chunk counter carried through a loop and stepped by a compile-time direction (``i_t += 1 if not
REVERSE else -1``, as fla's recurrent backward kernels walk time forwards or backwards) walks one
chunk per iteration either way: the rows it offsets are tiled by the loop, and the last chunk is
partial, so a mask that bounds only the columns is a partial guard."""

from __future__ import annotations

import textwrap

from tests.checking import at, findings

_KERNEL = "import triton\nimport triton.language as tl\n\n\n" + textwrap.dedent('''\
    @triton.jit
    def k(x, y, T, K: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr, REVERSE: tl.constexpr):
        o_i = tl.arange(0, BT)
        o_k = tl.program_id(0) * BK + tl.arange(0, BK)
        m_k = o_k < K
        NT = tl.cdiv(T, BT)
        i_t = 0 if not REVERSE else NT - 1
        for _ in range(NT):
            o_t = i_t * BT + o_i
            m_t = MASK
            p = o_t[:, None] * K + o_k[None, :]
            tl.store(y + p, tl.load(x + p, mask=m_t, other=0.0) * 2, mask=m_t)
            i_t += STEP
    ''')


def _kernel(mask: str, step: str) -> str:
    return _KERNEL.replace("MASK", mask).replace("STEP", step)


def test_rows_a_direction_step_walks_are_tiled_by_the_loop() -> None:
    for step in ("1 if not REVERSE else -1", "(-1 if REVERSE else 1)", "1"):
        src = _kernel("m_k[None, :]", step)
        assert findings(src) == at(src, "tl.store(y + p", "BC103", "BC103"), step


def test_rows_bounded_by_the_chunk_mask_are_clean() -> None:
    for step in ("1 if not REVERSE else -1", "1"):
        src = _kernel("(o_t[:, None] < T) & m_k[None, :]", step)
        assert findings(src) == [], step
