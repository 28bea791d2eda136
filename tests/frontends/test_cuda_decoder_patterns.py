"""Patterns of decoder attention kernels (FasterTransformer and its many copies): a max reduced
across warps and broadcast from lane 0 carries no padding into the softmax sum that follows; the
current step's score is written at ``qk[t - first]``, so ``ti <= t`` walks the scores the kernel
wrote (also through a typed view of a byte buffer); the async-copy pipeline and bfloat16
conversions parse; and a condition written over several lines is quoted on one."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

BROADCAST = '''\
#define WARPS 4

__global__ void softmax_row(const float* x, float* y, int n) {
    __shared__ float red[WARPS];
    __shared__ float qk[1024];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float m = -FLT_MAX;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        qk[i] = x[blockIdx.x * n + i];
        m = fmaxf(m, qk[i]);
    }
    for (int mask = 16; mask >= 1; mask /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = lane < WARPS ? red[lane] : -FLT_MAX;
    for (int mask = WARPS / 2; mask >= 1; mask /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
    m = __shfl_sync(0xffffffffu, m, @SRC@);
    float sum = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float logit = __expf(qk[i] - m);
        sum += logit;
        qk[i] = logit;
    }
    if (threadIdx.x == 0) y[blockIdx.x] = sum;
}
'''


def test_a_max_broadcast_from_lane_zero_carries_no_padding() -> None:
    assert findings(BROADCAST.replace("@SRC@", "0"), Language.CUDA) == []


def test_a_lane_that_may_be_padded_still_carries_it() -> None:
    src = BROADCAST.replace("@SRC@", "31")
    assert (line_of(src, "m = lane < WARPS ? red[lane] : -FLT_MAX;"), "BC202") in findings(src, Language.CUDA)


SCORES = '''\
__global__ void decode(const float* k, float* out, const int* lengths, int max_len) {
    extern __shared__ char smem_[];
    float* qk = reinterpret_cast<float*>(smem_);
    const int t = lengths[blockIdx.x];
    const int first = max(0, t + 1 - max_len);
    if (threadIdx.x == 0) qk[t - first] = k[blockIdx.x];
    __syncthreads();
    for (int ti = first + threadIdx.x; ti <= t@EXTRA@; ti += blockDim.x) {
        out[blockIdx.x * max_len + ti - first] = qk[ti - first];
    }
}
'''


def test_an_inclusive_walk_of_the_scores_the_kernel_wrote_is_intended() -> None:
    assert not any(code == "BC104" for _, code in findings(SCORES.replace("@EXTRA@", ""), Language.CUDA))


def test_a_walk_past_the_written_score_is_reported() -> None:
    src = SCORES.replace("@EXTRA@", " + 1")
    assert (line_of(src, "ti <= t + 1"), "BC104") in findings(src, Language.CUDA)


PIPELINE = '''\
#include <cuda_pipeline.h>
#include <cuda_bf16.h>

__global__ void stage(const float* a, __nv_bfloat162* b, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < n) {
        __pipeline_memcpy_async(&tile[threadIdx.x], &a[i], sizeof(float));
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (i < n) b[i] = __float22bfloat162_rn(make_float2(tile[threadIdx.x], 0.f));
}
'''


def test_async_copies_and_bfloat16_conversions_parse() -> None:
    assert findings(PIPELINE, Language.CUDA) == []


MULTILINE = '''\
__global__ void k(const float* x, float* y, int n, bool cross, const int* lens) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int last = cross ? lens[blockIdx.y] :
                             n;
    if (i <= last) {
        y[i] = x[i];
    }
}
'''


def test_a_condition_over_several_lines_is_quoted_on_one() -> None:
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings

    found, _ = check_source("k.cu", Language.CUDA, MULTILINE, Settings())
    message = next(f.message for f in found if f.code == "BC104")
    assert "\n" not in message and "cross ? lens[blockIdx.y] : n" in message
