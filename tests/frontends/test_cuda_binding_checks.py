"""A PyTorch extension checks shapes in its binding file (``TORCH_CHECK(x.numel() % 256 == 0)``)
and calls the launcher the ``.cu`` beside it defines: a directory run reads those checks where the
launcher's floored grid is judged, as it reads a check made by a caller in the same file. The
check must be on what the call passes (another tensor's size proves nothing), every call of the
launcher in the run must make it, and only a file beside the definition is read."""

from __future__ import annotations

from pathlib import Path

from tests.checking import line_of, run_tree

KERNEL = """\
#include <torch/extension.h>

__global__ void scale_kernel(const float* x, float* y, long n) {
    long i = blockIdx.x * 256 + threadIdx.x;
    y[i] = 2.f * x[i];
}

torch::Tensor scale_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    scale_kernel<<<n / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

BINDING = """\
#include <torch/extension.h>

torch::Tensor scale_cuda(torch::Tensor x);

torch::Tensor scale(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.numel() % 256 == 0, "x must fill whole blocks");
    return scale_cuda(x);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scale", &scale, "scale");
}
"""

FLOOR = [("kernel.cu", line_of(KERNEL, "scale_kernel<<<"), "BC302")]

# the launcher reached through a helper the .cu keeps private, with the size copied into a local
# before a ceiling of its half (`c / 2` pairs, each thread taking one)
PAIRS = """\
#include <torch/extension.h>

__global__ void pairs_kernel(const float2* x, float2* y, long pairs) {
    long i = blockIdx.x * 128 + threadIdx.x;
    if (i < pairs)
        y[i] = x[i];
}

namespace {
void launch_pairs(const float* x, float* y, int64_t c) {
    long blocks = (c / 2 + 127) / 128;
    pairs_kernel<<<blocks, 128>>>((const float2*)x, (float2*)y, c / 2);
}

torch::Tensor pairs_impl(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int64_t c = x.size(1);
    launch_pairs(x.data_ptr<float>(), y.data_ptr<float>(), c);
    return y;
}
}  // namespace

torch::Tensor pairs_cuda(torch::Tensor x) {
    return pairs_impl(x);
}
"""

PAIRS_BINDING = """\
#include <torch/extension.h>

torch::Tensor pairs_cuda(torch::Tensor x);

torch::Tensor pairs(torch::Tensor x) {
    TORCH_CHECK(x.size(1) % 2 == 0, "pairs of columns");
    return pairs_cuda(x);
}
"""

HALF = [("pairs.cu", line_of(PAIRS, "long blocks ="), "BC302")]


def test_a_check_in_the_binding_beside_the_launcher_makes_its_grid_exact(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": BINDING}) == []


def test_the_launcher_alone_keeps_the_finding(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": BINDING}, only="kernel.cu") == FLOOR


def test_a_check_of_another_tensor_proves_nothing(tmp_path: Path) -> None:
    other = BINDING.replace("TORCH_CHECK(x.numel()", "TORCH_CHECK(w.numel()")
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": other}) == FLOOR


def test_every_call_in_the_run_must_check(tmp_path: Path) -> None:
    unchecked = BINDING.replace('PYBIND11_MODULE', 'torch::Tensor scale_any(torch::Tensor x) {\n'
                                '    return scale_cuda(x);\n}\n\nPYBIND11_MODULE')
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": unchecked}) == FLOOR
    second = "#include <torch/extension.h>\n\ntorch::Tensor scale_cuda(torch::Tensor x);\n\ntorch::Tensor again(torch::Tensor x) {\n" \
             "    return scale_cuda(x);\n}\n"
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": BINDING, "again.cpp": second}) == FLOOR


def test_a_binding_in_an_unrelated_directory_is_not_read(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"csrc/ops/kernel.cu": KERNEL, "tools/x/binding.cpp": BINDING}) == FLOOR


def test_a_launcher_with_internal_linkage_is_not_the_one_called(tmp_path: Path) -> None:
    private = KERNEL.replace("torch::Tensor scale_cuda(", "static torch::Tensor scale_cuda(")
    assert run_tree(tmp_path, {"kernel.cu": private, "binding.cpp": BINDING}) == FLOOR


def test_a_check_reaches_a_private_launcher_through_a_copied_size(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"pairs.cu": PAIRS, "pairs.cpp": PAIRS_BINDING}) == []
    assert run_tree(tmp_path, {"pairs.cu": PAIRS, "pairs.cpp": PAIRS_BINDING}, only="pairs.cu") == HALF


def test_a_check_of_a_size_the_launch_does_not_halve_proves_nothing(tmp_path: Path) -> None:
    rows = PAIRS_BINDING.replace("x.size(1) % 2", "x.size(0) % 2")
    assert run_tree(tmp_path, {"pairs.cu": PAIRS, "pairs.cpp": rows}) == HALF


def test_the_process_pool_hands_the_checks_over_too(tmp_path: Path) -> None:
    files = {"kernel.cu": KERNEL, "binding.cpp": BINDING}
    files |= {f"pad{i}.cu": f"__global__ void k{i}(float* x, int n) {{ x[n] = 0.f; }}\n" for i in range(30)}
    assert [f for f in run_tree(tmp_path, files, jobs=2) if not f[0].startswith("pad")] == []


# the binding's checks gathered in a helper it calls first (a size copied into a local there)
CHECKER = """\
#include <torch/extension.h>

torch::Tensor scale_cuda(torch::Tensor x);

namespace {
void check_inputs(const torch::Tensor& x, const torch::Tensor& w) {
    TORCH_CHECK(x.dim() == 1, "x must be a vector");
    const int64_t n = x.numel();
    TORCH_CHECK(n % 256 == 0, "x must fill whole blocks");
}
}  // namespace

torch::Tensor scale(torch::Tensor x, torch::Tensor w) {
    check_inputs(x, w);
    return scale_cuda(x);
}
"""


def test_checks_a_helper_makes_hold_past_its_call(tmp_path: Path) -> None:
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": CHECKER}) == []


def test_a_helper_checking_its_other_argument_proves_nothing(tmp_path: Path) -> None:
    swapped = CHECKER.replace("check_inputs(x, w);", "check_inputs(w, x);")
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": swapped}) == FLOOR


def test_a_check_inside_a_branch_of_the_helper_proves_nothing(tmp_path: Path) -> None:
    branch = CHECKER.replace("    TORCH_CHECK(n % 256 == 0,", "    if (n > 4096)\n        TORCH_CHECK(n % 256 == 0,")
    assert run_tree(tmp_path, {"kernel.cu": KERNEL, "binding.cpp": branch}) == FLOOR
