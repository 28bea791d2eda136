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
