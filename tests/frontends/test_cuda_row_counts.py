"""Rows counted down from the end, as warp softmax kernels (Megatron, apex, FasterTransformer) bound
them: ``local_batches = rows - first_batch`` clamped to the warp's batch (``if (local_batches >
WARP_BATCH) local_batches = WARP_BATCH;``), then a per-row count zeroed past it (``(i >=
local_batches) ? 0 : cols``) or an exit (``if (i >= local_batches) break;``). Each bounds row
``first_batch + i`` by ``rows``; near variants that bound nothing are still reported."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

SOFTMAX = """\
__global__ void softmax_fwd(float* dst, const float* src, int rows, int cols) {
    constexpr int WARP_BATCH = 2;
    constexpr int WARP_ITERATIONS = 4;
    int first_batch = (blockDim.y * blockIdx.x + threadIdx.y) * WARP_BATCH;
    int local_batches = rows - first_batch;
    if (local_batches > WARP_BATCH) local_batches = WARP_BATCH;
    int local_idx = threadIdx.x;
    src += first_batch * cols + local_idx;
    dst += first_batch * cols + local_idx;
    float elements[WARP_BATCH][WARP_ITERATIONS];
    for (int i = 0; i < WARP_BATCH; ++i) {
        int batch_element_count = (i >= local_batches) ? 0 : cols;
        for (int it = 0; it < WARP_ITERATIONS; ++it) {
            int element_index = local_idx + it * 32;
            if (element_index < batch_element_count) {
                elements[i][it] = src[i * cols + it * 32];
            } else {
                elements[i][it] = -1e30f;
            }
        }
    }
    for (int i = 0; i < WARP_BATCH; ++i) {
        if (i >= local_batches) break;
        for (int it = 0; it < WARP_ITERATIONS; ++it) {
            int element_index = local_idx + it * 32;
            if (element_index < cols) {
                dst[i * cols + it * 32] = elements[i][it];
            }
        }
    }
}
"""
READ, WRITE = line_of(SOFTMAX, "= src[i * cols"), line_of(SOFTMAX, "dst[i * cols")


def cuda(src: str) -> list[tuple[int, str]]:
    return findings(src, Language.CUDA)


def test_rows_counted_down_and_clamped_bound_every_access() -> None:
    assert cuda(SOFTMAX) == []


def test_a_count_that_is_not_zeroed_past_the_rows_bounds_no_row() -> None:
    src = SOFTMAX.replace("(i >= local_batches) ? 0 : cols", "cols")
    assert cuda(src) == [(READ, "BC103")]


def test_a_count_zeroed_on_the_wrong_side_bounds_no_row() -> None:
    src = SOFTMAX.replace("(i >= local_batches) ? 0 : cols", "(i >= local_batches) ? cols : 0")
    assert cuda(src) == [(READ, "BC103")]


def test_a_clamp_to_another_value_or_a_raise_to_a_floor_loses_the_count() -> None:
    for clamp in ("if (local_batches > WARP_BATCH) local_batches = 5;",
                  "if (local_batches < WARP_BATCH) local_batches = WARP_BATCH;"):
        src = SOFTMAX.replace("if (local_batches > WARP_BATCH) local_batches = WARP_BATCH;", clamp)
        assert cuda(src) == [(READ, "BC103"), (WRITE, "BC103")], clamp
