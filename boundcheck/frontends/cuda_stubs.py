"""The in-memory header that lets libclang parse CUDA without the toolkit's headers.

Host-only parsing with ``-nocudainc`` knows no CUDA builtins; this header declares the ones
kernels use (qualifiers as attributes, the index built-ins, vector types, intrinsics) and
``__cudaPushCallConfiguration`` so that ``kernel<<<grid, block>>>(...)`` parses.
"""

STUB_NAME = "/__boundcheck__/cuda_stub.h"

STUB_HEADER = r"""
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __CUDACC__ 1
#define __NVCC__ 1
#define CUDART_INF_F __builtin_huge_valf()
#define INFINITY __builtin_huge_valf()
#define NAN __builtin_nanf("")
#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define DBL_MAX 1.7976931348623157e+308
#define INT_MAX 2147483647
#define WARP_SIZE_BC_ 32
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef signed char int8_t; typedef unsigned char uint8_t;
typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t;
typedef long long int64_t; typedef unsigned long long uint64_t;
typedef int cudaError_t;
typedef void* cudaStream_t;
enum { cudaSuccess = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;
#define BC_VEC2(T, N) struct N { T x, y; };
#define BC_VEC3(T, N) struct N { T x, y, z; };
#define BC_VEC4(T, N) struct N { T x, y, z, w; };
BC_VEC2(float, float2) BC_VEC3(float, float3) BC_VEC4(float, float4)
BC_VEC2(double, double2) BC_VEC4(double, double4)
BC_VEC2(int, int2) BC_VEC3(int, int3) BC_VEC4(int, int4)
BC_VEC2(unsigned int, uint2) BC_VEC4(unsigned int, uint4)
BC_VEC2(char, char2) BC_VEC4(char, char4)
BC_VEC2(unsigned char, uchar2) BC_VEC4(unsigned char, uchar4)
BC_VEC2(short, short2) BC_VEC4(short, short4)
BC_VEC2(long long, longlong2) BC_VEC4(long long, longlong4)
struct __half { unsigned short __x; __host__ __device__ __half() {} __host__ __device__ __half(float); __host__ __device__ operator float() const; };
struct __nv_bfloat16 { unsigned short __x; __host__ __device__ __nv_bfloat16() {} __host__ __device__ __nv_bfloat16(float); __host__ __device__ operator float() const; };
typedef __half half;
typedef __nv_bfloat16 nv_bfloat16;
struct __half2 { __half x, y; };
typedef __half2 half2;
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
typedef __nv_bfloat162 nv_bfloat162;
__device__ float2 make_float2(float, float);
__device__ float4 make_float4(float, float, float, float);
__device__ int2 make_int2(int, int);
__device__ int4 make_int4(int, int, int, int);
__device__ void __syncthreads();
__device__ int __syncthreads_or(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_count(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
template <class T> __device__ T __shfl_sync(unsigned int, T, int, int w = 32);
template <class T> __device__ T __shfl_up_sync(unsigned int, T, unsigned int, int w = 32);
template <class T> __device__ T __shfl_down_sync(unsigned int, T, unsigned int, int w = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned int, T, int, int w = 32);
template <class T> __device__ T __ldg(const T*);
__device__ unsigned int __ballot_sync(unsigned int, int);
__device__ int __any_sync(unsigned int, int);
__device__ int __all_sync(unsigned int, int);
__device__ unsigned int __activemask();
__device__ int __popc(unsigned int);
__device__ int __clz(int);
__device__ int __ffs(int);
template <class T> __device__ T atomicAdd(T*, T);
template <class T> __device__ T atomicSub(T*, T);
template <class T> __device__ T atomicMax(T*, T);
template <class T> __device__ T atomicMin(T*, T);
template <class T> __device__ T atomicExch(T*, T);
template <class T> __device__ T atomicCAS(T*, T, T);
template <class T> __device__ T atomicAnd(T*, T);
template <class T> __device__ T atomicOr(T*, T);
__host__ __device__ float fmaxf(float, float);
__host__ __device__ float fminf(float, float);
__host__ __device__ double fmax(double, double);
__host__ __device__ double fmin(double, double);
__host__ __device__ float expf(float);
__host__ __device__ float __expf(float);
__host__ __device__ float exp2f(float);
__host__ __device__ float logf(float);
__host__ __device__ float __logf(float);
__host__ __device__ float log2f(float);
__host__ __device__ float sqrtf(float);
__host__ __device__ float rsqrtf(float);
__host__ __device__ float tanhf(float);
__host__ __device__ float fabsf(float);
__host__ __device__ float powf(float, float);
__host__ __device__ float __fdividef(float, float);
__host__ __device__ float __frcp_rn(float);
__host__ __device__ float fmaf(float, float, float);
__host__ __device__ double exp(double);
__host__ __device__ double log(double);
__host__ __device__ double sqrt(double);
__host__ __device__ double fabs(double);
__host__ __device__ int abs(int);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half __float2half(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
template <class T> __host__ __device__ T max(T, T);
template <class T> __host__ __device__ T min(T, T);
__host__ __device__ float max(float, int); __host__ __device__ float max(int, float);
__host__ __device__ float min(float, int); __host__ __device__ float min(int, float);
__host__ __device__ void __bc_assert(bool);
#define assert(e) __bc_assert(e)
extern "C" int printf(const char*, ...);
extern "C" void* malloc(size_t);
extern "C" void free(void*);
extern "C" void* memset(void*, int, size_t);
extern "C" void* memcpy(void*, const void*, size_t);
cudaError_t cudaMalloc(void**, size_t);
template <class T> cudaError_t cudaMalloc(T**, size_t);
cudaError_t cudaFree(void*);
cudaError_t cudaMemcpy(void*, const void*, size_t, int);
cudaError_t cudaMemset(void*, int, size_t);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
const char* cudaGetErrorString(cudaError_t);
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                 cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                 void* stream = 0);
"""
