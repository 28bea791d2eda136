"""Constants the build defines (`-D_N_=64` in `extra_cuda_cflags`), project headers written in
angle brackets, and the limits of `<cstdint>`: a file that uses them is read, not given up."""

from __future__ import annotations

from boundcheck.engine import check_source
from boundcheck.frontends.cuda import parse_module
from boundcheck.frontends.cuda_parse import Parsed
from boundcheck.frontends.cuda_parse import parse as parse_cuda
from boundcheck.model import Language
from boundcheck.settings import Settings


def parse(src: str) -> Parsed:
    return parse_cuda("k.cu", src, [])


def findings(src: str, path: str = "k.cu") -> list[tuple[int, str]]:
    found, _ = check_source(path, Language.CUDA, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


WKV = """\
__global__ void fwd(int T, int C, float* r, float* y) {
    const int b = blockIdx.x / (C / _N_);
    const int h = blockIdx.x % (C / _N_);
    const int i = threadIdx.x;
    __shared__ float rr[_N_];
    for (int t = b * T * C + h * _N_ + i; t < (b + 1) * T * C + h * _N_ + i; t += C) {
        rr[i] = r[t];
        __syncthreads();
        y[t] = rr[(i + 1) % _N_];
    }
}
"""


def test_a_build_time_macro_is_a_named_constant_of_unknown_value():
    """`_N_` is defined by the build only: the kernel is read (no BC001), its tile named `_N_`."""
    module = parse_module("k.cu", WKV, [])
    assert module.errors == []
    assert len(module.kernels) == 1 and module.kernels[0].accesses


def test_a_name_written_after_a_type_is_no_build_macro():
    """A name some line declares (`Dtype scale;`) is a variable wherever it is undeclared, not a
    constant the build defines: only the value-only `LIMIT` gets a placeholder."""
    src = ("struct Params { Dtype scale; };\n"
           "__global__ void k(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] = LIMIT * scale; }\n")
    assert parse(src).assumed == {"LIMIT"}
    assert parse("__global__ void k(float* x) { x[threadIdx.x] = helper(LIMIT); }\n").assumed == {"LIMIT"}


def test_a_placeholder_value_decides_no_branch():
    """`if (_N_ > 4096)` is no constant to the analysis: the guarded arm is read, and its
    unguarded store reported, whatever value the parse gave `_N_`."""
    src = ("__global__ void k(float* x, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (_N_ > 4096) {\n"
           "        x[i] = 0.0f;\n"
           "    }\n"
           "}\n")
    assert (4, "BC102") in findings(src)


def test_a_project_header_in_angle_brackets_beside_the_file(tmp_path):
    """`#include <ops.cuh>` of a header next to the file: the build's `-I` of that directory finds
    it, and so does the check (its enum constants are declared)."""
    (tmp_path / "ops.cuh").write_text("typedef enum { ADAM = 0, LION = 1 } Optimizer_t;\n")
    src = ("#include <ops.cuh>\n"
           "template <int OPT> __global__ void k(float* x, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (OPT == LION && i < n) x[i] = 0.0f;\n"
           "}\n"
           "template __global__ void k<ADAM>(float*, int);\n")
    path = tmp_path / "k.cu"
    path.write_text(src)
    assert parse_module(str(path), src, []).errors == []


def test_cstdint_limits_and_signbit_are_declared():
    src = ("#include <cstdint>\n#include <cmath>\n"
           "__global__ void k(float* x, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i < n && n < INT32_MAX && !signbit(x[i])) x[i] = 0.0f;\n"
           "}\n")
    assert parse_module("k.cu", src, []).errors == []


def test_only_names_device_code_or_a_launching_function_reads_get_a_placeholder():
    """A second parse is spent only where it can matter: `EXIT_WAIVED` in a `main` that launches
    nothing is left undeclared, `THREADS` in the function that launches is read as a constant."""
    src = ("__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }\n"
           "void run(float* x) { k<<<1, THREADS>>>(x); }\n"
           "int main() { return EXIT_WAIVED; }\n")
    assert parse(src).assumed == {"THREADS"}
