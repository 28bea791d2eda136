"""A Triton kernel defined in one module and launched from another (``from .kernels import k``,
``k[grid](...)``, or ``import pkg.kernels as K``, ``K.k[grid](...)``) is checked under the host facts of the launches the run holds; the launching
module's floored grids are reported there. Analysed alone, the kernel's module has no launch and
is reported as written. Also the host readings the launchers of a kernels module lean on: sizes
unpacked from ``x.shape``, an equality with a product, and arguments after ``*x.stride()`` when
the autotune configs are made by a helper."""

from __future__ import annotations

from pathlib import Path

from boundcheck.engine import check_paths
from boundcheck.settings import Settings
from tests.checking import findings, line_of

KERNELS = '''\
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2.0)
'''

OPS = '''\
import torch
import triton

from {module} import scale_kernel


def scale(x, BLOCK=1024):
    n = x.numel()
{check}    y = torch.empty_like(x)
    scale_kernel[{grid}](x, y, n, BLOCK=BLOCK)
    return y
'''


def run(tmp_path: Path, ops: str, only: str | None = None) -> list[tuple[str, int, str]]:
    package = tmp_path / "pkg"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text(KERNELS)
    (package / "ops.py").write_text(ops)
    found = check_paths([str(package / only) if only else str(tmp_path)], Settings(jobs=1))
    return sorted((Path(f.path).name, f.span.line, f.code) for f in found)


def ops(check: str = "    assert n % BLOCK == 0\n", grid: str = "(triton.cdiv(n, BLOCK),)",
        module: str = ".kernels") -> str:
    return OPS.format(check=check, grid=grid, module=module)


STORE = line_of(KERNELS, "tl.store(")


def test_a_kernel_is_checked_under_the_launches_of_another_module(tmp_path: Path) -> None:
    assert run(tmp_path, ops()) == []
    assert run(tmp_path, ops(module="pkg.kernels")) == []  # an absolute import, from the package root


def test_the_kernel_module_alone_is_reported_as_written(tmp_path: Path) -> None:
    run(tmp_path, ops())
    assert run(tmp_path, ops(), only="kernels.py") == [("kernels.py", STORE, "BC101"), ("kernels.py", STORE, "BC102")]


def test_a_launch_without_the_assert_keeps_the_finding(tmp_path: Path) -> None:
    assert run(tmp_path, ops(check="")) == [("kernels.py", STORE, "BC101"), ("kernels.py", STORE, "BC102")]


def test_a_floored_grid_of_an_imported_kernel_is_reported_at_the_launch(tmp_path: Path) -> None:
    # `n // BLOCK` programs never run past n: the tiles are full, the skipped tail is the launch's
    src = ops(check="", grid="(n // BLOCK,)")
    assert run(tmp_path, src) == [("ops.py", line_of(src, "scale_kernel["), "BC302")]



def module_ops(imported: str, launched: str, check: str = "    assert n % BLOCK == 0\n") -> str:
    return ops(check=check).replace("from {module} import scale_kernel".format(module=".kernels"), imported).replace(
        "    scale_kernel[", f"    {launched}[")


def test_a_kernel_launched_through_its_module_alias_is_checked_under_the_launch(tmp_path: Path) -> None:
    # `import pkg.kernels as K; K.scale_kernel[grid](...)`, and the plain dotted import
    assert run(tmp_path, module_ops("import pkg.kernels as K", "K.scale_kernel")) == []
    assert run(tmp_path, module_ops("import pkg.kernels", "pkg.kernels.scale_kernel")) == []


def test_a_module_alias_launch_without_the_assert_keeps_the_finding(tmp_path: Path) -> None:
    src = module_ops("import pkg.kernels as K", "K.scale_kernel", check="")
    assert run(tmp_path, src) == [("kernels.py", STORE, "BC101"), ("kernels.py", STORE, "BC102")]
    src = module_ops("import pkg.kernels as K", "K.scale_kernel", check="").replace("(triton.cdiv(n, BLOCK),)", "(n // BLOCK,)")
    assert run(tmp_path, src) == [("ops.py", line_of(src, "K.scale_kernel["), "BC302")]

CONV = '''\
import torch
import triton
import triton.language as tl


def config(BLOCK_HW, BLOCK_C):
    return triton.Config({{"BLOCK_HW": BLOCK_HW, "BLOCK_C": BLOCK_C}}, num_warps=4)


@triton.autotune(configs=[config(64, 32), config(128, 16)], key=["hw", "c"])
@triton.jit
def group_sum(x_ptr, y_ptr, hw, c, stride_n, stride_c, stride_hw, groups: tl.constexpr,
              BLOCK_HW: tl.constexpr, BLOCK_C: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_HW + tl.arange(0, BLOCK_HW)
    acc = tl.zeros((BLOCK_HW,), dtype=tl.float32)
    for i in range(c // groups):
        acc += tl.load(x_ptr + i * stride_c + offs * stride_hw, mask=offs < hw, other=0.0)
    tl.store(y_ptr + offs, acc, mask=offs < hw)


def launch(x, groups):
{check}    n, c, h, w = x.shape
    y = torch.empty((h * w,), device=x.device)
    grid = lambda meta: (triton.cdiv(h * w, meta["BLOCK_HW"]),)
    group_sum[grid](x, y, h * w, c, *x.stride(), groups)
    return y
'''


def test_an_equality_with_a_product_divides_by_each_factor() -> None:
    src = CONV.format(check="    assert x.shape[1] == groups * 4\n")
    assert findings(src) == []
    src = CONV.format(check="    assert x.shape[1] > groups\n")
    assert findings(src) == [(line_of(src, "for i in range"), "BC301")]


CHECKS = '''\
def validate(x, block):
    if x.ndim != 1:
        raise ValueError("1-D input")
    if x.numel() % block != 0:
        raise ValueError("the length must be a multiple of the block")
'''

CHECKED_OPS = '''\
import torch
import triton

from .checks import validate
from .kernels import scale_kernel


def scale(x, BLOCK=1024):
    validate(x, {block})
    n = x.numel()
    y = torch.empty_like(x)
    scale_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    return y
'''


def test_a_check_function_of_another_module_holds_after_its_call(tmp_path: Path) -> None:
    # `validate(x, BLOCK)` raises unless x.numel() % BLOCK == 0: the launch after it relies on that
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "checks.py").write_text(CHECKS)
    assert run(tmp_path, CHECKED_OPS.format(block="BLOCK")) == []
    assert run(tmp_path, CHECKED_OPS.format(block="256")) == [("kernels.py", STORE, "BC101"),
                                                            ("kernels.py", STORE, "BC102")]
