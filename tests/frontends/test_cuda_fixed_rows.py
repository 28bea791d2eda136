"""A block of compile-time size walking a row of compile-time length: a warp per head
(``q[head * kHeadDim + lane + 32 * i]``, i < 4, launched with 32 threads, ``head = x % hq``) stays
inside its head's 128 elements. Every number must be known (block size at every launch, loop bound,
pitch, template arguments) and the row index must be a remainder; each near variant is reported.
And a ``break`` leaves its loop, not the kernel: a barrier after the loop is reached by every thread."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import findings, line_of

WARP_PER_HEAD = '''\
#define WARP_SIZE 32

__global__ void l2_normalize(float* q, long long token_stride, int tokens, int hq) {
    constexpr int kHeadDim = 128;
    const int work = blockIdx.x;
    const int token = work / hq;
    const int head = @ROW@;
    float* q_ptr = q + token * token_stride + head * kHeadDim;
    float v[4];
    float sum = 0.f;
    for (int i = 0; i < @STEPS@; ++i) {
        const int d = threadIdx.x + i * WARP_SIZE;
        v[i] = q_ptr[d];
        sum += v[i] * v[i];
    }
    for (int i = 0; i < @STEPS@; ++i) {
        q_ptr[threadIdx.x + i * WARP_SIZE] = v[i] * sum;
    }
}

void launch(float* q, long long token_stride, int tokens, int hq) {
    constexpr int kThreads = WARP_SIZE;
    l2_normalize<<<tokens * hq, @BLOCK@>>>(q, token_stride, tokens, hq);
}
'''


def _check(row: str = "work % hq", steps: str = "4", block: str = "kThreads") -> tuple[str, list[tuple[int, str]]]:
    src = WARP_PER_HEAD.replace("@ROW@", row).replace("@STEPS@", steps).replace("@BLOCK@", block)
    return src, findings(src, Language.CUDA)


def test_a_warp_walking_its_head_is_in_bounds() -> None:
    assert _check()[1] == []


@pytest.mark.parametrize("variant", [{"steps": "5"}, {"block": "64"}, {"block": "tokens"}, {"row": "work"}])
def test_rows_the_lanes_can_leave_are_reported(variant: dict[str, str]) -> None:
    src, found = _check(**variant)
    assert (line_of(src, "v[i] = q_ptr[d];"), "BC101") in found, variant
    assert (line_of(src, "q_ptr[threadIdx.x + i * WARP_SIZE] ="), "BC102") in found, variant


TEMPLATED = '''\
template <int HeadDim, int Threads>
__global__ void scale_heads(float* x, long long row_stride, int hv) {
    const int head = blockIdx.x % hv;
    constexpr int kIters = HeadDim / Threads;
    for (int i = 0; i < kIters; ++i) {
        x[(blockIdx.x / hv) * row_stride + head * HeadDim + i * Threads + threadIdx.x] *= 2.f;
    }
}

void launch(float* x, long long row_stride, int rows, int hv) {
    scale_heads<@DIM@, 64><<<rows * hv, 64>>>(x, row_stride, hv);
}
'''


def test_template_arguments_given_as_literals_size_the_row() -> None:
    assert findings(TEMPLATED.replace("@DIM@", "128"), Language.CUDA) == []


def test_a_row_shorter_than_the_walk_is_reported() -> None:
    src = TEMPLATED.replace("@DIM@", "96").replace("HeadDim / Threads", "2")
    assert (line_of(src, "*= 2.f;"), "BC102") in findings(src, Language.CUDA)


BREAK = '''\
__global__ void rows(const float* x, float* y, int n, int tiles) {
    __shared__ float s[256];
    for (int t = 0; t < tiles; t++) {
        s[threadIdx.x] = 0.f;
        __syncthreads();
        for (int i = 0; i < 4; i++) {
            if (i * 64 + threadIdx.x >= n) {
                break;
            }
@INSIDE@            y[i * 64 + threadIdx.x] = x[i * 64 + threadIdx.x] + s[threadIdx.x];
        }
        __syncthreads();
    }
}
'''


def test_a_break_before_a_barrier_after_its_loop_is_no_early_exit() -> None:
    assert not any(code == "BC303" for _, code in findings(BREAK.replace("@INSIDE@", ""), Language.CUDA))


def test_a_break_before_a_barrier_inside_its_loop_is_reported() -> None:
    src = BREAK.replace("@INSIDE@", "            __syncthreads();\n")
    assert (line_of(src, "break;"), "BC303") in findings(src, Language.CUDA)


HEAD_PER_BLOCK = '''\
#define HEAD 64

template <int head_size>
__global__ void mix(const int B, const int T, const int C, const int H, const float* k, float* dst) {
    const int tid = threadIdx.x;
    const int batch_i = blockIdx.x / H;
    const int head_i = blockIdx.x % H;
    const int n_seq_tokens = T / B;
    __shared__ float kk[head_size];
    for (int t = batch_i * n_seq_tokens * C + head_i * head_size + tid;
         t < (batch_i + 1) * n_seq_tokens * C + head_i * head_size + tid; t += C) {
        __syncthreads();
        kk[tid] = k[t];
        __syncthreads();
        dst[t] = kk[head_size - 1 - tid];
    }
    dst[T * C + blockIdx.x % H * head_size * 2 + tid + head_size] = 0.0f;
}

void launch(int B, int T, int C, int H, const float* k, float* dst) {
    @CHECK@
    if (C / H == HEAD) {
        mix<HEAD><<<B * H, C / H>>>(B, T, C, H, k, dst);
    } else {
        mix<HEAD * 2><<<B * H, C / H>>>(B, T, C, H, k, dst);
    }
}
'''


def test_a_block_size_pinned_by_the_branch_and_an_assert_spans_the_head() -> None:
    """``assert(C / H == 64 || C / H == 128)``: the if arm's block of ``C / H`` threads is 64, the
    else arm's 128, each the template's head size; the token loop steps by whole rows of C, and
    ``+ head_size`` is an offset inside a row of two heads."""
    src = HEAD_PER_BLOCK.replace("@CHECK@", "assert(C / H == HEAD || C / H == HEAD * 2);")
    assert findings(src, Language.CUDA) == []


def test_without_the_assert_the_else_arm_block_is_unknown() -> None:
    src = HEAD_PER_BLOCK.replace("@CHECK@", "")
    found = findings(src, Language.CUDA)
    assert (line_of(src, "kk[tid] = k[t];"), "BC101") in found
    assert (line_of(src, "dst[t] ="), "BC102") in found


def test_an_assert_that_allows_a_block_larger_than_the_head_is_reported() -> None:
    src = HEAD_PER_BLOCK.replace("@CHECK@", "assert(C / H == HEAD || C / H == HEAD * 4);")
    assert (line_of(src, "kk[tid] = k[t];"), "BC101") in findings(src, Language.CUDA)


# sglang's KDA decode: 256 threads per (batch, head), each channel `tid & (kDim - 1)` of a head of
# kDim, the head a remainder, inside a fused q/k/v row whose sections start at whole heads
MASKED_CHANNEL = '''\
constexpr int kHeads = 12;
constexpr int kDim = 128;
constexpr int kThreads = 256;

__global__ void conv(const float* x, long long x_stride, float* out) {
    const int tid = threadIdx.x;
    const int batch = blockIdx.x / kHeads;
    const int head = blockIdx.x % kHeads;
    const int c = @CHANNEL@;
    const int ch_v = @SECTION@ + head * kDim + c;
    out[batch * x_stride + ch_v] = x[batch * x_stride + ch_v];
}

void launch(const float* x, float* out, int batch, long long stride) {
    conv<<<dim3(batch * kHeads), dim3(kThreads)>>>(x, stride, out);
}
'''


def _masked(channel: str = "tid & (kDim - 1)", section: str = "2 * kHeads * kDim") -> tuple[str, list[tuple[int, str]]]:
    src = MASKED_CHANNEL.replace("@CHANNEL@", channel).replace("@SECTION@", section)
    return src, findings(src, Language.CUDA)


@pytest.mark.parametrize("channel", ["tid & (kDim - 1)", "tid & 127", "tid % kDim", "tid % 128"])
def test_a_channel_masked_to_the_head_stays_in_its_head(channel: str) -> None:
    assert _masked(channel)[1] == []


@pytest.mark.parametrize("variant", [{"channel": "tid & 255"}, {"channel": "tid"}, {"section": "64"}])
def test_a_channel_past_the_head_or_a_section_inside_a_head_is_reported(variant: dict[str, str]) -> None:
    src, found = _masked(**variant)
    line = line_of(src, "out[batch * x_stride + ch_v] =")
    assert sorted(found) == [(line, "BC101"), (line, "BC102")], variant
