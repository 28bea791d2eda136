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
