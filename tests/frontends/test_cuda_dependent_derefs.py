"""A dereference whose pointer type depends on a template parameter (``*reinterpret_cast<Vec<T,
N>*>(&out[i]) = v`` in a kernel template) is an access like any other: libclang leaves it an
unnamed call of the overloaded ``operator*``, which was read as a call, so the store counted as a
read of ``out[i]`` (BC101 instead of BC102) and a pointer moved before the cast
(``*reinterpret_cast<V*>(out + i)``) was no access at all. A step taken after casting a typed
buffer to the open type (``(V*)out + lane``) is in units of that type, whose size nobody knows
here: no index is invented for it (FasterTransformer steps a warp's lanes by a
``Copy_t<T, size_per_head>`` that covers the head exactly). Raw bytes take the cast's units: a
shared ``char`` buffer read as ``scalar_t*`` keeps its steps."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import at, findings

KERNEL = """\
template <typename T, int U> struct Vec { T data[U]; };
template <typename T, int U>
__global__ void copy(const T* in, T* out, int n) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * U;
    using V = Vec<T, U>;
    GUARD
    V v = *reinterpret_cast<const V*>(&in[i]);
    *reinterpret_cast<V*>(&out[i]) = v;
    *reinterpret_cast<V*>(out + n + i) = v;
    *((V*)out + n + i) = v;
}
void run(const float* in, float* out, int n) { copy<float, 4><<<(n + 1023) / 1024, 256>>>(in, out, n); }
"""


def test_an_unguarded_store_through_a_dependent_pointer_is_a_store() -> None:
    src = KERNEL.replace("GUARD", "")
    assert findings(src, Language.CUDA) == sorted(
        at(src, "V v = *", "BC101") + at(src, "*reinterpret_cast<V*>", "BC102") + at(src, "*reinterpret_cast<V*>(out", "BC102"))


def test_the_same_accesses_under_a_guard_are_clean() -> None:
    # the vector's width is open in the template (Vec<T, U>): the guard bounds its first element,
    # and no width is invented for it
    assert findings(KERNEL.replace("GUARD", "if (i >= n) return;").replace("out + n + i) = v;\n    *((V*)", "out + i) = v;\n    *((V*)"),
                    Language.CUDA) == []


RAW = """\
template <typename scalar_t>
__global__ void rows(const scalar_t* a, int m) {
    extern __shared__ char raw[];
    scalar_t* sv = reinterpret_cast<scalar_t*>(raw);
    scalar_t* sw = sv + m;
    if (threadIdx.x < m) sw[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    scalar_t s = 0;
    for (int i = 0; i < m; i++) s += sw[i];
    if (threadIdx.x == 0) sv[0] = s;
}
"""


def test_raw_shared_bytes_read_as_an_open_type_keep_their_steps() -> None:
    # `sw = sv + m` is in scalar_t units: the second half of the scratch, filled under a guard
    # with nothing in its other slots, reaches the sum (BC201) as it would for float
    assert findings(RAW, Language.CUDA) == at(RAW, "sw[threadIdx.x] = a", "BC201")
