"""BC302 in host files that launch kernels defined in their headers, and the size checks a caller
makes before it calls the launcher (``main`` rejects sizes that are not whole blocks)."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def cuda(src: str) -> list[tuple[int, str]]:
    found, _ = check_source("runner.cu", Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def line_of(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), start=1) if text in line)


# The kernel comes from a header the file includes: no `__global__` is written here.
LAUNCHER = """\
#include <cstdio>
#include <cstdlib>
#include "scale_kernels.cuh"

void run_scale(float* x, int n, float alpha) {
    dim3 block(256);
    dim3 grid(n / 256);
    scale<<<grid, block>>>(x, n, alpha);
}
"""

GRID = "dim3 grid(n / 256)"


def with_main(body: str) -> str:
    return LAUNCHER + "\nint main(int argc, char** argv) {\n    int n = atoi(argv[1]);\n    float* x = 0;\n" \
        + body + "    return 0;\n}\n"


def test_a_file_that_only_launches_kernels_from_its_headers_has_its_floored_grid_reported():
    assert cuda(LAUNCHER) == [(line_of(LAUNCHER, GRID), "BC302")]
    ceiling = LAUNCHER.replace("n / 256", "(n + 255) / 256")
    assert cuda(ceiling) == []


def test_a_file_with_neither_a_kernel_nor_a_launch_is_not_parsed():
    host_only = LAUNCHER.replace("scale<<<grid, block>>>(x, n, alpha);", "cpu_scale(x, n, alpha);")
    assert check_source("runner.cu", Language.CUDA, host_only, Settings()) == ([], False)


def test_an_early_rejection_in_the_caller_makes_the_launchers_grid_exact():
    src = with_main("    if (n % 256 != 0) {\n        fprintf(stderr, \"n must be a multiple of 256\\n\");\n"
                    "        return 1;\n    }\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == []


def test_an_exit_call_or_a_bare_remainder_test_rejects_as_well():
    src = with_main("    if (n % 256) {\n        exit(EXIT_FAILURE);\n    }\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == []
    either = with_main("    if (argc < 2 || n % 256 != 0) {\n        std::exit(1);\n    }\n    run_scale(x, n, 2.0f);\n")
    assert cuda(either) == []
    negated = with_main("    if (!(n % 256 == 0)) return 1;\n    run_scale(x, n, 2.0f);\n")
    assert cuda(negated) == []


def test_an_assert_in_the_caller_makes_the_launchers_grid_exact():
    src = with_main("    assert(n % 256 == 0);\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == []


def test_a_check_that_does_not_dominate_the_call_leaves_the_grid_reported():
    expected = [(line_of(LAUNCHER, GRID), "BC302")]
    in_branch = with_main("    if (argc > 2) {\n        assert(n % 256 == 0);\n    }\n    run_scale(x, n, 2.0f);\n")
    assert cuda(in_branch) == expected
    after = with_main("    run_scale(x, n, 2.0f);\n    if (n % 256 != 0) return 1;\n")
    assert cuda(after) == expected
    no_exit = with_main("    if (n % 256 != 0) {\n        printf(\"n is not a multiple of 256\\n\");\n    }\n"
                        "    run_scale(x, n, 2.0f);\n")
    assert cuda(no_exit) == expected


def test_a_check_of_a_value_changed_before_the_call_says_nothing_of_the_argument():
    src = with_main("    if (n % 256 != 0) return 1;\n    n += 1;\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == [(line_of(src, GRID), "BC302")]


def test_a_value_a_loop_changes_is_not_known_at_a_call_inside_the_loop():
    src = with_main("    if (n % 256 != 0) return 1;\n    for (int i = 0; i < 3; ++i) {\n        run_scale(x, n, 2.0f);\n"
                    "        n += 1;\n    }\n")
    assert cuda(src) == [(line_of(src, GRID), "BC302")]
    unchanged = src.replace("        n += 1;\n", "")
    assert cuda(unchanged) == []


def test_a_single_statement_exit_the_file_declares_rejects():
    src = with_main("    if (n % 256 != 0) exit(2);\n    run_scale(x, n, 2.0f);\n").replace(
        "#include <cstdlib>\n", "#include <cstdlib>\nextern \"C\" void exit(int);\n")
    assert cuda(src) == []


def test_every_call_in_the_file_must_make_the_check():
    src = with_main("    run_scale(x, n + 1, 2.0f);\n    if (n % 256 != 0) return 1;\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == [(line_of(src, GRID), "BC302")]


def test_a_check_of_a_value_the_call_does_not_pass_says_nothing_of_the_parameter():
    two = LAUNCHER.replace("int n, float alpha", "int m, int n, float alpha").replace(
        "scale<<<grid, block>>>(x, n, alpha)", "scale<<<grid, block>>>(x, m * n, alpha)")
    src = two + "\nint main(int argc, char** argv) {\n    int rows = atoi(argv[1]);\n    int cols = atoi(argv[2]);\n" \
        "    if (cols % 256 != 0) return 1;\n    run_scale(0, rows, rows, 2.0f);\n    return 0;\n}\n"
    assert cuda(src) == [(line_of(src, GRID), "BC302")]
    passed = src.replace("run_scale(0, rows, rows, 2.0f)", "run_scale(0, rows, cols, 2.0f)")
    assert cuda(passed) == []


def test_a_check_on_a_value_copied_into_a_struct_passed_by_value_holds_for_its_member():
    src = """\
