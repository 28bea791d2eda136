"""What kernels of PyTorch extensions and sparse-convolution libraries use without the toolkit or
ATen's internal headers parses: 64-bit vector makers, the bf16 fused multiply-add, pipelines of
any thread scope and ``pipeline_consumer_wait_prior<N>``, ``c10::complex`` mixed with scalars with
``std::conj`` and ``at::scalar_value_type``, ATen's ``WARP_SHFL_DOWN`` and
``BlockReduceSum``, and GLM's ``mat * mat`` as the matrix product. Each kernel below is analysed
(its unguarded access reported), not left as BC001. Host code of such extensions
(``torch::IntArrayRef``, ``std::optional``, ``cudaFuncSetAttribute``, ``std::ostringstream``,
``std::getenv``, ``AT_ERROR``) parses
without an error, so none of its statements is dropped."""

from __future__ import annotations

import pytest

from boundcheck.frontends.cuda_parse import parse
from boundcheck.model import Language
from tests.checking import findings, line_of

VECTORS = '''\
#include <cuda_bf16.h>
__global__ void pack(const unsigned long long* x, ulonglong4* y, const __nv_bfloat162* a, __nv_bfloat162* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = make_ulonglong4(x[i], 0ull, 0ull, 0ull);
    b[i] = __hfma2(a[i], a[i], a[i]);
}
'''

PIPELINE = '''\
#include <cuda/pipeline>
__global__ void staged(const float* x, float* y) {
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i];
}
'''

COMPLEX = '''\
#include <torch/python.h>
#include <ATen/native/cuda/block_reduce.cuh>
#include <c10/util/complex.h>
template <typename scalar_t>
__global__ void cauchy(const scalar_t* v, scalar_t* out, scalar_t* smem) {
    using real_t = typename at::scalar_value_type<scalar_t>::type;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    scalar_t t = std::conj(v[i]) * 2 + real_t(1);
    t = WARP_SHFL_DOWN(t, 16);
    t = at::native::cuda_utils::BlockReduceSum<scalar_t>(t, smem);
    out[i] = t;
}
template __global__ void cauchy<c10::complex<float>>(const c10::complex<float>*, c10::complex<float>*,
                                                    c10::complex<float>*);
'''

GLM = '''\
#include <glm/glm.hpp>
__global__ void cov(const glm::mat3* r, const glm::mat3* s, glm::mat3* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    glm::mat3 m = r[i] * s[i];
    out[i] = glm::transpose(m) * m;
}
'''


@pytest.mark.parametrize("src, reads, writes", [
    (VECTORS, ["y[i] = make_ulonglong4"] + ["b[i] = __hfma2"] * 3, ["y[i] = make_ulonglong4", "b[i] = __hfma2"]),
    (PIPELINE, ["y[i] = x[i]"], ["y[i] = x[i]"]),
    (COMPLEX, ["scalar_t t = std::conj"], ["out[i] = t"]),
    (GLM, ["glm::mat3 m ="] * 2, ["out[i] ="]),
], ids=["vectors", "pipeline", "complex", "glm"])
def test_the_kernel_is_analysed(src: str, reads: list[str], writes: list[str]) -> None:
    found = findings(src, Language.CUDA)
    assert all(code != "BC001" for _, code in found), found
    assert found == sorted([(line_of(src, r), "BC101") for r in reads] + [(line_of(src, w), "BC102") for w in writes])


HOST = '''\
#include <torch/extension.h>
#include <sstream>
#include <iostream>
#include <optional>
#include <cstdlib>
#include <cstring>

__global__ void scale_kernel(const float* x, float* y, long n) {
    long i = blockIdx.x * 256 + threadIdx.x;
    y[i] = 2.f * x[i];
}

torch::Tensor scale_cuda(torch::Tensor x, torch::IntArrayRef shape, std::optional<torch::Tensor> const& bias) {
    auto y = torch::empty(shape, x.options().dtype(torch::kFloat32));
    const bool verbose = std::getenv("SCALE_VERBOSE") && std::strcmp(std::getenv("SCALE_VERBOSE"), "1") == 0;
    const int64_t n = x.numel();
    if (x.dtype() != torch::kFloat32) {
        std::ostringstream oss;
        oss << "bad dtype " << x.dtype() << std::endl;
        AT_ERROR(oss.str());
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaFuncSetAttribute(scale_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    scale_kernel<<<n / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    TORCH_CHECK(cudaPeekAtLastError() == cudaSuccess);
    return y;
}
'''


TUPLE = '''\
#include <tuple>
__device__ std::tuple<int, int, int> stage_of(int t) {
    return std::tuple<int, int, int>{t / 4, t % 4, t};
}
__global__ void stages(const int* x, int* y) {
    auto [stage, start, end] = stage_of(threadIdx.x);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] + stage + start + end;
}
'''


def test_a_tuple_unpacked_into_names_parses() -> None:
    assert findings(TUPLE, Language.CUDA) == [(line_of(TUPLE, "y[i] = x[i]"), "BC101"), (line_of(TUPLE, "y[i] = x[i]"), "BC102")]


def test_extension_host_code_parses_without_errors() -> None:
    assert parse("k.cu", HOST, []).diagnostics == []
    assert findings(HOST, Language.CUDA) == [(line_of(HOST, "scale_kernel<<<"), "BC302")]


LIBRARIES = '''\
#include <torch/extension.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <cub/cub.cuh>
#include <cooperative_groups.h>
#include <cmath>
namespace cg = cooperative_groups;
__device__ thrust::tuple<float, float> halves(float v) { return thrust::make_tuple(v / 2, v / 2); }
template <typename scalar_t>
__global__ void mixed(const float* x, float* y, at::Half scale, at::PhiloxCudaState philox, long* z) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto parts = halves(x[i]);
    float whole;
    float frac = std::modf(x[i], &whole);
    std::size_t k = std::lround(x[i]) + std::llround(1.5f);
    cub::KeyValuePair<long, float> kv(k, thrust::get<0>(parts) + frac);
    auto seeds = at::cuda::philox::unpack(philox);
    cg::this_cluster().barrier_arrive();
    cg::grid_group::arrival_token token = 0u;
    y[i] = kv.value * __half2float(scale) + static_cast<float>(at::numeric_limits<scalar_t>::lowest())
           + std::get<0>(seeds) + token;
    z[i] = kv.key;
}
template __global__ void mixed<float>(const float*, float*, at::Half, at::PhiloxCudaState, long*);
'''


def test_kernels_using_thrust_cub_aten_and_cluster_calls_are_analysed() -> None:
    found = findings(LIBRARIES, Language.CUDA)
    assert found == sorted([(line_of(LIBRARIES, "auto parts = halves(x[i])"), "BC101")]
                           + [(line_of(LIBRARIES, "float frac = std::modf(x[i]"), "BC101")]
                           + [(line_of(LIBRARIES, "std::size_t k = std::lround(x[i])"), "BC101")]
                           + [(line_of(LIBRARIES, "y[i] = kv.value"), "BC102"), (line_of(LIBRARIES, "z[i] = kv.key"), "BC102")])
