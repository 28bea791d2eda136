"""A launch through a local that an ``if`` chain sets to one of several kernels, or to what a
selector function of the module returns (sglang's ``kernel = select_w8a8_block_fp8_matmul_kernel(M,
N, config)`` beside ``kernel = _w8a8_block_fp8_matmul_hopper``), binds its arguments to every kernel
it may run: a ``needs_masking = K % BLOCK_K != 0`` flag passed there keeps each kernel's unmasked
branch to the whole tiles. A choice that is no kernel of the file binds nothing, and the branch
stays reported."""

from __future__ import annotations

from tests.checking import findings, line_of

_KERNEL = '''

@triton.jit
def NAME(a_ptr, o_ptr, K, BLOCK_K: tl.constexpr, needs_masking: tl.constexpr):
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_K], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if needs_masking:
            a = tl.load(a_ptr + k * BLOCK_K + offs_k, mask=offs_k < K - k * BLOCK_K, other=0.0)
        else:
            a = tl.load(a_ptr + k * BLOCK_K + offs_k)  # NAME unmasked
        acc += a
    tl.store(o_ptr + tl.program_id(0), tl.sum(acc, 0))
'''

_SRC = "import triton\nimport triton.language as tl\n" + _KERNEL.replace("NAME", "mm") \
    + _KERNEL.replace("NAME", "mm_split") + '''

if HAS_SPLIT:
    def select(M, config):
        if M > 64:
            return mm_split
        return mm
else:
    def select(M, config):
        return OTHER


def run(a, o, M, K, config, hopper):
    if hopper:
        kernel = mm_split
    elif M > 1:
        kernel = mm
    else:
        kernel = select(M, config)
    needs_masking = bool(K % config["BLOCK_K"] != 0)
    kernel[(M,)](a, o, K, **config, needs_masking=FLAG)
'''


def _src(flag: str = "needs_masking", other: str = "mm") -> str:
    return _SRC.replace("FLAG", flag).replace("OTHER", other)


def _unmasked(src: str) -> list[tuple[int, str]]:
    return [(line_of(src, "# mm unmasked"), "BC101"), (line_of(src, "# mm_split unmasked"), "BC101")]


def test_every_kernel_an_if_chain_or_a_selector_picks_gets_the_launchs_flag() -> None:
    assert findings(_src()) == []


def test_a_flag_passed_false_reaches_every_choice() -> None:
    src = _src(flag="False")
    assert findings(src) == _unmasked(src)


def test_a_selector_returning_something_else_binds_no_launch() -> None:
    src = _src(other="make_kernel()")
    assert findings(src) == _unmasked(src)
