"""Launch wrappers: a host function that launches the kernel it is given (ggml's
``ggml_cuda_kernel_launch(kernel, params, args...)``, a plain ``launch(kernel, grid, block,
args...)``) makes each of its calls a launch of the kernel passed, with the grid and block its
``<<<`` reads: a parameter, or a member of a struct built at the call site (through its
constructor's initialiser list, or an aggregate's field order). Each beside a variant that is no
wrapper, or no launch of the kernel, and keeps the finding."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


KERNEL = """\
#include <utility>

__global__ void scale(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i];
}
"""

PLAIN = KERNEL + """\
template <typename Kernel, typename... Args>
static void launch(Kernel kernel, dim3 grid, dim3 block, Args&&... args) {
    kernel<<<grid, block>>>(std::forward<Args>(args)...);
}

void run(const float* x, float* y, int n) {
    CHECK
    launch(scale, dim3(GRID), dim3(256), x, y, n);
}
"""


def test_a_host_assert_before_a_wrapped_launch_holds_for_its_kernel() -> None:
    src = PLAIN.replace("CHECK", "assert(n % 256 == 0);").replace("GRID", "n / 256")
    assert cuda(src) == []


def test_a_wrapped_launch_with_a_floored_grid_is_reported_at_the_call() -> None:
    src = PLAIN.replace("CHECK", "").replace("GRID", "n / 256")
    assert (line_of(src, "launch(scale,"), "BC302") in cuda(src)


def test_without_the_assert_the_wrapped_kernel_keeps_its_finding() -> None:
    src = PLAIN.replace("CHECK", "").replace("GRID", "(n + 255) / 256")
    assert cuda(src) == [(line_of(src, "y[i] ="), "BC101"), (line_of(src, "y[i] ="), "BC102")]


def test_a_function_that_launches_a_fixed_kernel_is_no_wrapper() -> None:
    src = PLAIN.replace("kernel<<<grid, block>>>(std::forward<Args>(args)...);",
                        "scale<<<grid, block>>>(std::forward<Args>(args)...);") \
        .replace("CHECK", "assert(n % 256 == 0);").replace("GRID", "n / 256")
    assert (line_of(src, "y[i] ="), "BC102") in cuda(src)


PARAMS = KERNEL + """\
struct launch_params {
    dim3 block_nums;
    dim3 block_dims;
    size_t shmem;
    launch_params(const dim3& block_dims_, const dim3& block_nums_, size_t shmem_)
        : block_nums(block_nums_), block_dims(block_dims_), shmem(shmem_) {}
};

template <typename Kernel, typename... Args>
static void kernel_launch(Kernel kernel, const launch_params& p, Args&&... args) {
    kernel<<<p.block_nums, p.block_dims, p.shmem>>>(std::forward<Args>(args)...);
}

void run(const float* x, float* y, int n) {
    assert(n % 256 == 0);
    const dim3 nums(n / 256, 1, 1);
    const dim3 dims(256, 1, 1);
    const launch_params params = {dims, nums, 0};
    kernel_launch(scale, params, x, y, n);
}
"""


def test_a_struct_of_launch_dimensions_is_read_through_its_constructor() -> None:
    """The constructor takes the block first: its initialiser list, not the field order, says so."""
    assert cuda(PARAMS) == []
    swapped = PARAMS.replace("{dims, nums, 0}", "{nums, dims, 0}")
    assert (line_of(swapped, "y[i] ="), "BC102") in cuda(swapped)


def test_an_aggregate_of_launch_dimensions_is_read_in_field_order() -> None:
    src = PARAMS.replace("""    launch_params(const dim3& block_dims_, const dim3& block_nums_, size_t shmem_)
        : block_nums(block_nums_), block_dims(block_dims_), shmem(shmem_) {}
""", "").replace("{dims, nums, 0}", "{nums, dims, 0}")
    assert cuda(src) == []
