"""A block-wide device helper that no kernel of its file calls is checked as written; a pointer it
both writes and reads by thread ids alone across a ``__syncthreads()`` is the caller's per-block
scratch (sized by the block), not a tiled tensor. Without the exchange, or with a block id or an
offset in the index, the accesses are checked as before."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

HELPER = '''\
template <typename T>
__device__ T reduce_block(T* x, T val, int lanes) {
    int tid = threadIdx.x + threadIdx.y * blockDim.x;
    int block = blockDim.x * blockDim.y;
    x[@INDEX@] = val;
@SYNC@    for (int i = block >> 1; i >= 64; i >>= 1) {
        if (tid < i) x[@INDEX@] = x[@INDEX@] + x[@INDEX@ + i];
@SYNC@    }
    T total = val;
    if (tid < 32) total = x[@INDEX@] + x[@INDEX@ + 32];
    if (tid < lanes) x[@INDEX@] = total;
    return total;
}
'''


def _check(index: str = "tid", sync: str = "    __syncthreads();\n") -> tuple[str, list[tuple[int, str]]]:
    src = HELPER.replace("@INDEX@", index).replace("@SYNC@", sync)
    return src, findings(src, Language.CUDA, path="k.cuh")


def test_a_block_scratch_exchanged_across_a_barrier_is_no_tiled_tensor() -> None:
    assert _check()[1] == []


def test_without_a_barrier_the_pointer_is_checked() -> None:
    src, found = _check(sync="")
    assert (line_of(src, "x[tid] = val;"), "BC102") in found


def test_a_block_id_in_the_index_is_checked() -> None:
    src, found = _check(index="blockIdx.x * 64 + tid")
    assert (line_of(src, "x[blockIdx.x * 64 + tid] = val;"), "BC102") in found


GROUPS = '''\
namespace cg = cooperative_groups;

template <int NUM>
__device__ void block_sums(float* elements, float* shm) {
    cg::thread_block cta = cg::this_thread_block();
    const int tid = threadIdx.x;
    for (int i = 0; i < NUM; i++) {
        shm[i * blockDim.x + tid] = elements[i];
    }
@SYNC@    if (tid == 0) {
        for (int i = 0; i < NUM; i++) {
            float total = 0.f;
            for (int j = 0; j < blockDim.x; j += 32) total += shm[i * blockDim.x + j];
            elements[i] = total;
        }
    }
}
'''


def test_a_scratch_exchanged_across_a_group_sync_with_counted_rows() -> None:
    assert findings(GROUPS.replace("@SYNC@", "    cg::sync(cta);\n"), Language.CUDA, path="k.cuh") == []


VERSIONED = '''\
#ifndef CUDART_VERSION
#error CUDART_VERSION Undefined!
#elif (CUDART_VERSION >= 11000)
#include <cub/cub.cuh>
#endif

__global__ void sums(const float* x, float* out, int n) {
    typedef cub::BlockReduce<float, 128> Reduce;
    __shared__ typename Reduce::TempStorage storage;
    int i = blockIdx.x * 128 + threadIdx.x;
    float v = i < n ? x[i] : 0.f;
    float total = Reduce(storage).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
'''


def test_code_behind_a_cuda_version_test_parses() -> None:
    assert findings(VERSIONED, Language.CUDA) == []
