// Proof driver for the CUDA fixtures: links against one fixture object, runs its host launch
// function at the boundary shapes of its family and prints, one fact per line, what each oracle
// observed. proofs/cuda_report.py parses the lines; proofs/cuda_run.py drives the runs.
//
// A fixture defines exactly one of the extern "C" launch functions below (its "family"); they are
// declared weak here, so the linked fixture decides which one is non-null.
//
//   driver --list               FAMILY <name>, then SHAPE <index> <label> <dims> per shape
//   driver --info               DEVICE, DRIVER and RUNTIME lines
//   driver [--exact] [--from K] run shapes K.. in order
//
// Plain runs place every input in front of a NaN guard band and every output in front of a
// sentinel band inside one allocation, so an out-of-bounds read poisons a reduction and an
// out-of-bounds write changes the sentinel. Outputs start poisoned, so an element the kernel
// never writes is visible. --exact gives each buffer its own cudaMalloc of exactly its size and
// checks nothing itself: that is the run compute-sanitizer memcheck watches, since an access into
// a guard band would be inside the allocation and invisible to it. Exact runs stop after the
// first shape with any CUDA error, so each sanitizer process reports on its last shape only.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern "C" {
__attribute__((weak)) void launch_map(const float* x, float* y, int n);
__attribute__((weak)) void launch_map2d(const float* x, float* y, int M, int N);
__attribute__((weak)) void launch_sum(const float* x, float* out, int n);
__attribute__((weak)) void launch_max(const float* x, float* out, int n);
__attribute__((weak)) void launch_rowmax(const float* x, float* y, int M, int N);
__attribute__((weak)) void launch_gemm(const float* A, const float* B, float* C, int M, int N, int K);
}

namespace {

// Elements in each guard or sentinel band: more than the furthest overshoot of any fixture
// (a 2-D kernel running one tile of rows past a 2000-wide matrix).
constexpr size_t kBand = size_t(1) << 20;
constexpr uint32_t kPoisonBits = 0x7fc0deadu;  // a NaN with a payload no kernel computes
constexpr float kSentinel = 12345.5f;           // not NaN, and not a value any family produces

enum class Family { Map, Map2d, Sum, Max, Rowmax, Gemm };

struct Shape {
    const char* label;
    int m, n, k;  // 1-D families use n only; 2-D use m x n; gemm uses all three
};

const char* family_name(Family f) {
    switch (f) {
        case Family::Map: return "map";
        case Family::Map2d: return "map2d";
        case Family::Sum: return "sum";
        case Family::Max: return "max";
        case Family::Rowmax: return "rowmax";
        case Family::Gemm: return "gemm";
    }
    return "?";
}

bool is_1d(Family f) { return f == Family::Map || f == Family::Sum || f == Family::Max; }

// Boundary shapes: one tile, tile - 1, tile + 1, a prime, one element, a large size. The tile is
// 256 elements for the 1-D families, 16 x 16 for map2d and gemm, and a 32-column warp row for
// rowmax (4 rows fill one block).
std::vector<Shape> shapes_for(Family f) {
    if (is_1d(f)) {
        return {{"tile", 0, 256, 0}, {"tile-1", 0, 255, 0}, {"tile+1", 0, 257, 0},
                {"prime", 0, 1009, 0}, {"one", 0, 1, 0}, {"large", 0, 1000003, 0}};
    }
    if (f == Family::Rowmax) {
        return {{"tile", 4, 32, 0}, {"tile-1", 4, 31, 0}, {"tile+1", 4, 33, 0},
                {"prime", 1009, 1009, 0}, {"one", 1, 1, 0}, {"large", 2000, 1000, 0}};
    }
    if (f == Family::Map2d) {
        return {{"tile", 16, 16, 0}, {"tile-1", 15, 15, 0}, {"tile+1", 17, 17, 0},
                {"prime", 1009, 1009, 0}, {"one", 1, 1, 0}, {"large", 2000, 1000, 0}};
    }
    return {{"tile", 16, 16, 16}, {"tile-1", 15, 15, 15}, {"tile+1", 17, 17, 17},
            {"prime", 1009, 1009, 1009}, {"one", 1, 1, 1}, {"large", 1000, 800, 600}};
}

std::string dims(Family f, const Shape& s) {
    char buf[64];
    if (is_1d(f)) snprintf(buf, sizeof buf, "%d", s.n);
    else if (f == Family::Gemm) snprintf(buf, sizeof buf, "%dx%dx%d", s.m, s.n, s.k);
    else snprintf(buf, sizeof buf, "%dx%d", s.m, s.n);
    return buf;
}

int detect_family(Family* out) {
    int found = 0;
    if (launch_map) { *out = Family::Map; ++found; }
    if (launch_map2d) { *out = Family::Map2d; ++found; }
    if (launch_sum) { *out = Family::Sum; ++found; }
    if (launch_max) { *out = Family::Max; ++found; }
    if (launch_rowmax) { *out = Family::Rowmax; ++found; }
    if (launch_gemm) { *out = Family::Gemm; ++found; }
    return found;
}

// Integer-valued inputs keep every family's float32 result exact (sums stay below 2^24), so any
// difference from the double reference is a bug, not rounding. Max families get all-negative
// inputs, so a 0 padding value changes the answer.
std::vector<float> make_input(size_t count, uint64_t seed, bool negative) {
    std::vector<float> v(count);
    uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    for (size_t i = 0; i < count; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = uint32_t(s >> 33);
        if (negative) {
            v[i] = -float(5 + r % 100);
        } else {
            int x = int(r % 8) - 4;  // -4..3, shifted to skip 0: -4..-1, 1..4
            v[i] = float(x >= 0 ? x + 1 : x);
        }
    }
    return v;
}

struct Case {
    std::vector<std::vector<float>> inputs;
    std::vector<double> ref;
};

void gemm_reference(const std::vector<float>& A, const std::vector<float>& B, std::vector<double>& C,
                    int M, int N, int K) {
    unsigned workers = std::max(1u, std::thread::hardware_concurrency() / 4);
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < workers; ++w) {
        pool.emplace_back([&, w] {
            std::vector<double> row(N);
            for (int i = int(w); i < M; i += int(workers)) {
                std::fill(row.begin(), row.end(), 0.0);
                for (int k = 0; k < K; ++k) {
                    double a = A[size_t(i) * K + k];
                    const float* b = &B[size_t(k) * N];
                    for (int j = 0; j < N; ++j) row[j] += a * b[j];
                }
                std::copy(row.begin(), row.end(), C.begin() + size_t(i) * N);
            }
        });
    }
    for (auto& t : pool) t.join();
}

