"""What a PyTorch C++/CUDA extension's kernels use from ATen and c10, for parsing without PyTorch.

Kernels of extensions take ``at::PackedTensorAccessor32<scalar_t, 2>`` or
``at::cuda::detail::TensorInfo<scalar_t, int>`` parameters and compute in ``at::Half`` or
``c10::complex<float>``; host code dispatches with ``AT_DISPATCH_FLOATING_TYPES`` and checks with
``TORCH_CHECK`` (read as an assert: what it checks holds after it). Answered with empty headers, every such kernel is only partly understood (BC001)
and goes unchecked. Every missing ``torch/``, ``ATen/`` or ``c10/`` include is answered with this
one header instead: declarations only, enough for libclang to type the kernels. The dispatch macros
are functions taking the lambda, whose body reads ``scalar_t`` as float: written as macros, every
cursor of the lambda would sit at the macro's line and the launches inside it could not be read.
"""

from __future__ import annotations

TORCH_HEADER = r"""
#ifndef BOUNDCHECK_TORCH_STUB
#define BOUNDCHECK_TORCH_STUB
namespace c10 {
struct Half { unsigned short x; __host__ __device__ Half(); __host__ __device__ Half(float);
  __host__ __device__ operator float() const; };
struct BFloat16 { unsigned short x; __host__ __device__ BFloat16(); __host__ __device__ BFloat16(float);
  __host__ __device__ operator float() const; };
struct Float8_e4m3fn { unsigned char x; __host__ __device__ Float8_e4m3fn(); __host__ __device__ Float8_e4m3fn(float);
  __host__ __device__ operator float() const; };
struct Float8_e5m2 { unsigned char x; __host__ __device__ Float8_e5m2(); __host__ __device__ Float8_e5m2(float);
  __host__ __device__ operator float() const; };
template <typename T> struct complex {
  T real_, imag_;
  __host__ __device__ complex(T re = T(), T im = T());
  __host__ __device__ T real() const; __host__ __device__ T imag() const;
  __host__ __device__ complex& operator+=(const complex&); __host__ __device__ complex& operator*=(const complex&);
};
template <typename T> __host__ __device__ complex<T> operator+(const complex<T>&, const complex<T>&);
template <typename T> __host__ __device__ complex<T> operator-(const complex<T>&, const complex<T>&);
template <typename T> __host__ __device__ complex<T> operator*(const complex<T>&, const complex<T>&);
template <typename T> __host__ __device__ complex<T> operator/(const complex<T>&, const complex<T>&);
template <typename T> __host__ __device__ complex<T> exp(const complex<T>&);
#define BC_COMPLEX_MIXED(OP) \
  template <typename T, typename U> __host__ __device__ complex<T> operator OP(const complex<T>&, const U&); \
  template <typename T, typename U> __host__ __device__ complex<T> operator OP(const U&, const complex<T>&);
BC_COMPLEX_MIXED(+) BC_COMPLEX_MIXED(-) BC_COMPLEX_MIXED(*) BC_COMPLEX_MIXED(/)
#undef BC_COMPLEX_MIXED
enum class ScalarType { Byte, Char, Short, Int, Long, Half, Float, Double, ComplexFloat, ComplexDouble, Bool,
  BFloat16, Float8_e4m3fn, Float8_e5m2 };
enum class DeviceType { CPU, CUDA };
struct Device { __host__ Device(DeviceType, int = -1); __host__ bool is_cuda() const; __host__ int index() const; };
struct IntArrayRef { __host__ IntArrayRef(); __host__ long long operator[](long long) const; __host__ long long size() const; };
struct TensorOptions { __host__ TensorOptions dtype(ScalarType) const; __host__ TensorOptions device(Device) const; };
namespace cuda {
struct CUDAGuard { __host__ explicit CUDAGuard(int); __host__ explicit CUDAGuard(Device); };
struct OptionalCUDAGuard { __host__ OptionalCUDAGuard(); __host__ explicit OptionalCUDAGuard(Device); };
struct CUDAStream { __host__ operator cudaStream_t() const; __host__ cudaStream_t stream() const; };
__host__ CUDAStream getCurrentCUDAStream(int = -1);
}
}
namespace std {
template <typename T> __host__ __device__ c10::complex<T> conj(const c10::complex<T>&);
template <typename T> __host__ __device__ c10::complex<T> exp(const c10::complex<T>&);
template <typename T> __host__ __device__ c10::complex<T> log(const c10::complex<T>&);
template <typename T> __host__ __device__ T abs(const c10::complex<T>&);
}
// c10::Half converts to __half in device code: `__half2float(scale)` of an at::Half
template <class H, class = typename std::enable_if<std::is_same<H, c10::Half>::value>::type>
__device__ float __half2float(H);
template <typename T> __device__ T WARP_SHFL(T, int, int = 32, unsigned = 0xffffffff);
template <typename T> __device__ T WARP_SHFL_XOR(T, int, int = 32, unsigned = 0xffffffff);
template <typename T> __device__ T WARP_SHFL_UP(T, unsigned, int = 32, unsigned = 0xffffffff);
template <typename T> __device__ T WARP_SHFL_DOWN(T, unsigned, int = 32, unsigned = 0xffffffff);
namespace at { namespace native { namespace cuda_utils {  // ATen/native/cuda/block_reduce.cuh
template <typename T> __device__ T BlockReduceSum(T, T*);
template <typename T, class Op> __device__ T BlockReduce(T, Op, T, T*);
} } }
namespace at {
template <typename T> struct numeric_limits {  // ATen/NumericUtils.h
  __host__ __device__ static constexpr T lowest(); __host__ __device__ static constexpr T max();
  __host__ __device__ static constexpr T lower_bound(); __host__ __device__ static constexpr T upper_bound(); };
struct PhiloxCudaState { __host__ __device__ PhiloxCudaState(); __host__ PhiloxCudaState(unsigned long long, unsigned long long); };
namespace cuda { namespace philox {
__host__ __device__ std::tuple<unsigned long long, unsigned long long> unpack(PhiloxCudaState); } }
template <typename T> struct scalar_value_type { typedef T type; };
template <typename T> struct scalar_value_type<c10::complex<T>> { typedef T type; };
using c10::Half; using c10::BFloat16; using c10::complex; using c10::ScalarType; using c10::Device;
using c10::IntArrayRef; using c10::TensorOptions;
using c10::Float8_e4m3fn; using c10::Float8_e5m2;
constexpr ScalarType kFloat = ScalarType::Float, kHalf = ScalarType::Half, kBFloat16 = ScalarType::BFloat16,
  kDouble = ScalarType::Double, kInt = ScalarType::Int, kLong = ScalarType::Long, kBool = ScalarType::Bool,
  kByte = ScalarType::Byte, kChar = ScalarType::Char;
constexpr c10::DeviceType kCUDA = c10::DeviceType::CUDA, kCPU = c10::DeviceType::CPU;
template <typename T> struct DefaultPtrTraits { typedef T* PtrType; };
template <typename T> struct RestrictPtrTraits { typedef T* __restrict__ PtrType; };
template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = long long>
class TensorAccessor {
 public:
  __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t);
  __host__ __device__ const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t) const;
  __host__ __device__ index_t size(index_t) const; __host__ __device__ index_t stride(index_t) const;
  __host__ __device__ T* data();
};
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> {
 public:
  __host__ __device__ T& operator[](index_t); __host__ __device__ const T& operator[](index_t) const;
  __host__ __device__ index_t size(index_t) const; __host__ __device__ index_t stride(index_t) const;
  __host__ __device__ T* data();
};
template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = long long>
class GenericPackedTensorAccessor : public TensorAccessor<T, N, PtrTraits, index_t> {};
template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int>;
template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, long long>;
template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = long long>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;
class Tensor {
 public:
  template <typename T> __host__ T* data_ptr() const;
  template <typename T> __host__ T* data() const;
  template <typename T> __host__ T* mutable_data_ptr() const;
  template <typename T> __host__ const T* const_data_ptr() const;
  __host__ void* data_ptr() const;
  template <typename T, unsigned long N> __host__ TensorAccessor<T, N> accessor() const;
  template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits>
  __host__ PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const;
  template <typename T, unsigned long N, template <typename U> class PtrTraits = DefaultPtrTraits>
  __host__ PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const;
  __host__ long long size(long long) const; __host__ long long stride(long long) const;
  __host__ IntArrayRef sizes() const; __host__ IntArrayRef strides() const;
  __host__ long long numel() const; __host__ long long dim() const; __host__ long long ndimension() const;
  __host__ ScalarType scalar_type() const; __host__ TensorOptions options() const; __host__ Device device() const;
  __host__ bool is_cuda() const; __host__ bool is_contiguous() const; __host__ bool defined() const;
  __host__ Tensor contiguous() const; __host__ Tensor view(IntArrayRef) const; __host__ Tensor to(ScalarType) const;
  __host__ Tensor& zero_(); __host__ Tensor& fill_(double);
  __host__ long long element_size() const;
  __host__ ScalarType dtype() const; __host__ int get_device() const; __host__ ScalarType type() const;
  template <typename... A> __host__ Tensor sum(A...) const; template <typename... A> __host__ Tensor mul(A...) const;
};
__host__ Tensor empty(IntArrayRef, TensorOptions = TensorOptions());
__host__ Tensor zeros(IntArrayRef, TensorOptions = TensorOptions());
__host__ Tensor ones(IntArrayRef, TensorOptions = TensorOptions());
__host__ Tensor empty_like(const Tensor&); __host__ Tensor zeros_like(const Tensor&);
__host__ Tensor full(IntArrayRef, double, TensorOptions = TensorOptions());
__host__ Tensor arange(long long, TensorOptions = TensorOptions());
template <typename... A> __host__ Tensor from_blob(A...);
template <typename... A> __host__ Tensor cat(A...);
__host__ c10::Device device_of(const Tensor&);
using c10::DeviceType;
constexpr ScalarType kFloat32 = ScalarType::Float, kFloat16 = ScalarType::Half, kInt32 = ScalarType::Int,
  kInt64 = ScalarType::Long, kInt8 = ScalarType::Char, kUInt8 = ScalarType::Byte;
namespace cuda {
using c10::cuda::getCurrentCUDAStream; using c10::cuda::CUDAStream; using c10::cuda::OptionalCUDAGuard;
using c10::cuda::CUDAGuard;
struct DeviceProp { int multiProcessorCount; int maxThreadsPerBlock; int warpSize; unsigned long sharedMemPerBlock; };
__host__ DeviceProp* getCurrentDeviceProperties();
__host__ DeviceProp* getDeviceProperties(int);
namespace detail {
template <typename T, typename IndexType> struct TensorInfo {
  T* data; IndexType sizes[25]; IndexType strides[25]; int dims;
  __host__ __device__ TensorInfo(); __host__ __device__ void collapseDims();
  __host__ __device__ bool isContiguous() const;
};
template <typename T, typename IndexType> __host__ TensorInfo<T, IndexType> getTensorInfo(const Tensor&);
template <typename T, typename IndexType, int Dims> struct IndexToOffset {
  static __host__ __device__ IndexType get(IndexType linearId, const TensorInfo<T, IndexType>& info);
};
__host__ bool canUse32BitIndexMath(const Tensor&, long long = 2147483647);
}
}
}
namespace torch {
using at::Tensor; using at::Half; using at::BFloat16; using at::ScalarType; using at::TensorOptions;
using at::empty; using at::zeros; using at::ones; using at::empty_like; using at::zeros_like; using at::full;
using at::RestrictPtrTraits; using at::DefaultPtrTraits; using at::PackedTensorAccessor32;
using at::PackedTensorAccessor64; using at::PackedTensorAccessor;
using at::kFloat; using at::kHalf; using at::kBFloat16; using at::kDouble; using at::kInt; using at::kLong;
using at::kBool; using at::kCUDA; using at::IntArrayRef; using at::kFloat32; using at::kFloat16; using at::kInt32;
using at::kInt64; using at::kInt8; using at::kUInt8; using at::from_blob; using at::cat; using at::arange;
}
namespace torch {  // the stable ABI (torch/csrc/stable, torch/headeronly) of extensions built for any torch
namespace headeronly {
using c10::ScalarType; using c10::Half; using c10::BFloat16; using IntHeaderOnlyArrayRef = c10::IntArrayRef;
template <typename T> struct CppTypeToScalarType { static constexpr ScalarType value = ScalarType::Float; };
}
namespace stable {
class Tensor {
 public:
  template <typename T> __host__ T* data_ptr() const;
  template <typename T> __host__ T* mutable_data_ptr() const;
  template <typename T> __host__ const T* const_data_ptr() const;
  __host__ void* data_ptr() const; __host__ void* mutable_data_ptr() const; __host__ const void* const_data_ptr() const;
  __host__ long long size(long long) const; __host__ long long stride(long long) const;
  __host__ c10::IntArrayRef sizes() const; __host__ c10::IntArrayRef strides() const;
  __host__ long long numel() const; __host__ long long dim() const; __host__ long long storage_offset() const;
  __host__ c10::ScalarType scalar_type() const; __host__ c10::Device device() const; __host__ int get_device() const;
  __host__ bool is_cuda() const; __host__ bool is_contiguous() const; __host__ bool defined() const;
  __host__ long long element_size() const;
};
template <typename... A> __host__ Tensor empty(A&&...);
template <typename... A> __host__ Tensor from_blob(A&&...);
template <typename... A> __host__ Tensor empty_like(A&&...);
template <typename... A> __host__ Tensor zero_(A&&...);
namespace accelerator {
struct DeviceGuard { __host__ explicit DeviceGuard(long long); };
__host__ void* getCurrentStream(long long);
}
}
}
template <typename T> __device__ T gpuAtomicAdd(T*, T);
template <typename T> __device__ void gpuAtomicAddNoReturn(T*, T);
template <typename T> __device__ T gpuAtomicMax(T*, T);
template <typename T> __device__ T gpuAtomicMin(T*, T);
#define AT_ERROR(...) throw 0
#define TORCH_CHECK(cond, ...) __bc_assert(cond)
#define TORCH_INTERNAL_ASSERT(cond, ...) __bc_assert(cond)
#define AT_ASSERTM(cond, ...) __bc_assert(cond)
#define AT_ASSERT(cond, ...) __bc_assert(cond)
#define AT_CHECK(cond, ...) __bc_assert(cond)
#define STD_TORCH_CHECK(cond, ...) __bc_assert(cond)
#define STD_TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) __bc_assert(cond)
#define STABLE_TORCH_LIBRARY(ns, m) void boundcheck_stable_library(int m)
#define STABLE_TORCH_LIBRARY_FRAGMENT(ns, m) void boundcheck_stable_fragment(int m)
#define STABLE_TORCH_LIBRARY_IMPL(ns, key, m) void boundcheck_stable_impl(int m)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define C10_CUDA_CHECK(x) ((void)(x))
#define AT_CUDA_CHECK(x) ((void)(x))
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#define C10_LAUNCH_BOUNDS_1(x) __launch_bounds__(x)
#define C10_LAUNCH_BOUNDS_2(x, y) __launch_bounds__(x, y)
#define C10_WARP_SIZE 32
typedef float scalar_t;  // what a dispatch lambda's body names; a kernel template's own scalar_t hides it
template <typename... A> __host__ void AT_DISPATCH_FLOATING_TYPES(A&&...);
template <typename... A> __host__ void AT_DISPATCH_FLOATING_TYPES_AND_HALF(A&&...);
template <typename... A> __host__ void AT_DISPATCH_FLOATING_TYPES_AND(A&&...);
template <typename... A> __host__ void AT_DISPATCH_FLOATING_TYPES_AND2(A&&...);
template <typename... A> __host__ void AT_DISPATCH_FLOATING_TYPES_AND3(A&&...);
template <typename... A> __host__ void AT_DISPATCH_ALL_TYPES(A&&...);
template <typename... A> __host__ void AT_DISPATCH_ALL_TYPES_AND(A&&...);
template <typename... A> __host__ void AT_DISPATCH_ALL_TYPES_AND2(A&&...);
template <typename... A> __host__ void AT_DISPATCH_ALL_TYPES_AND3(A&&...);
template <typename... A> __host__ void AT_DISPATCH_ALL_TYPES_AND_HALF(A&&...);
template <typename... A> __host__ void AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(A&&...);
template <typename... A> __host__ void AT_DISPATCH_INTEGRAL_TYPES(A&&...);
template <typename... A> __host__ void AT_DISPATCH_INDEX_TYPES(A&&...);
template <typename... A> __host__ void AT_DISPATCH_REDUCED_FLOATING_TYPES(A&&...);
template <typename... A> __host__ void AT_DISPATCH_SWITCH(A&&...);
#define AT_DISPATCH_CASE(TYPE, ...) __VA_ARGS__
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) __VA_ARGS__
#define PYBIND11_MODULE(name, m) void boundcheck_pybind_module(int m)
#endif
"""

_PREFIXES = ("torch/", "ATen/", "c10/")


def torch_header(include: str) -> str | None:
    """The stub for a missing include of PyTorch's (``torch/extension.h``, ``ATen/ATen.h``,
    ``c10/util/Half.h``), or None."""
    return TORCH_HEADER if include.startswith(_PREFIXES) else None