#include <cstdlib>
#include "scale_kernels.cuh"

struct Size { int width; int height; };

void run_scale(float* x, Size size) {
    dim3 grid(size.width / 8, size.height / 4);
    scale<<<grid, dim3(8, 4)>>>(x, size.width);
}

int main(int argc, char** argv) {
    int width = atoi(argv[1]), height = atoi(argv[2]);
    Size size;
    size.width = width;
    size.height = height;
    if (width % 8 != 0 || height % 4 != 0) {
        exit(EXIT_FAILURE);
    }
    run_scale(0, size);
    return 0;
}
"""
    assert cuda(src) == []
    width_only = src.replace("width % 8 != 0 || height % 4 != 0", "width % 8 != 0")
    assert cuda(width_only) == [(line_of(src, "dim3 grid("), "BC302")]


def test_a_check_two_calls_up_reaches_the_launcher():
    src = LAUNCHER + """
int run_all(float* x, int count) {
    run_scale(x, count, 2.0f);
    return 0;
}

int main(int argc, char** argv) {
    int n = atoi(argv[1]);
    if (n % 256 != 0) return 1;
    return run_all(0, n);
}
"""
    assert cuda(src) == []
    unchecked = src.replace("    if (n % 256 != 0) return 1;\n", "")
    assert cuda(unchecked) == [(line_of(src, GRID), "BC302")]


def test_an_early_rejection_in_the_launcher_itself_makes_its_grid_exact():
    src = LAUNCHER.replace("    dim3 block(256);", "    if (n % 256 != 0) return;\n    dim3 block(256);")
    assert cuda(src) == []


def test_a_launch_in_the_branch_that_tests_the_divisibility_is_exact_there_only():
    src = LAUNCHER.replace("""    dim3 grid(n / 256);
    scale<<<grid, block>>>(x, n, alpha);""", """    if (n % 256 == 0) {
        dim3 grid(n / 256);
        scale<<<grid, block>>>(x, n, alpha);
    } else {
        dim3 grid((n + 255) / 256);
        scale<<<grid, block>>>(x, n, alpha);
    }""")
    assert cuda(src) == []
    floored_else = src.replace("(n + 255) / 256", "n / 256")
    assert cuda(floored_else) == [(line_of(floored_else, "    } else {") + 1, "BC302")]


def test_a_call_in_the_branch_that_tests_the_divisibility_is_exact_there_only():
    src = with_main("    if (n % 256 == 0) {\n        run_scale(x, n, 2.0f);\n    }\n")
    assert cuda(src) == []
    in_else = with_main("    if (n % 256 == 0) {\n        printf(\"whole blocks\\n\");\n    } else {\n"
                        "        run_scale(x, n, 2.0f);\n    }\n")
    assert cuda(in_else) == [(line_of(in_else, GRID), "BC302")]


def test_a_one_line_rejection_through_exit_leaves_the_function() -> None:
    """`exit`, `EXIT_FAILURE` and `fprintf(stderr, ...)` come from headers the parse answers
    empty; the stub declares them, so the unbraced form parses and counts too."""
    src = with_main("    if (n % 256 != 0) exit(EXIT_FAILURE);\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == []
    src = with_main("    if (n % 256 != 0) fprintf(stderr, \"bad n\\n\");\n    run_scale(x, n, 2.0f);\n")
    assert cuda(src) == [(line_of(src, GRID), "BC302")]


CHECKER = """\
static void check_size(int n) {
    if (n % 256 != 0) {
        fprintf(stderr, "n must be a multiple of 256\\n");
        exit(EXIT_FAILURE);
    }
}

"""


def test_a_checking_function_called_before_the_launcher_makes_its_grid_exact():
    src = with_main("    check_size(n);\n    run_scale(x, n, 2.0f);\n").replace("int main", CHECKER + "int main")
    assert cuda(src) == []


def test_a_checking_function_called_on_another_size_proves_nothing():
    src = with_main("    int m = n + 1;\n    check_size(m);\n    run_scale(x, n, 2.0f);\n").replace("int main", CHECKER + "int main")
    assert cuda(src) == [(line_of(src, GRID), "BC302")]
