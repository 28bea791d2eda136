"""Block pointers moved with ``tl.advance`` / ``p.advance`` outside a loop's walk. Each unsafe
kernel is paired with its safe twin, and the rule code and line are asserted."""

from __future__ import annotations

from tests.checking import findings, line_of

ADVANCED = """\
import triton
import triton.language as tl


@triton.jit
def copy_rows(q_ptr, o_ptr, q_len, d, BLOCK_M: tl.constexpr, D: tl.constexpr):
    m_block = tl.program_id(0)
    gQ = tl.make_block_ptr(base=q_ptr, shape=(q_len, d), strides=(d, 1), offsets=(0, 0),
                           block_shape=(BLOCK_M, D), order=(1, 0))
    q = tl.load({moved}{check})
    offs = m_block * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(o_ptr + offs, tl.sum(q, axis=1), mask=offs < q_len)
"""


def test_a_block_pointer_advanced_to_the_program_tile_reads_past_the_end() -> None:
    """FlagGems flash_kernel before FlagOpen/FlagGems@7aa44e6: ``gQ.advance([m * BLOCK_M, 0])``."""
    src = ADVANCED.format(moved="gQ.advance([m_block * BLOCK_M, 0])", check="")
    assert findings(src) == [(line_of(src, "q = tl.load"), "BC101")]


def test_the_function_form_too() -> None:
    src = ADVANCED.format(moved="tl.advance(gQ, (m_block * BLOCK_M, 0))", check="")
    assert findings(src) == [(line_of(src, "q = tl.load"), "BC101")]


def test_with_a_boundary_check_it_is_clean() -> None:
    assert findings(ADVANCED.format(moved="gQ.advance([m_block * BLOCK_M, 0])", check=", boundary_check=(0, 1)")) == []


def test_unmoved_one_tile_is_read_as_written() -> None:
    """Offsets (0, 0) and no advance: one tile at the start, nothing says it can be partial."""
    assert findings(ADVANCED.format(moved="gQ", check="")) == []


FLAGGED = """\
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr, DEBUG: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if DEBUG:
        tl.store(y_ptr + offs, x)
    tl.store(y_ptr + offs, x * 2, mask=offs < n)


def launch(x, y):
    scale[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256, DEBUG=False)
"""


def test_a_branch_the_files_launches_switch_off_is_still_checked() -> None:
    """Another module may launch the kernel with the flag on (fla's cp/chunk_delta_h kernel runs
    with INTRACARD_MODE=False in its own file and True in common/intracard_cp.py), and a one-file
    run sees only this file's launches."""
    src = FLAGGED
    assert findings(src) == [(line_of(src, "tl.store(y_ptr + offs, x)"), "BC102")]
