"""Host dispatch: a kernel launched only inside ``if n % BLOCK == 0:`` (or under a local holding that
test, or in the ``else`` of ``if n % BLOCK != 0``) may rely on it; a kernel also launched outside such
a branch may not. Launches through a module function that takes the kernel as an argument are
followed, with their keyword dicts (``{**common, "NT": T // BT}``)."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of

KERNELS = '''\
import triton
import triton.language as tl


@triton.jit
def even_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs) * 2)


@triton.jit
def tail_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n) * 2, mask=offs < n)

'''


def check(host: str) -> list[tuple[int, str]]:
    return findings(KERNELS + textwrap.dedent(host))


def unmasked() -> list[tuple[int, str]]:
    line = line_of(KERNELS, "tl.store(Y + offs, tl.load(X + offs) * 2)")
    return [(line, "BC101"), (line, "BC102")]


def test_kernel_launched_only_under_the_divisibility_test_relies_on_it() -> None:
    assert check('''\
        def run(x, y):
            n, BLOCK = x.numel(), 128
            if n % BLOCK == 0:
                even_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
            else:
                tail_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        ''') == []


def test_a_local_holding_the_test_and_the_else_of_a_remainder_test() -> None:
    assert check('''\
        def run(x, y, BLOCK: int = 128):
            n = x.numel()
            aligned = n % BLOCK == 0 and x.is_contiguous()
            if aligned:
                even_kernel[(n // BLOCK,)](x, y, n, BLOCK=BLOCK)

        def run2(x, y, BLOCK: int = 128):
            n = x.numel()
            if n % BLOCK != 0:
                tail_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
            else:
                even_kernel[(n // BLOCK,)](x, y, n, BLOCK=BLOCK)
        ''') == []


def test_the_fact_does_not_reach_past_its_branch() -> None:
    assert check('''\
        def run(x, y, BLOCK: int = 128):
            n = x.numel()
            if n % BLOCK == 0:
                tail_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
            even_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        ''') == unmasked()


def test_a_kernel_also_launched_without_the_test_is_not_covered() -> None:
    assert check('''\
        def run(x, y, BLOCK: int = 128):
            n = x.numel()
            if n % BLOCK == 0:
                even_kernel[(n // BLOCK,)](x, y, n, BLOCK=BLOCK)
            else:
                even_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        ''') == unmasked()


def test_launch_through_a_function_taking_the_kernel_with_a_keyword_dict() -> None:
    assert check('''\
        def _launch(kernel, *, tiles, kernel_kwargs, **opts):
            kernel[(tiles,)](**opts, **kernel_kwargs)

        def run(x, y, BLOCK: int = 128):
            n = x.numel()
            common = dict(X=x, Y=y, n=n)
            if n % BLOCK == 0:
                _launch(even_kernel, tiles=n // BLOCK, kernel_kwargs={**common, "BLOCK": BLOCK})
            else:
                _launch(tail_kernel, tiles=triton.cdiv(n, BLOCK), kernel_kwargs={**common, "BLOCK": BLOCK})
        ''') == []


def test_a_launcher_outside_any_test_still_gives_no_contract() -> None:
    assert check('''\
        def _launch(kernel, grid, kwargs):
            kernel[grid](**kwargs)

        def run(x, y, BLOCK: int = 128):
            n = x.numel()
            _launch(even_kernel, (triton.cdiv(n, BLOCK),), dict(X=x, Y=y, n=n, BLOCK=BLOCK))
        ''') == unmasked()


def test_a_floored_grid_through_a_launcher_is_reported_at_the_callers_division() -> None:
    src = KERNELS + textwrap.dedent('''\
        def _launch(kernel, grid, kwargs):
            kernel[grid](**kwargs)

        def run(x, y, BLOCK: int = 128):
            n = x.numel()
            _launch(tail_kernel, (n // BLOCK,), dict(X=x, Y=y, n=n, BLOCK=BLOCK))
        ''')
    assert findings(src) == [*unmasked(), (line_of(src, "(n // BLOCK,)"), "BC302")]  # even_kernel: no launch


def test_a_test_of_a_compile_time_size_is_no_contract() -> None:
    """``if BT == 64:`` picks a kernel variant: BT is a compile-time size, so the branch says nothing
    of the runtime extent the kernel's tiles of BC (16, a divisor of 64) run over."""
    src = '''\
import triton
import triton.language as tl


@triton.jit
def sub(X, Y, T, BT: tl.constexpr, BC: tl.constexpr):
    o = tl.program_id(0) * BC + tl.arange(0, BC)
    tl.store(Y + o, tl.load(X + o, mask=o < T), mask=o < T)
    tl.store(Y + T + o, tl.load(X + o))


def run(x, y, BT: int = 64):
    T = x.shape[0]
    if BT == 64:
        sub[(triton.cdiv(T, 16),)](x, y, T, BT=BT, BC=16)
'''
    line = line_of(src, "tl.store(Y + T + o")
    assert findings(src) == [(line, "BC101"), (line, "BC102")]


CONFIG_DICT = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def heads_kernel(x_ptr, y_ptr, heads, ChunkQ: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * ChunkQ + tl.arange(0, ChunkQ)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2)


def run(x, heads, ChunkQ=64):
    y = torch.empty_like(x)
    config = {"ChunkQ": ChunkQ, "D": 128}
    CHECK
    grid = (heads // config["ChunkQ"],)
    heads_kernel[grid](x, y, heads, **config)
    return y
'''


def test_an_assert_on_a_config_entry_passed_with_double_star_is_a_contract() -> None:
    # aiter pa_mqa_logits: `assert heads % config["ChunkQ"] == 0`, launched with `**config`
    assert findings(CONFIG_DICT.replace("CHECK", 'assert heads % config["ChunkQ"] == 0')) == []


def test_without_the_assert_the_floored_grid_is_reported_and_its_tiles_are_full() -> None:
    # `heads // ChunkQ` programs never run past heads: the launch's skipped tail is the one defect
    src = CONFIG_DICT.replace("CHECK", "pass")
    assert findings(src) == [(line_of(src, "grid = (heads"), "BC302")]


def test_without_the_assert_a_rounded_up_grid_leaves_the_tiles_reported() -> None:
    src = CONFIG_DICT.replace("CHECK", "pass").replace('heads // config["ChunkQ"]', 'triton.cdiv(heads, config["ChunkQ"])')
    assert findings(src) == [(line_of(src, "tl.store(y_ptr"), "BC101"), (line_of(src, "tl.store(y_ptr"), "BC102")]