Case make_case(Family f, const Shape& s, bool with_reference) {
    Case c;
    bool negative = f == Family::Max || f == Family::Rowmax;
    if (f == Family::Gemm) {
        c.inputs.push_back(make_input(size_t(s.m) * s.k, 1, false));
        c.inputs.push_back(make_input(size_t(s.k) * s.n, 2, false));
    } else {
        size_t count = is_1d(f) ? size_t(s.n) : size_t(s.m) * s.n;
        c.inputs.push_back(make_input(count, 1, negative));
    }
    if (!with_reference) return c;
    const std::vector<float>& x = c.inputs[0];
    switch (f) {
        case Family::Map:
        case Family::Map2d:
            for (float v : x) c.ref.push_back(2.0 * v + 1.0);
            break;
        case Family::Sum: {
            double total = 0.0;
            for (float v : x) total += v;
            c.ref.push_back(total);
            break;
        }
        case Family::Max:
            c.ref.push_back(*std::max_element(x.begin(), x.end()));
            break;
        case Family::Rowmax:
            for (int r = 0; r < s.m; ++r) {
                c.ref.push_back(*std::max_element(x.begin() + size_t(r) * s.n, x.begin() + size_t(r + 1) * s.n));
            }
            break;
        case Family::Gemm:
            c.ref.assign(size_t(s.m) * s.n, 0.0);
            gemm_reference(c.inputs[0], c.inputs[1], c.ref, s.m, s.n, s.k);
            break;
    }
    return c;
}

size_t output_count(Family f, const Shape& s) {
    switch (f) {
        case Family::Map: return size_t(s.n);
        case Family::Sum:
        case Family::Max: return 1;
        case Family::Rowmax: return size_t(s.m);
        case Family::Map2d:
        case Family::Gemm: return size_t(s.m) * s.n;
    }
    return 0;
}

void launch(Family f, const Shape& s, const std::vector<float*>& in, float* out) {
    switch (f) {
        case Family::Map: launch_map(in[0], out, s.n); break;
        case Family::Map2d: launch_map2d(in[0], out, s.m, s.n); break;
        case Family::Sum: launch_sum(in[0], out, s.n); break;
        case Family::Max: launch_max(in[0], out, s.n); break;
        case Family::Rowmax: launch_rowmax(in[0], out, s.m, s.n); break;
        case Family::Gemm: launch_gemm(in[0], in[1], out, s.m, s.n, s.k); break;
    }
}

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        printf("FAULT -1 %s %s\n", what, cudaGetErrorName(e));
        fflush(stdout);
        exit(3);
    }
}

