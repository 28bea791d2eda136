"""A jit helper another module defines, called from a kernel by a dotted or imported name
(``lang.Reduce.forward(...)`` with ``from pkg import lang``, a package whose ``__init__``
star-imports the module of ``class Reduce``; ``helper(...)`` with ``from .lang import helper``; a
class of the kernel's own file) is inlined under the caller's masks, offsets and flags. A finding
in its body is reported at the call that reaches it, in the caller's file, and its own file does
not check it again as a kernel; run alone, that file still checks it as written."""

from __future__ import annotations

from pathlib import Path

from boundcheck.engine import check_paths
from boundcheck.settings import Settings
from tests.checking import findings, line_of

LANG = '''\
import triton
import triton.language as tl


class Reduce:
    @staticmethod
    @triton.jit
    def forward(ptr, n, row, BLOCK: tl.constexpr, CHECK: tl.constexpr):
        block = tl.make_block_ptr(ptr, shape=(n,), strides=(1,), offsets=(row * BLOCK,), block_shape=(BLOCK,),
                                  order=(0,))
        if CHECK:
            x = tl.load(block, boundary_check=(0,), padding_option="zero")
        else:
            x = tl.load(block)
        return tl.sum(x, 0)


@triton.jit
def copy_tiles(dst, src, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n // BLOCK, tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(dst + offs, tl.load(src + offs))
    if n % BLOCK:
        offs = (n // BLOCK) * BLOCK + tl.arange(0, BLOCK)
        tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)
'''

KERNEL = '''\
import triton
import triton.language as tl

from pkg import lang


@triton.heuristics({"CHECK": lambda args: FLAG})
@triton.jit
def total(out, x, n, BLOCK: tl.constexpr, CHECK: tl.constexpr):
    row = tl.program_id(0)
    s = lang.Reduce.forward(x, n, row, BLOCK, CHECK)
    tl.store(out + row, s)
'''

COPY = '''\
import triton
import triton.language as tl

from .lang import copy_tiles


@triton.jit
def copy(dst, src, n, BLOCK: tl.constexpr):
    copy_tiles(dst, src, n, BLOCK)
'''


def run(tmp_path: Path, flag: str, only: str | None = None) -> list[tuple[str, int, str]]:
    package = tmp_path / "pkg"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("from .lang import *\n")
    (package / "lang.py").write_text(LANG)
    (package / "kernel.py").write_text(KERNEL.replace("FLAG", flag))
    (package / "copy.py").write_text(COPY)
    found = check_paths([str(package / only) if only else str(tmp_path)], Settings(jobs=1))
    return sorted((Path(f.path).name, f.span.line, f.code) for f in found)


CALL = line_of(KERNEL, "lang.Reduce.forward(")


def test_a_helper_of_another_module_is_checked_under_the_callers_flag(tmp_path: Path) -> None:
    assert run(tmp_path, 'args["n"] % args["BLOCK"] != 0') == []


def test_a_flag_read_the_wrong_way_is_reported_at_the_call(tmp_path: Path) -> None:
    # the boundary check runs where the tiles are whole and the plain load where one is partial
    assert run(tmp_path, 'args["n"] % args["BLOCK"] == 0') == [("kernel.py", CALL, "BC101")]


def test_the_helpers_file_run_alone_checks_it_as_written(tmp_path: Path) -> None:
    assert run(tmp_path, 'args["n"] % args["BLOCK"] != 0', only="lang.py") == [
        ("lang.py", line_of(LANG, "x = tl.load(block)"), "BC101")]


def test_a_helpers_own_tail_after_its_loop_is_read_in_its_order(tmp_path: Path) -> None:
    # the floored loop's tail is copied after it, in the helper's lines: no BC301, no unguarded access
    assert [f for f in run(tmp_path, 'args["n"] % args["BLOCK"] != 0') if f[0] == "copy.py"] == []


def test_a_class_helper_of_the_same_file_is_inlined() -> None:
    src = LANG + KERNEL.replace("from pkg import lang\n", "").replace("lang.Reduce", "Reduce").replace(
        "FLAG", 'args["n"] % args["BLOCK"] == 0')
    assert findings(src) == [(line_of(src, "x = tl.load(block)"), "BC101")]
