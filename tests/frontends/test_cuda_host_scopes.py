"""A host assert (or a rejecting ``if``) holds after it in its own branch: at the top level of the
host function for every later launch, inside an ``if`` arm only for the launches in that arm."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings
from tests.checking import findings, line_of

KERNEL = """\
#include <cassert>
__global__ void add(const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + 1.0f;
}
"""


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


def test_an_assert_in_one_arm_says_nothing_of_the_launch_in_the_other() -> None:
    src = KERNEL + """\
void run(const float* a, float* c, int n, bool small) {
    int blocks = n / 256;
    if (small) {
        assert(n % 256 == 0);
        add<<<blocks, 256>>>(a, c, n);
    } else {
        add<<<blocks, 256>>>(a, c, n);
    }
}
"""
    assert cuda(src) == [(line_of(src, "int blocks ="), "BC302")]


def test_an_assert_in_an_arm_covers_the_launch_after_it_in_that_arm() -> None:
    src = KERNEL + """\
void run(const float* a, float* c, int n, bool small) {
    if (small) {
        assert(n % 256 == 0);
        add<<<n / 256, 256>>>(a, c, n);
    }
}
"""
    assert cuda(src) == []


def test_an_assert_at_the_top_level_covers_every_later_launch() -> None:
    src = KERNEL + """\
void run(const float* a, float* c, int n, bool small) {
    assert(n % 256 == 0);
    if (small) {
        add<<<n / 256, 256>>>(a, c, n);
    } else {
        add<<<n / 256, 256>>>(a, c, n);
    }
}
"""
    assert cuda(src) == []


def test_a_rejection_inside_an_arm_holds_to_that_arms_end() -> None:
    src = KERNEL + """\
int run(const float* a, float* c, int n, bool checked) {
    if (checked) {
        if (n % 256 != 0) return 1;
        add<<<n / 256, 256>>>(a, c, n);
    }
    add<<<n / 256, 256>>>(a, c, n);
    return 0;
}
"""
    last = max(i for i, line in enumerate(src.splitlines(), start=1) if "add<<<n / 256" in line)
    assert cuda(src) == [(last, "BC302")]


FLAGGED = """\
__global__ void copy_rows(const float* in, float* out, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    out[i] = in[i];
}

void launch(const float* in, float* out, int n) {
    const bool whole = n % 128 == 0;
    if (whole) {
        copy_rows<<<n / 128, 128>>>(in, out, n);
    }
}
"""


def test_a_local_flag_set_once_reads_as_its_test() -> None:
    assert cuda(FLAGGED) == []
    negated = FLAGGED.replace("n % 128 == 0;", "n % 128 != 0;").replace("if (whole)", "if (!whole)")
    assert cuda(negated) == []


def test_a_flag_assigned_again_or_of_another_test_says_nothing() -> None:
    for bad in (FLAGGED.replace("const bool whole = n % 128 == 0;", "bool whole = n % 128 == 0;\n    whole = true;"),
                FLAGGED.replace("n % 128 == 0;", "n % 64 == 0;")):
        assert cuda(bad) == [(line_of(bad, "copy_rows<<<"), "BC302")]


PRODUCT = """\
#include <cassert>
__global__ void pack(const int* in, int* out, int n) {
    int i = blockIdx.x * 256 + threadIdx.x;
    out[i] = in[i];
}

void launch(const int* in, int* out, int n, int rows, int cols) {
    assert(n == rows * 256);
    pack<<<n / 256, 256>>>(in, out, n);
}
"""


def test_an_asserted_product_with_a_compile_time_size_is_a_multiple_of_it() -> None:
    assert cuda(PRODUCT) == []


def test_a_product_of_a_smaller_size_or_of_runtime_sizes_says_nothing_of_the_grid() -> None:
    for bad in (PRODUCT.replace("rows * 256", "rows * 128"), PRODUCT.replace("rows * 256", "rows * cols")):
        assert cuda(bad) == [(line_of(bad, "pack<<<"), "BC302")]


LAMBDA = """\
__global__ void fill(float* x, int n) { int i = blockIdx.x * 256 + threadIdx.x; x[i] = 0.0f; }
void run(float* x, int total, int width) {
    int rows = total / width;
    auto launch = [&]<typename T>(T arg) {
        dim3 grid(rows / 256);
        fill<<<grid, 256>>>(x, rows);
    };
    launch.template operator()<int>(1);
}
"""


def test_a_launch_in_a_generic_lambda_is_read_once_with_its_captures() -> None:
    # libclang also lists the lambda's specialized call operator as a method of the file; walked
    # alone, `rows` was an unknown capture and the same floor was reported a second time
    found = findings(LAMBDA, Language.CUDA)
    assert found == [(line_of(LAMBDA, "dim3 grid"), "BC302")]
    messages = [f.message for f in check_source("k.cu", Language.CUDA, LAMBDA, Settings())[0]]
    assert len(messages) == 1 and "total / width / 256" in messages[0]
