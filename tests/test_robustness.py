"""boundcheck never raises on input: unparsable files are BC001 and the run goes on."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
KERNELS = sorted(p for p in FIXTURES.rglob("*") if p.suffix in {".py", ".cu"})


def test_syntax_error_is_bc001_on_its_line() -> None:
    src = "import triton\n\n@triton.jit\ndef k(x_ptr):\n    x = tl.load(x_ptr +\n"
    findings, parsed = check_source("broken.py", Language.TRITON, src, Settings())
    assert parsed
    assert [(f.code, f.span.line) for f in findings] == [("BC001", 5)]  # "( was never closed"


def test_deep_nesting_is_bc001_not_a_crash() -> None:
    src = "import triton\n@triton.jit\ndef k(x):\n    y = " + "(" * 5000 + "x" + ")" * 5000 + "\n"
    findings, _ = check_source("deep.py", Language.TRITON, src, Settings())
    assert [f.code for f in findings] == ["BC001"]


@pytest.mark.parametrize("seed", range(40))
def test_mangled_kernels_never_raise(seed: int) -> None:
    """Truncations, deletions and random bytes spliced into real kernels of both languages."""
    rng = random.Random(seed)
    path = rng.choice(KERNELS)
    text = path.read_text()
    cut = rng.randrange(len(text))
    variants = [
        text[:cut],
        text[:cut] + text[cut + rng.randrange(1, 40):],
        text[:cut] + "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(20)) + text[cut:],
        text[:cut] + rng.choice(["(", ")", "[", "]", "{", "}", "\\", '"', "'''", "/*", "#if 0", "\t"]) + text[cut:],
    ]
    language = Language.TRITON if path.suffix == ".py" else Language.CUDA
    for variant in variants:
        findings, _ = check_source(str(path), language, variant, Settings())
        assert all(f.code.startswith("BC") for f in findings)
        assert not any("internal error" in f.message for f in findings), [f.message for f in findings]


def test_the_run_goes_on_past_a_broken_file(tmp_path: Path) -> None:
    (tmp_path / "a_broken.py").write_text("import triton\ndef oops(:\n")
    (tmp_path / "b_kernel.py").write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(x_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(x_ptr + offs, 1.0)\n"
    )
    (tmp_path / "c_bytes.cu").write_bytes(b"__global__ void k(float* x) {\x00\xff\xfe }")
    run = subprocess.run([sys.executable, "-m", "boundcheck", str(tmp_path), "--output-format", "concise"],
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "a_broken.py:2:" in run.stdout and "BC001" in run.stdout
    assert "b_kernel.py:8:5: BC102" in run.stdout
    assert "internal error" not in run.stdout + run.stderr


PACKED_TEMPLATE = '''\
template <template <typename> class Op, typename T>
__device__ void apply(T* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = Op<T>()(x[i]); }
template <typename T> struct Neg { __device__ T operator()(T v) const { return -v; } };
template <typename T, int... Ns>
__global__ void k(T* x, int n) { apply<Neg, T>(x, n); }
void launch(float* x, int n) { k<float, 1, 2><<<GRID, 256>>>(x, n); }
'''


@pytest.mark.parametrize(("grid", "expected"), [("(n + 255) / 256", []), ("n / 256", [(6, "BC302")])])
def test_a_launch_with_a_template_argument_pack_is_read(grid: str, expected: list[tuple[int, str]]) -> None:
    # libclang's Python enum of template argument kinds stops before packs: reading the kind of
    # `k<float, 1, 2>`'s pack raised ValueError and lost the whole file as an internal error
    found, _ = check_source("k.cu", Language.CUDA, PACKED_TEMPLATE.replace("GRID", grid), Settings())
    assert sorted((f.span.line, f.code) for f in found) == expected
