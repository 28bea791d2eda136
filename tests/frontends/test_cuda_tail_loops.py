"""A loop whose condition holds only past the extent (``while ((i + 1) * 4 > V)``: the unaligned
tail handled before a main loop of whole packs) runs the partial tile itself, so an access in it
is no full tile whose tail another access peels."""

from boundcheck.model import Language
from tests.checking import findings, line_of

TAIL = """
__global__ void row_max(float *out, const float *x, int V) {
  int i = (V + 3) / 4 + threadIdx.x - blockDim.x;
  float m = -1e30f;
  while ((i + 1) * 4 > V) {
    for (int k = 0; k < 4; ++k) {
      GUARD
      m = fmaxf(m, x[i * 4 + k]);
    }
    i -= blockDim.x;
  }
  for (; i >= 0; i -= blockDim.x) {
    if (i * 4 < V) m = fmaxf(m, x[i * 4]);
  }
  if (threadIdx.x < V) out[threadIdx.x] = m - x[threadIdx.x];
}
"""


def test_unguarded_read_in_the_tail_loop_is_reported() -> None:
    src = TAIL.replace("GUARD", "")
    assert findings(src, Language.CUDA) == [(line_of(src, "m = fmaxf(m, x[i * 4 + k])"), "BC101")]


def test_guarded_read_in_the_tail_loop_is_silent() -> None:
    src = TAIL.replace("GUARD", "if (i * 4 + k >= V) break;")
    assert findings(src, Language.CUDA) == []


PADDED_ROWS = """\
#define K 64
__global__ void rows(const float* x, float* y, int n) {
    for (int i0 = 0; i0 < n; i0 += 32) {
        const int i = i0 + threadIdx.x;
        y[i * (K + 1)] = x[i * (K + 1)];
    }
}
"""


def test_rows_of_a_padded_pitch_stepped_by_a_loop_still_need_their_guard() -> None:
    # i0 and threadIdx.x share the pitch K + 1, a sum: i0 still steps by whole rows of the thread
    # index (the segment reading of sums is for named tiles, a Triton lane's, not blockDim's)
    line = line_of(PADDED_ROWS, "y[i * (K + 1)]")
    assert findings(PADDED_ROWS, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


FIXED_REGION = """\
template <int D>
__global__ void copy(const float* x, float* y, int n) {
    constexpr int I = STOP;
    for (int i0 = 0; i0 < I; i0 += 32) {
        const int i = OFFSET i0 + threadIdx.x;
        y[i] = x[i];
    }
}
void launch(const float* x, float* y, int n) { copy<80><<<(n + 127) / 128, 32>>>(x, y, n); }
"""


def test_a_compile_time_region_walked_in_whole_steps_needs_no_guard() -> None:
    src = FIXED_REGION.replace("STOP", "4 * 32").replace("OFFSET", "")
    assert findings(src, Language.CUDA) == []


def test_a_compile_time_region_with_a_partial_last_step_is_reported() -> None:
    src = FIXED_REGION.replace("STOP", "100").replace("OFFSET", "")
    line = line_of(src, "y[i] = x[i]")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


def test_a_template_size_is_no_compile_time_region() -> None:
    # D is whatever the host dispatches (a head size of 80, walked by 32): a problem dimension
    src = FIXED_REGION.replace("STOP", "D").replace("OFFSET", "")
    line = line_of(src, "y[i] = x[i]")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


def test_a_fixed_region_a_block_places_in_a_runtime_extent_still_needs_its_guard() -> None:
    # each block copies its own 128 elements of n: the last block's are past n
    src = FIXED_REGION.replace("STOP", "128").replace("OFFSET", "blockIdx.x * 128 +")
    line = line_of(src, "y[i] = x[i]")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


VECTOR_THEN_TAIL = """\
template <typename T> struct traits { static constexpr int size() { return 16 / sizeof(T); } };

template <typename T>
__global__ void cast(const T* x, float* y, int count) {
    constexpr int VEC = traits<T>::size();
    const int count_vec = count / VEC;
    const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = gtid; i < count_vec; i += gridDim.x * blockDim.x) {
        for (int k = 0; k < VEC; ++k) y[i * VEC + k] = x[i * VEC + k];
    }
    for (int i = TAIL + gtid; i < count; i += gridDim.x * blockDim.x) y[i] = x[i];
}
"""


def test_a_vector_loop_whose_tail_starts_at_a_local_quotient_times_the_width_is_silent() -> None:
    # ggml allreduce: `const int count_vec = count / ELEMS_PER_VEC; tail = count_vec * ELEMS_PER_VEC`
    src = VECTOR_THEN_TAIL.replace("TAIL", "count_vec * VEC")
    assert findings(src, Language.CUDA) == []


def test_a_vector_loop_with_no_tail_is_reported_by_the_width_it_is_written_with() -> None:
    src = VECTOR_THEN_TAIL.replace("TAIL", "count")
    line = line_of(src, "for (int i = gtid; i < count_vec;")
    assert findings(src, Language.CUDA) == [(line, "BC301")]
    message = next(m for _, _, m in _messages(src) if "BC301" in m)
    assert "count / (traits<T>::size())" in message  # a dependent call is named by its text, not `()`


def _messages(src: str) -> list[tuple[int, str, str]]:
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings

    found, _ = check_source("k.cu", Language.CUDA, src, Settings())
    return [(f.span.line, f.code, f"{f.code} {f.message}") for f in found]


ROW_THEN_TAIL = """\
__global__ void row_sum(float* out, const float* x, int width) {
    int iterations = width / blockDim.x;
    int tail = iterations * blockDim.x + threadIdx.x;
    x += blockIdx.x * width;
    float sum = 0.f;
    for (int i = 0; i < iterations; i++) sum += x[i * blockDim.x + threadIdx.x];
    if (tail < width) {
        sum += x[tail];
        iterations++;
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
"""


def test_a_tail_placed_by_the_first_value_of_a_local_quotient_is_handled() -> None:
    # DeepSpeed layer norm: `high_index = iterations * iteration_stride + id` before `iterations++`
    assert findings(ROW_THEN_TAIL, Language.CUDA) == []


def test_a_quotient_local_written_before_the_tail_start_proves_no_tail() -> None:
    src = ROW_THEN_TAIL.replace("    int tail =", "    iterations *= 1;\n    int tail =")
    assert findings(src, Language.CUDA) == [(line_of(src, "for (int i = 0; i < iterations; i++)"), "BC301")]


def test_a_quotient_local_written_in_a_loop_around_the_tail_start_proves_no_tail() -> None:
    src = ROW_THEN_TAIL.replace("    int tail = iterations * blockDim.x + threadIdx.x;\n", "").replace(
        "    if (tail < width) {", "    for (int r = 0; r < 2; r++) {\n"
        "    int tail = iterations * blockDim.x + threadIdx.x;\n    if (tail < width) {").replace(
        "        iterations++;\n    }", "        iterations++;\n    }\n    }")
    assert findings(src, Language.CUDA) == [(line_of(src, "for (int i = 0; i < iterations; i++)"), "BC301")]
