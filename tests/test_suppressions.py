"""Suppression comments: which findings each form silences, and when BC002 reports one unused."""

from __future__ import annotations

import textwrap

import pytest

from boundcheck import suppressions
from boundcheck.engine import check_source
from boundcheck.findings import Finding
from boundcheck.model import Language, Module, Span
from boundcheck.settings import Settings


def _finding(line: int, code: str = "BC101", path: str = "k.py") -> Finding:
    return Finding(code, "some-rule", "a message", path, Span(line, 4, line, 20))


def _apply(source: str, findings: list[Finding], language: Language = Language.TRITON,
           settings: Settings | None = None, path: str = "k.py") -> list[Finding]:
    module = Module(path, language, textwrap.dedent(source))
    return suppressions.apply(module, findings, settings or Settings())


def _unused(findings: list[Finding]) -> list[tuple[int, str]]:
    return [(f.span.line, f.message) for f in findings if f.code == "BC002"]


# --- Python -------------------------------------------------------------------------------------

@pytest.mark.parametrize("comment", ["# noqa: BC101", "# noqa:BC101", "# NOQA: bc101", "# noqa: E501, BC101",
                                     "# noqa: BC101 keep: the pointer is padded", "# noqa",
                                     "# boundcheck: ignore[BC101]", "#boundcheck: ignore[ BC101 ]"])
def test_python_comment_on_the_line_suppresses(comment: str) -> None:
    f = _finding(2)
    out = _apply(f"x = 1\ny = tl.load(p)  {comment}\n", [f])
    assert f.suppressed_by is not None
    assert _unused(out) == []


def test_noqa_for_another_code_does_not_suppress() -> None:
    f = _finding(1)
    _apply("y = tl.load(p)  # noqa: BC104\n", [f])
    assert f.suppressed_by is None


def test_noqa_for_another_tool_is_neither_suppression_nor_unused() -> None:
    f = _finding(1)
    out = _apply("y = tl.load(p)  # noqa: E501\nz = 2  # noqa: E501\n", [f])
    assert f.suppressed_by is None
    assert _unused(out) == []


def test_bare_noqa_suppresses_everything_and_is_never_reported_unused() -> None:
    a, b = _finding(1, "BC101"), _finding(1, "BC103")
    out = _apply("y = tl.load(p)  # noqa\nz = 2  # noqa\n", [a, b])
    assert a.suppressed_by == b.suppressed_by == "noqa"
    assert _unused(out) == []


def test_boundcheck_ignore_alone_covers_the_next_line() -> None:
    f = _finding(3)
    _apply("x = 1\n# boundcheck: ignore[BC101]\ny = tl.load(p)\n", [f])
    assert f.suppressed_by == "boundcheck-ignore"


def test_boundcheck_ignore_after_code_covers_only_its_line() -> None:
    f = _finding(2)
    out = _apply("x = 1  # boundcheck: ignore[BC101]\ny = tl.load(p)\n", [f])
    assert f.suppressed_by is None
    assert [line for line, _ in _unused(out)] == [1]


def test_noqa_in_a_string_is_not_a_comment() -> None:
    f = _finding(1)
    out = _apply('y = tl.load(p, other=0) if s == "# noqa: BC101" else 0\n', [f])
    assert f.suppressed_by is None
    assert _unused(out) == []


def test_unused_suppression_is_bc002_at_the_comment() -> None:
    out = _apply("x = 1\ny = 2  # noqa: BC101\n", [])
    (bc002,) = [f for f in out if f.code == "BC002"]
    assert bc002.span == Span(2, 7, 2, 20)
    assert "BC101" in bc002.message and bc002.suppressed_by is None


def test_bc002_names_only_the_codes_that_matched_nothing() -> None:
    f = _finding(1, "BC101")
    out = _apply("y = tl.load(p)  # noqa: BC101, BC104\n", [f])
    assert f.suppressed_by == "noqa"
    ((line, message),) = _unused(out)
    assert line == 1 and "BC104" in message and "BC101" not in message


def test_unused_bare_boundcheck_ignore_is_bc002() -> None:
    out = _apply("x = 1\n# boundcheck: ignore\ny = 2\n", [])
    assert [line for line, _ in _unused(out)] == [2]


