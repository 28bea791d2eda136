"""PyTorch extensions parse without PyTorch: missing ``torch/``, ``ATen/`` and ``c10/`` includes are
answered with declarations of what kernels and launchers use (``at::Half``, tensor accessors,
``TensorInfo``, ``AT_DISPATCH_*``), so the kernels are checked instead of reported as only partly
understood (BC001), and launches inside a dispatch lambda are read."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

EXTENSION = '''\
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/TensorInfo.cuh>

template <typename scalar_t>
__global__ void scale_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, at::Half h, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
@GUARD@    y[i] = x[i] * static_cast<float>(h);
}

template <typename scalar_t>
__global__ void info_kernel(at::cuda::detail::TensorInfo<scalar_t, int> src,
                            at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> out,
                            c10::complex<float> z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int offset = at::cuda::detail::IndexToOffset<scalar_t, int, -1>::get(i, src);
        src.data[offset] = src.data[offset] * z.real();
    }
}

torch::Tensor scale(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    auto y = torch::empty_like(x);
    int n = x.numel();
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "scale", [&] {
        scale_kernel<scalar_t><<<@GRID@, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), at::Half(2.0f), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
'''


def _check(guard: str = "    if (i >= n) return;\n", grid: str = "(n + 255) / 256") -> tuple[str, list[tuple[int, str]]]:
    src = EXTENSION.replace("@GUARD@", guard).replace("@GRID@", grid)
    return src, findings(src, Language.CUDA)


def test_an_extension_parses_and_its_guarded_kernels_are_clean() -> None:
    assert _check()[1] == []


def test_an_unguarded_extension_kernel_is_reported() -> None:
    src, found = _check(guard="")
    line = line_of(src, "y[i] = x[i]")
    assert found == [(line, "BC101"), (line, "BC102")]


def test_a_floor_grid_inside_a_dispatch_lambda_is_reported() -> None:
    src, found = _check(grid="n / 256")
    assert found == [(line_of(src, "scale_kernel<scalar_t><<<"), "BC302")]


def test_a_torch_check_is_an_assert_the_launch_relies_on() -> None:
    for check in ('TORCH_CHECK(n % 256 == 0, "n must be a multiple of 256");',
                  "TORCH_INTERNAL_ASSERT(n % 256 == 0);"):
        src = EXTENSION.replace("@GUARD@", "").replace("@GRID@", "n / 256").replace(
            "    AT_DISPATCH", f"    {check}\n    AT_DISPATCH")
        assert findings(src, Language.CUDA) == [], check


def test_a_torch_check_of_another_size_excuses_nothing() -> None:
    src = EXTENSION.replace("@GUARD@", "").replace("@GRID@", "n / 256").replace(
        "    AT_DISPATCH", '    TORCH_CHECK(n % 128 == 0, "n must be a multiple of 128");\n    AT_DISPATCH')
    assert findings(src, Language.CUDA) == [(line_of(src, "scale_kernel<scalar_t><<<"), "BC302")]
