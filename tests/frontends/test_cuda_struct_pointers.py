"""CUDA code the frontend used to misread: comparisons of a template's dependent type, a functor's
device ``operator()`` (the body a generic kernel runs), pointers held in a parameter struct, an
address taken (``&x[i]``) rather than an access, and a test kept in an ``int``. Each is paired
with a near variant, and the rule code and line are asserted."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.frontends import cuda
from boundcheck.model import Language
from boundcheck.settings import Settings
from tests.checking import findings, line_of

DEPENDENT = """\
template <typename index_t>
__global__ void copy(const float* g, float* p, index_t n) {
  for (index_t start = 0; start < n; start += blockDim.x * 4) {
    for (int ii = 0; ii < 4; ii++) {
      int i = start + threadIdx.x + ii * blockDim.x;
      if (i < n) {
        p[i] = g[i];
      }
    }
  }
}
"""


def test_a_guard_on_a_dependent_type_is_a_guard() -> None:
    """``i < n`` with ``index_t n`` is an unresolved ``operator<`` call to libclang."""
    assert findings(DEPENDENT, Language.CUDA) == []


def test_without_that_guard_the_store_is_reported() -> None:
    src = DEPENDENT.replace("if (i < n) {", "{")
    assert findings(src, Language.CUDA) == [(line_of(src, "p[i] = g[i]"), "BC101"), (line_of(src, "p[i] = g[i]"), "BC102")]


FUNCTOR = """\
struct TensorList { void* addresses[2][36]; int sizes[36]; int block_to_tensor[320]; };

template <typename T>
struct ScaleFunctor {
  __device__ __forceinline__ void operator()(int chunk_size, TensorList& tl, float scale) {
    int loc = tl.block_to_tensor[blockIdx.x];
    int n = tl.sizes[loc];
    T* in = (T*)tl.addresses[0][loc];
    T* out = (T*)tl.addresses[1][loc];
    float r[4];
    for (int start = 0; start < n && start < chunk_size; start += blockDim.x * 4) {
      for (int ii = 0; ii < 4; ii++) {
        int i = start + threadIdx.x + ii * blockDim.x;
        if (i < n && i < chunk_size)
          r[ii] = in[i];
      }
      for (int ii = 0; ii < 4; ii++) {
        int i = start + threadIdx.x + ii * blockDim.x;
        if (i < n && i < chunk_size)
          out[i] = r[ii] * scale;
      }
    }
  }
};
"""


def test_a_functors_guarded_body_is_checked_and_clean() -> None:
    assert findings(FUNCTOR, Language.CUDA) == []


def test_a_brace_less_guard_leaves_the_next_statement_unguarded() -> None:
    """apex's SGD functor before NVIDIA/apex@3b32c40: the second load ran past the chunk."""
    src = FUNCTOR.replace("          r[ii] = in[i];\n", "          r[ii] = in[i];\n          r[ii] += out[i];\n")
    assert findings(src, Language.CUDA) == [(line_of(src, "r[ii] += out[i]"), "BC101")]


PARAMS = """\
struct Params { float* src; float* dst; int n; };

__global__ void scale(Params params) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* const src = &params.src[i];
  const int valid = i < params.n;
  if (valid) {
    params.dst[i] = src[0] * 2.f;
  }
}
"""


def test_pointers_in_a_parameter_struct_under_an_int_test_and_an_address_taken() -> None:
    assert findings(PARAMS, Language.CUDA) == []


def test_a_struct_pointer_written_without_the_guard_is_reported() -> None:
    src = PARAMS.replace("    params.dst[i] = src[0] * 2.f;\n  }\n", "  }\n  params.dst[i] = src[0];\n")
    line = line_of(src, "params.dst[i] = src[0];")
    assert findings(src, Language.CUDA) == [(line, "BC101"), (line, "BC102")]


CLAMPED = """\
__global__ void bias(const float* b, float* out, int c) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int valid = t < c;
  if (!valid) t = c - 1;
  float v = 0.f;
  if (valid) v = b[blockIdx.x * blockDim.x + threadIdx.x];
  out[t] = v;
}
"""


def test_a_test_kept_in_a_name_holds_of_the_values_it_was_computed_from() -> None:
    """apex groupbn: ``is_valid_c = thread_c < params.c`` before ``thread_c`` is clamped: the
    read under the test, at the unclamped index, is guarded by it."""
    assert findings(CLAMPED, Language.CUDA) == []




def test_without_the_test_the_read_is_reported() -> None:
    src = CLAMPED.replace("  if (valid) v = b[", "  v = b[")
    assert (line_of(src, "v = b["), "BC101") in findings(src, Language.CUDA)


WALK = """\
template <int warps>
__global__ void flush(const int4* smem_like, int4* out, int chunks) {
  int lane = threadIdx.x % 32 + (blockIdx.x % warps) * 32;
  for (int off = 0; off < {limit}; off += 32 * warps) {
    out[off + lane] = smem_like[off + lane];
  }
}
"""


def test_a_lane_walk_up_to_a_whole_multiple_of_its_step_ends_on_a_whole_tile() -> None:
    """applied-ai hadamard: ``off < chunks * warps * 128 / 4`` stepped by ``32 * warps``."""
    assert findings(WALK.replace("{limit}", "chunks * warps * 128 / 4"), Language.CUDA) == []


def test_a_lane_walk_up_to_any_count_may_end_on_a_partial_tile() -> None:
    src = WALK.replace("{limit}", "chunks * 100")
    line = line_of(src, "out[off + lane]")
    assert (line, "BC102") in findings(src, Language.CUDA)


def test_a_pointer_moved_by_an_offset_of_a_dependent_type_keeps_its_buffer() -> None:
    """``p + off`` with ``I off``: an unresolved ``operator+`` call, read as the move it is."""
    src = """\
template <typename T, typename I>
__global__ void twice(T* p, I off) {
  T* q = p + off;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = q[i] * 2;
}
"""
    found, _ = check_source("k.cu", Language.CUDA, src, Settings())
    assert [(f.span.line, f.code) for f in found] == [(5, "BC102"), (5, "BC101")]
    assert all("`p`" in f.message for f in found)


def test_a_pointer_stepped_by_a_read_records_that_read_once() -> None:
    src = """\
__global__ void k(const float* x, const int* off, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = x;
    p += off[i];
    y[i] = p[0];
}
"""
    module = cuda.parse_module("k.cu", src)
    assert [(a.buffer, a.span.line) for a in module.kernels[0].accesses if a.buffer == "off"] == [("off", 4)]