def test_noqa_bc002_silences_the_report_of_its_own_line() -> None:
    out = _apply("y = 2  # noqa: BC101, BC002\n", [])
    (bc002,) = [f for f in out if f.code == "BC002"]
    assert bc002.suppressed_by == "noqa"


def test_contract_comment_is_not_a_suppression() -> None:
    f = _finding(2)
    out = _apply("# boundcheck: assume K % BLOCK_K == 0\ny = tl.load(p)\n", [f])
    assert f.suppressed_by is None
    assert _unused(out) == []


def test_no_bc002_unless_selected() -> None:
    out = _apply("y = 2  # noqa: BC101\n", [], settings=Settings(select=["BC1"]))
    assert _unused(out) == []
    out = _apply("y = 2  # noqa: BC101\n", [], settings=Settings(ignore=["BC002"]))
    assert _unused(out) == []


def test_no_bc002_in_a_file_that_was_not_fully_analysed() -> None:
    module = Module("k.py", Language.TRITON, "y = 2  # noqa: BC101\n", errors=[(Span(1, 0, 1, 0), "bad")])
    assert suppressions.apply(module, [], Settings()) == []


def test_per_file_ignores_drop_findings() -> None:
    settings = Settings(per_file_ignores={"tests/*.py": ["BC1"]})
    kept = _apply("y = 1\n", [_finding(1, "BC101", "pkg/tests/k.py"), _finding(1, "BC301", "pkg/tests/k.py")],
                  settings=settings, path="pkg/tests/k.py")
    assert [f.code for f in kept] == ["BC301"]


# --- CUDA ---------------------------------------------------------------------------------------

def _cu(line: int, code: str = "BC101") -> Finding:
    return _finding(line, code, "k.cu")


@pytest.mark.parametrize("comment", ["// NOLINT(BC101)", "// NOLINT", "// NOLINT(bugprone-foo, BC101)",
                                     "// NOLINT(BC1*)", "// boundcheck: ignore[BC101]"])
def test_cuda_comment_on_the_line_suppresses(comment: str) -> None:
    f = _cu(2)
    out = _apply(f"int i = 0;\nfloat v = a[i];  {comment}\n", [f], Language.CUDA, path="k.cu")
    assert f.suppressed_by is not None
    assert _unused(out) == []


def test_nolint_for_a_clang_tidy_check_is_not_ours() -> None:
    f = _cu(1)
    out = _apply("float v = a[i];  // NOLINT(bugprone-*)\n", [f], Language.CUDA, path="k.cu")
    assert f.suppressed_by is None
    assert _unused(out) == []


def test_nolintnextline_covers_only_the_next_line() -> None:
    same, below, further = _cu(1), _cu(2), _cu(3)
    _apply("// NOLINTNEXTLINE(BC101)\nfloat v = a[i];\nfloat w = a[j];\n", [same, below, further],
           Language.CUDA, path="k.cu")
    assert (same.suppressed_by, below.suppressed_by, further.suppressed_by) == (None, "NOLINTNEXTLINE", None)


def test_cuda_boundcheck_ignore_alone_covers_the_next_line() -> None:
    f = _cu(2)
    _apply("// boundcheck: ignore[BC101]\nfloat v = a[i];\n", [f], Language.CUDA, path="k.cu")
    assert f.suppressed_by == "boundcheck-ignore"


def test_nolint_begin_end_covers_the_region_only() -> None:
    source = ("float u = a[h];\n"          # 1
              "// NOLINTBEGIN(BC101)\n"     # 2
              "float v = a[i];\n"           # 3
              "float w = a[j];\n"           # 4
              "// NOLINTEND(BC101)\n"       # 5
              "float x = a[k];\n")          # 6
    before, first, second, after, other = _cu(1), _cu(3), _cu(4), _cu(6), _cu(3, "BC103")
    out = _apply(source, [before, first, second, after, other], Language.CUDA, path="k.cu")
    assert [f.suppressed_by for f in (before, first, second, after, other)] == [
        None, "NOLINTBEGIN", "NOLINTBEGIN", None, None]
    assert _unused(out) == []


def test_unused_nolint_region_is_bc002_at_its_begin() -> None:
    out = _apply("// NOLINTBEGIN(BC102)\nfloat v = a[i];\n// NOLINTEND(BC102)\n", [_cu(2)],
                 Language.CUDA, path="k.cu")
    assert [line for line, _ in _unused(out)] == [1]


