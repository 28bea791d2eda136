"""Kernels built on CUB, GLM or newer CUDA declarations parse without the toolkit: a missing
``cub/`` include (or a vendored ``3rdparty/cub/cub.cuh``) is answered with CUB's collectives, a
missing ``glm/`` one with GLM's types, the stub knows ``__grid_constant__``, ``CUtensorMap``,
``fdividef``, ``uintptr_t``, the math API and ``std::array``, a quoted include written from the
repository's root is found however deep the including file lies, one of a sibling module's
directory where only that directory holds it, and a sized ``extern __shared__`` tile (which nvcc
accepts) parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.settings import Settings
from tests.checking import findings, line_of

CUB = '''\
#include <cub/block/block_reduce.cuh>
#include "3rdparty/cub/cub.cuh"

template <int BLOCK>
__global__ void row_sum(const float* x, float* out, int n) {
    typedef cub::BlockReduce<float, BLOCK> Reduce;
    typedef cub::WarpScan<float> Scan;
    __shared__ typename Reduce::TempStorage storage;
    int i = blockIdx.x * BLOCK + threadIdx.x;
@READ@
    float total = Reduce(storage).Sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
'''


def test_a_cub_kernel_is_checked() -> None:
    assert findings(CUB.replace("@READ@", "    float v = i < n ? x[i] : 0.0f;"), Language.CUDA) == []


def test_a_cub_kernel_reading_past_its_extent_is_reported() -> None:
    src = CUB.replace("@READ@", "    float v = x[i];")
    assert findings(src, Language.CUDA) == [(line_of(src, "float v = x[i];"), "BC101")]


def test_a_return_before_a_cub_block_collective_is_reported() -> None:
    """Every thread of the block must call a block collective (it syncs the block inside)."""
    src = CUB.replace("@READ@", "    if (i >= n) return;\n    float v = x[i];")
    assert findings(src, Language.CUDA) == [(line_of(src, "if (i >= n) return;"), "BC303")]


def test_a_header_that_leaves_the_cub_include_to_its_includer_is_checked() -> None:
    """``topk.cuh`` uses ``cub::BlockReduce`` and includes nothing of CUB (the file that includes
    it does): with no CUB declared anywhere, CUB's stub is included as that file would."""
    src = "\n".join(line for line in CUB.replace("@READ@", "    float v = x[i];").splitlines()
                     if not line.startswith("#include"))
    found, _ = check_source("topk.cuh", Language.CUDA, src, Settings())
    assert [(f.span.line, f.code) for f in found] == [(line_of(src, "float v = x[i];"), "BC101")]


NEWER = '''\
#include <cuda.h>

__global__ void scale(const __grid_constant__ CUtensorMap map, float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uintptr_t address = reinterpret_cast<uintptr_t>(&map);
    if (i < n) y[i] = fdividef(x[i], 2.0f) + (address & 1);
}
'''


def test_newer_cuda_declarations_parse() -> None:
    assert findings(NEWER, Language.CUDA) == []


@pytest.mark.parametrize("depth", [1, 4, 6])
def test_an_include_from_the_repository_root_is_found(tmp_path: Path, depth: int) -> None:
    (tmp_path / "src" / "core").mkdir(parents=True)
    (tmp_path / "src" / "core" / "tile.h").write_text("constexpr int kTile = 128;\nstruct Tile { int n; };\n")
    here = tmp_path.joinpath("src", *[f"d{i}" for i in range(depth)])
    here.mkdir(parents=True, exist_ok=True)
    src = ('#include "src/core/tile.h"\n'
           "__global__ void k(const float* x, float* y, Tile t) {\n"
           "    int i = blockIdx.x * kTile + threadIdx.x;\n"
           "    if (i < t.n) y[i] = x[i];\n"
           "}\n")
    assert _checked(here / "k.cu", src) == []


def _sibling_module(tmp_path: Path, copies: int) -> list[tuple[int, str]]:
    """``sensors/kernels/cuda/k.cu`` includes ``"pose.cuh"``, which the build finds through an
    ``-I`` of ``geometry/kernels/cuda`` (in ``copies`` places)."""
    for i in range(copies):
        d = tmp_path / "pkg" / f"geometry{i}" / "kernels" / "cuda"
        d.mkdir(parents=True)
        (d / "pose.cuh").write_text("namespace geo { __device__ inline float twice(float v) { return 2 * v; } }\n")
    here = tmp_path / "pkg" / "sensors" / "kernels" / "cuda"
    here.mkdir(parents=True)
    src = ('#include "pose.cuh"\n'
           "__global__ void k(const float* x, float* y, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i < n) y[i] = geo::twice(x[i]);\n"
           "}\n")
    return _checked(here / "k.cu", src)


