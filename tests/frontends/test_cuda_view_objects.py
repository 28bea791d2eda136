"""View objects: a local built from a pointer and its sizes (``MatrixView x_(x, rows, cols)``,
whose constructor stores them in fields) and read through its methods (``x_.item(row, column)``
returns ``data[row * width + column]``). The methods index through the fields as a helper
indexes through its parameters, so their accesses are the kernel's, under its guards: exllama's
``reconstruct_kernel`` read and wrote past the last column of a ceil grid this way. Where the
class is defined in a header, the access is placed at the call in the kernel's file; a method
returning an address (``item_ptr``) is no access, the store through that address is."""

from __future__ import annotations

from pathlib import Path

from boundcheck.engine import check_paths
from boundcheck.model import Language
from boundcheck.settings import Settings
from tests.checking import at, findings

VIEW = """\
#include <cuda_fp16.h>
class MatrixView_half_rw
{
public:
    half* data;
    const int height;
    const int width;
    __device__ __forceinline__ MatrixView_half_rw(half* data, const int height, const int width)
        : data(data), height(height), width(width)
    { }
    __device__ __forceinline__ half item(int row, int column) const { return data[row * width + column]; }
    __device__ __forceinline__ half* item_ptr(int row, int column) { return &data[row * width + column]; }
    __device__ __forceinline__ void set(int row, int column, half value) { data[row * width + column] = value; }
};
"""

KERNEL = """\
__global__ void scale(half* x, half* out, int height, int width) {
    int column = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y;
    GUARD
    MatrixView_half_rw x_(x, height, width);
    MatrixView_half_rw out_(out, height, width);
    half v = x_.item(row, column);
    out_.set(row, column, v);
    half* p = out_.item_ptr(row, column);
    *p = v;
}
void run(half* x, half* o, int h, int w) { scale<<<dim3((w + 31) / 32, h), 32>>>(x, o, h, w); }
"""


def test_a_view_read_and_written_past_the_last_column_is_reported_in_its_methods() -> None:
    src = VIEW + KERNEL.replace("GUARD", "")
    assert findings(src, Language.CUDA) == sorted(
        at(src, "half item(", "BC101") + at(src, "void set(", "BC102") + at(src, "*p = v;", "BC102"))


def test_the_same_views_under_a_column_guard_are_clean() -> None:
    assert findings(VIEW + KERNEL.replace("GUARD", "if (column >= width) return;"), Language.CUDA) == []


def test_a_view_defined_in_a_header_is_reported_at_its_calls(tmp_path: Path) -> None:
    (tmp_path / "matrix.cuh").write_text(VIEW)
    src = '#include "matrix.cuh"\n' + KERNEL.replace("GUARD", "")
    (tmp_path / "k.cu").write_text(src)
    found = check_paths([str(tmp_path / "k.cu")], Settings(jobs=1))
    assert sorted((f.span.line, f.code) for f in found) == sorted(
        at(src, "x_.item(", "BC101") + at(src, "out_.set(", "BC102") + at(src, "*p = v;", "BC102"))