float poison() {
    float p;
    memcpy(&p, &kPoisonBits, sizeof p);
    return p;
}

bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

// Runs one shape; returns false when a CUDA error means this process must stop.
bool run_shape(Family f, int index, const Shape& s, bool exact) {
    printf("BEGIN %d %s %s\n", index, s.label, dims(f, s).c_str());
    fflush(stdout);
    Case c = make_case(f, s, !exact);
    size_t band = exact ? 0 : kBand;
    std::vector<float*> in;
    for (const auto& host : c.inputs) {
        std::vector<float> staged(host);
        staged.resize(host.size() + band, nanf(""));
        float* d = nullptr;
        check(cudaMalloc(&d, staged.size() * sizeof(float)), "cudaMalloc");
        check(cudaMemcpy(d, staged.data(), staged.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
        in.push_back(d);
    }
    size_t count = output_count(f, s);
    std::vector<float> out(count + band, kSentinel);
    std::fill(out.begin(), out.begin() + count, poison());
    float* d_out = nullptr;
    check(cudaMalloc(&d_out, out.size() * sizeof(float)), "cudaMalloc");
    check(cudaMemcpy(d_out, out.data(), out.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");

    launch(f, s, in, d_out);
    cudaError_t launched = cudaGetLastError();
    if (launched != cudaSuccess) printf("LAUNCHERROR %d %s\n", index, cudaGetErrorName(launched));
    cudaError_t synced = cudaDeviceSynchronize();
    if (synced != cudaSuccess) {
        printf("FAULT %d %s\n", index, cudaGetErrorName(synced));
        fflush(stdout);
        return false;  // sticky: the context is unusable
    }
    if (!exact) {
        check(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
        double max_err = 0.0;
        size_t unwritten = 0, canary = 0;
        for (size_t i = 0; i < count; ++i) {
            if (same_bits(out[i], poison())) ++unwritten;
            double err = std::fabs(double(out[i]) - c.ref[i]);
            if (!(err <= max_err)) max_err = std::isnan(err) ? INFINITY : err;  // NaN counts as infinitely wrong
        }
        for (size_t i = count; i < out.size(); ++i) {
            if (!same_bits(out[i], kSentinel)) ++canary;
        }
        printf("RESULT %d values %.9g\n", index, max_err);
        printf("RESULT %d canary %zu\n", index, canary);
        printf("RESULT %d unwritten %zu\n", index, unwritten);
    }
    for (float* d : in) check(cudaFree(d), "cudaFree");
    check(cudaFree(d_out), "cudaFree");
    printf("END %d\n", index);
    fflush(stdout);
    return launched == cudaSuccess || !exact;
}

}  // namespace

int main(int argc, char** argv) {
    bool exact = false, list = false, info = false;
    int from = 0;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--exact")) exact = true;
        else if (!strcmp(argv[a], "--list")) list = true;
        else if (!strcmp(argv[a], "--info")) info = true;
        else if (!strcmp(argv[a], "--from") && a + 1 < argc) from = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: %s [--list | --info | [--exact] [--from K]]\n", argv[0]);
            return 2;
        }
    }
    if (info) {
        int device = 0, driver = 0, runtime = 0;
        cudaDeviceProp prop;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
        check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
        check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
        printf("DEVICE %s\nCAPABILITY %d.%d\nDRIVER %d\nRUNTIME %d\n", prop.name, prop.major, prop.minor,
               driver, runtime);
        return 0;
    }
    Family f = Family::Map;
    int found = detect_family(&f);
    if (found != 1) {
        printf("FAMILY none\n");
        fprintf(stderr, "the fixture must define exactly one launch_<family> function, found %d\n", found);
        return 2;
    }
    std::vector<Shape> shapes = shapes_for(f);
    printf("FAMILY %s\n", family_name(f));
    if (list) {
        for (size_t i = 0; i < shapes.size(); ++i) {
            printf("SHAPE %zu %s %s\n", i, shapes[i].label, dims(f, shapes[i]).c_str());
        }
        return 0;
    }
    for (int i = from; i < int(shapes.size()); ++i) {
        if (!run_shape(f, i, shapes[i], exact)) return 3;
    }
    printf("DONE\n");
    return 0;
}