def test_unused_cuda_suppressions_are_bc002_but_bare_nolint_is_not() -> None:
    out = _apply("int a;  // NOLINT(BC101)\nint b;  // NOLINT\n// NOLINTNEXTLINE(BC104)\nint c;\n", [],
                 Language.CUDA, path="k.cu")
    assert [line for line, _ in _unused(out)] == [1, 3]


def test_cuda_contract_comment_is_not_a_suppression() -> None:
    f = _cu(2)
    out = _apply("// boundcheck: assume n % 4 == 0\nfloat4 v = p[i];\n", [f], Language.CUDA, path="k.cu")
    assert f.suppressed_by is None
    assert _unused(out) == []


# --- End to end through the engine (needs the frontends) ----------------------------------------

TRITON_KERNEL = '''\
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)){comment}
    tl.store(y_ptr + offs, x, mask=offs < n)
'''


def _triton(comment: str) -> list[tuple[int, str, bool]]:
    findings, parsed = check_source("copy.py", Language.TRITON, TRITON_KERNEL.format(comment=comment), Settings())
    assert parsed
    return [(f.span.line, f.code, f.suppressed_by is not None) for f in findings]


def test_triton_unmasked_load_is_reported_without_a_comment() -> None:
    assert _triton("") == [(9, "BC101", False)]


@pytest.mark.parametrize("comment", ["  # noqa: BC101", "  # noqa", "  # boundcheck: ignore[BC101]"])
def test_triton_suppressed_load(comment: str) -> None:
    assert _triton(comment) == [(9, "BC101", True)]


def test_triton_wrong_code_leaves_the_finding_and_reports_the_comment() -> None:
    assert _triton("  # noqa: BC102") == [(9, "BC101", False), (9, "BC002", False)]


def test_triton_other_tools_noqa_changes_nothing() -> None:
    assert _triton("  # noqa: E501") == [(9, "BC101", False)]


def test_triton_ignore_alone_on_the_line_before() -> None:
    source = TRITON_KERNEL.format(comment="").replace(
        "    x = tl.load", "    # boundcheck: ignore[BC101]\n    x = tl.load")
    findings, _ = check_source("copy.py", Language.TRITON, source, Settings())
    assert [(f.span.line, f.code, f.suppressed_by) for f in findings] == [(10, "BC101", "boundcheck-ignore")]


def test_triton_contract_comment_is_no_suppression_and_never_bc002() -> None:
    source = TRITON_KERNEL.format(comment="").replace(
        "    pid = tl.program_id(0)", "    # boundcheck: assume n % BLOCK == 0\n    pid = tl.program_id(0)")
    findings, _ = check_source("copy.py", Language.TRITON, source, Settings())
    assert [f for f in findings if f.code == "BC002" or f.suppressed_by is not None] == []


CUDA_KERNEL = '''\
__global__ void copy(const float* x, float* y, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
{before}    float v = x[i];{after}
    if (i < n) y[i] = v;
}}
'''


def _cuda(before: str = "", after: str = "") -> list[tuple[int, str, bool]]:
    findings, parsed = check_source("copy.cu", Language.CUDA, CUDA_KERNEL.format(before=before, after=after),
                                    Settings())
    assert parsed
    return [(f.span.line, f.code, f.suppressed_by is not None) for f in findings]


def test_cuda_unguarded_read_is_reported_without_a_comment() -> None:
    assert _cuda() == [(3, "BC101", False)]


def test_cuda_nolint_suppresses() -> None:
    assert _cuda(after="  // NOLINT(BC101)") == [(3, "BC101", True)]


def test_cuda_nolintnextline_suppresses() -> None:
    assert _cuda(before="    // NOLINTNEXTLINE(BC101)\n") == [(4, "BC101", True)]


def test_cuda_nolint_region_suppresses() -> None:
    assert _cuda(before="    // NOLINTBEGIN(BC101)\n", after="\n    // NOLINTEND(BC101)") == [(4, "BC101", True)]


def test_cuda_wrong_code_leaves_the_finding_and_reports_the_comment() -> None:
    assert _cuda(after="  // NOLINT(BC102)") == [(3, "BC101", False), (3, "BC002", False)]
