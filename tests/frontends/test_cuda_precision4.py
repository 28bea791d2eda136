"""CUDA kernels that are in bounds by how the host sizes their buffers: one slot per launched
thread (``cudaMalloc(&p, grid * block * sizeof(T))`` and ``p[tid]``), per-block rows, vectors
inside a padded row pitch. Each is silent, and the same kernel with a buffer too small, a launch
that may differ or a pitch that is not padded, is reported."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings as _findings
from tests.checking import line_of


def findings(src: str) -> list[tuple[int, str]]:
    return _findings(src, Language.CUDA)


PER_THREAD = """\
__global__ void init_state(float* state, unsigned seed) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned step = gridDim.x * blockDim.x;
    state[tid] = seed;
    state[tid + step] = seed + 1;
}

void run(int blocks, int threads, unsigned seed) {
    int slots = blocks * threads;
    float* d_state = 0;
    cudaMalloc((void**)&d_state, 2 * slots * sizeof(float));
    init_state<<<blocks, threads>>>(d_state, seed);
    cudaFree(d_state);
}
"""


def test_one_slot_per_launched_thread_is_in_bounds():
    assert findings(PER_THREAD) == []


def test_a_buffer_with_one_slot_per_thread_has_no_room_for_a_second():
    bad = PER_THREAD.replace("2 * slots * sizeof(float)", "slots * sizeof(float)")
    assert findings(bad) == [(line_of(bad, "state[tid + step]"), "BC102")]


def test_a_launch_size_written_after_the_allocation_is_not_trusted():
    bad = PER_THREAD.replace("    init_state<<<", "    blocks *= 2;\n    init_state<<<")
    assert findings(bad) == [(line_of(bad, "state[tid] ="), "BC102"), (line_of(bad, "state[tid + step]"), "BC102")]


def test_an_allocation_on_one_branch_only_sizes_nothing():
    bad = PER_THREAD.replace("    cudaMalloc(", "    if (seed) cudaMalloc(")
    assert findings(bad) == [(line_of(bad, "state[tid] ="), "BC102"), (line_of(bad, "state[tid + step]"), "BC102")]


def test_an_extent_sized_buffer_on_a_rounded_up_grid_is_still_reported():
    src = """\
__global__ void square(const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] * x[i];
}

void run(const float* h, int n) {
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    square<<<(n + 255) / 256, 256>>>(x, y);
}
"""
    line = line_of(src, "y[i] =")
    assert findings(src) == [(line, "BC101"), (line, "BC101"), (line, "BC102")]


METHOD = """\
#include <cuda_runtime.h>
struct State { unsigned a, b; };

__global__ void seed_states(State* states, unsigned seed) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    states[tid].a = seed + tid;
}

template <typename Real> class Engine {
  public:
    Real operator()();
    unsigned block_size, seed;
};

template <typename Real> Real Engine<Real>::operator()() {
    dim3 block, grid;
    block.x = block_size;
    grid.x = 1024;
    while (grid.x > 64) {
        grid.x >>= 1;
    }
    State* d_states = 0;
    cudaError_t err = cudaMalloc((void**)&d_states, grid.x * block.x * sizeof(State));
    if (err != cudaSuccess) throw 1;
    seed_states<<<grid, block>>>(d_states, seed);
    return Real(0);
}
"""


def test_a_launch_in_a_member_function_sizes_its_buffers():
    assert findings(METHOD) == []
    bad = METHOD.replace("    seed_states<<<", "    grid.x += 1;\n    seed_states<<<")
    assert findings(bad) == [(line_of(bad, "states[tid].a"), "BC102")]


ROWS = """\
__global__ void partial_histogram(unsigned* partial, unsigned* counts, const unsigned char* data, int n) {
    __shared__ unsigned hist[64];
    if (threadIdx.x < 64) hist[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[data[i] % 64], 1u);
    __syncthreads();
    if (threadIdx.x < 64) {
        partial[blockIdx.x * 64 + threadIdx.x] = hist[threadIdx.x];
    }
    for (int bin = threadIdx.x; bin < 64; bin += 48) {
        counts[blockIdx.x * 64 + bin] = hist[bin];
    }
}
"""


def test_each_block_writes_its_own_row_of_a_literal_length():
    assert findings(ROWS) == []


def test_a_literal_bound_other_than_the_row_is_no_row_guard():
    for bad in (ROWS.replace("if (threadIdx.x < 64) {", "if (threadIdx.x < 65) {"),
                ROWS.replace("partial[blockIdx.x * 64 + threadIdx.x]", "partial[blockIdx.x * 64 + threadIdx.x + 1]")):
        assert findings(bad) == [(line_of(bad, "partial[blockIdx.x * 64"), "BC102")]
    bad = ROWS.replace("bin < 64;", "bin < 96;")
    assert findings(bad) == [(line_of(bad, "counts[blockIdx.x * 64"), "BC102")]


PADDED = """\
__host__ __device__ int ceil_div(int a, int b);  // defined in a header

__global__ void scale_rows(const float* x, float* out, int V, int P) {
    const float4* row = reinterpret_cast<const float4*>(x + blockIdx.x * P);
    for (int i = threadIdx.x; i < ceil_div(V, 4); i += blockDim.x) {
        float4 v = row[i];
        for (int k = 0; k < 4; ++k) {
            int c = i * 4 + k;
            float s = (k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w);
            out[blockIdx.x * P + c] = c < V ? 2.0f * s : 0.0f;
        }
    }
}

void launch(const float* x, float* out, int rows, int V, int P) {
    scale_rows<<<rows, 256>>>(x, out, V, P);
}

int main() {
    int rows = 8, V = 50257;
    int P = (V + 63) & ~63;
    float *x, *out;
    cudaMalloc(&x, rows * P * sizeof(float));
    cudaMalloc(&out, rows * P * sizeof(float));
    launch(x, out, rows, V, P);
    return 0;
}
"""


def test_a_vector_tail_inside_a_padded_row_pitch_is_in_bounds():
    assert findings(PADDED) == []
    # the pitch rounded up in the launcher itself
    src = PADDED.replace("int rows, int V, int P) {", "int rows, int V) {\n    int P = (V + 63) / 64 * 64;")
    src = src.replace("launch(x, out, rows, V, P);", "launch(x, out, rows, V);")
    assert findings(src) == []


def test_a_vector_tail_past_an_unpadded_or_oddly_padded_pitch_is_reported():
    for pitch in ("V", "(V + 1) & ~1"):
        bad = PADDED.replace("(V + 63) & ~63", pitch)
        # the scalar stores walk the same group of 4 past V (writing 0 there, into the next row)
        assert findings(bad) == [(line_of(bad, "float4 v = row[i]"), "BC106"),
                                 (line_of(bad, "out[blockIdx.x * P + c]"), "BC106")]