def _checked(path: Path, src: str) -> list[tuple[int, str]]:
    """The findings on ``src`` written at ``path`` (so that its includes resolve from there)."""
    path.write_text(src)
    found, _ = check_source(str(path), Language.CUDA, src, Settings())
    return [(f.span.line, f.code) for f in found]


def test_an_include_of_a_sibling_modules_header_is_found(tmp_path: Path) -> None:
    assert _sibling_module(tmp_path, copies=1) == []


def test_a_header_name_held_in_two_places_is_not_guessed(tmp_path: Path) -> None:
    assert _sibling_module(tmp_path, copies=2) == [(4, "BC001")]


GLM = '''\
#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>
using vec3 = glm::vec<3, float>;

__global__ void project(const float* means, const float* quats, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
@EXIT@
    vec3 m = glm::make_vec3(means + 3 * i);
    glm::fquat q(quats[4 * i], quats[4 * i + 1], quats[4 * i + 2], quats[4 * i + 3]);
    glm::mat3 R = glm::mat3_cast(q);
    vec3 p = glm::transpose(R) * m + glm::cross(m, vec3(1.f, 0.f, 0.f));
    glm::fvec2 uv = glm::fvec2(p.x, p.y) * (glm::dot(p, m) / glm::length(p));
    out[2 * i] = uv.x + R[0][1];
}
'''


def test_a_glm_kernel_parses_and_is_checked() -> None:
    """GLM's vectors, matrices and quaternions (Gaussian-splatting kernels) are declared when its
    headers are missing: the kernel is analysed, not left as BC001."""
    assert findings(GLM.replace("@EXIT@", "    if (i >= n) return;"), Language.CUDA) == []
    src = GLM.replace("@EXIT@", "")
    assert findings(src, Language.CUDA) == [(line_of(src, "glm::fquat q("), "BC101")] * 4 + [
        (line_of(src, "out[2 * i] ="), "BC102")]


SIZED_EXTERN = '''\
__global__ void stripes(const float* x, float* y, int n) {
    extern __shared__ float s[32][32];
    int i = blockIdx.x * 32 + threadIdx.x;
    if (i < n) s[threadIdx.y][threadIdx.x] = x[i];
    __syncthreads();
    if (i < n) y[i] = s[threadIdx.x][threadIdx.y];
}
'''


def test_a_sized_extern_shared_tile_parses() -> None:
    assert findings(SIZED_EXTERN, Language.CUDA) == []


FLOAT16 = '''
__global__ void scale(const _Float16* x, _Float16* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    _Float16 h = x[i];
    GUARD y[i] = h * (_Float16)2;
}
'''


def test_a_kernel_on_float16_values_is_checked() -> None:
    # libclang's type kind for `_Float16` (32) is not in the 18.x bindings' list: asking for it
    # raised, and the whole file gave BC001 (aiter's pa_ps.cuh)
    src = FLOAT16.replace("GUARD", "if (i < n)")
    assert findings(src, Language.CUDA) == [(line_of(src, "_Float16 h = x[i]"), "BC101")]


FP4 = '''\
#include <cuda_fp4.h>
#if CUDA_VERSION >= 12080
__global__ void dequantize(const __nv_fp4x4_e2m1* in, float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
@GUARD@    out[i] = static_cast<float4>(in[i]);
}
#endif
'''


def test_fp4_kernels_of_cuda_12_8_are_checked() -> None:
    """The stub is CUDA 12.8's (the first with FP4 types): kernels under that version test parse."""
    src = FP4.replace("@GUARD@", "")
    assert findings(src, Language.CUDA) == [(line_of(src, "out[i] ="), "BC101"), (line_of(src, "out[i] ="), "BC102")]
    assert findings(FP4.replace("@GUARD@", "    if (i >= n) return;\n"), Language.CUDA) == []


MATH_API = '''\
#include <array>
#include <cmath>

__global__ void polar(float* r, float* theta, const float* x, const float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cudaGridDependencySynchronize();
    float a = x[i], b = y[i];
    std::array<float, 2> p{a, b};
    theta[i] = atan2(std::get<1>(p), p[0]) + atan2f(1.f, 2.f) + sinpif(0.5f);
    r[i] = scalbnf(hypotf(p[0], p[1]), 1) + __int_as_float(0) + (float)make_uint3(1, 2, 3).x;
    cudaTriggerProgrammaticLaunchCompletion();
}
'''


def test_the_math_api_and_std_array_parse() -> None:
    """``atan2``, ``scalbnf``, ``sinpif``, the programmatic-launch calls and ``std::array`` are
    the toolkit's: the kernel is analysed (its unguarded accesses reported), not left as BC001."""
    assert findings(MATH_API, Language.CUDA) == [
        (line_of(MATH_API, "float a = x[i]"), "BC101"), (line_of(MATH_API, "float a = x[i]"), "BC101"),
        (line_of(MATH_API, "theta[i] ="), "BC102"), (line_of(MATH_API, "r[i] ="), "BC102")]
