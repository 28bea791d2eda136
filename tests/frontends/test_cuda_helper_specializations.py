"""A helper name with several bodies: the body walked is the one the call runs.

``copy_vector<T, N>`` is declared once and specialized per element type (``*(float2 *)dst =
*(float2 *)src`` moves four halves, ``*(float4 *)dst = …`` four floats). A call names its
specialization; one made in a kernel template, whose type is still open, runs the specialization
for the same integer arguments, each of which moves N elements of its type.
"""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings, line_of

_COPIES = """
#include <cuda_fp16.h>
template <typename T, int N>
__device__ __inline__ void copy_vector(T *dst, const T *src);
template <>
__device__ __inline__ void copy_vector<__half, 1>(__half *dst, const __half *src) { *dst = *src; }
template <>
__device__ __inline__ void copy_vector<__half, 4>(__half *dst, const __half *src) { *((float2 *)dst) = *((float2 *)src); }
template <>
__device__ __inline__ void copy_vector<float, 4>(float *dst, const float *src) { *((float4 *)dst) = *((float4 *)src); }
"""

_HALF_KERNEL = _COPIES + """
__global__ void scale(__half *out, const __half *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half tmp[4];
  if (GUARD) {
    copy_vector<__half, WIDTH>(tmp, in + 4 * i);
    out[i] = tmp[0];
  }
}
"""

_TEMPLATE_KERNEL = _COPIES + """
template <typename input_t>
__global__ void scale(input_t *out, const input_t *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  input_t tmp[4];
  if (GUARD) {
    copy_vector<input_t, 4>(tmp, in + 4 * i);
    out[i] = tmp[0];
  }
}
"""

_HALF_BODY = "{ *((float2 *)dst) = *((float2 *)src); }"


def _kernel(template: str, guard: str, width: str = "4") -> str:
    return template.replace("GUARD", guard).replace("WIDTH", width)


def test_a_call_runs_its_own_specialization() -> None:
    """Four halves (8 bytes), not the float body's sixteen bytes read as eight halves."""
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings

    src = _kernel(_HALF_KERNEL, "4 * i < n")
    found, _ = check_source("k.cu", Language.CUDA, src, Settings())
    assert [(f.span.line, f.code) for f in found] == [(line_of(src, _HALF_BODY), "BC106")]
    assert found[0].message.startswith("4-wide access to `in`")


def test_the_scalar_specialization_moves_one_element() -> None:
    assert findings(_kernel(_HALF_KERNEL, "4 * i < n", width="1"), Language.CUDA) == []


def test_a_guard_on_the_last_lane_is_clean() -> None:
    assert findings(_kernel(_HALF_KERNEL, "4 * i + 3 < n"), Language.CUDA) == []


def test_a_template_call_runs_the_specialization_of_its_width() -> None:
    src = _kernel(_TEMPLATE_KERNEL, "4 * i < n")
    assert findings(src, Language.CUDA) == [(line_of(src, _HALF_BODY), "BC106")]


def test_a_template_call_guarded_on_its_last_lane_is_clean() -> None:
    assert findings(_kernel(_TEMPLATE_KERNEL, "4 * i + 3 < n"), Language.CUDA) == []


_TWO_CALLS = """
__device__ __forceinline__ void load4(float *dst, const float *src) {
  *reinterpret_cast<float4 *>(dst) = *reinterpret_cast<const float4 *>(src);
}
__global__ void sum(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x[4], y[4];
  if (4 * i < n) {
    load4(x, a + 4 * i);
    load4(y, b + 4 * i);
    out[i] = x[0] + y[0];
  }
}
"""


def test_a_finding_in_a_helper_points_at_its_guard_and_each_call_that_reaches_it() -> None:
    """The access is in the helper's body; the guard to fix and the calls are in the kernel."""
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings

    found, _ = check_source("k.cu", Language.CUDA, _TWO_CALLS, Settings())
    assert [(f.span.line, f.code) for f in found] == [(line_of(_TWO_CALLS, "*reinterpret_cast<const float4"), "BC106")] * 2
    notes = {f.message.split("`")[1]: [(s.line, note) for s, note in f.related] for f in found}
    guard = (line_of(_TWO_CALLS, "if (4 * i < n)"), "the guard that checks the first lane only")
    assert notes == {"a": [guard, (line_of(_TWO_CALLS, "load4(x, a"), "reached through the helper call here")],
                     "b": [guard, (line_of(_TWO_CALLS, "load4(y, b"), "reached through the helper call here")]}


_OFFSET_GUARD = """
__global__ void copy(float *y, const float *x, int n, int seq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int len = seq + 1;
  if (GUARD) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    y[i] = v.x;
  }
}
"""


def _only_message(guard: str) -> str:
    """The message of the one finding, a BC106, on the copy kernel under ``guard``."""
    from boundcheck.engine import check_source
    from boundcheck.settings import Settings

    found, _ = check_source("k.cu", Language.CUDA, _OFFSET_GUARD.replace("GUARD", guard), Settings())
    assert [f.code for f in found] == ["BC106"]
    return found[0].message


def test_the_message_quotes_the_guard_as_written_and_fixes_its_last_lane() -> None:
    message = _only_message("i * 4 + 3 < n + 3")
    assert "is guarded by `(blockIdx.x * blockDim.x + threadIdx.x) * 4 + 3 < n + 3`" in message
    assert "for n % 4 != 0" in message
    assert "guard it with `(blockIdx.x * blockDim.x + threadIdx.x) * 4 + 3 < n`" in message


def test_a_length_named_with_its_constant_keeps_it_in_the_message() -> None:
    message = _only_message("i * 4 < len")
    assert "for (seq + 1) % 4 != 0" in message
    assert "+ 3 < seq + 1`" in message
