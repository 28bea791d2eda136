"""What kernels use from CUB, for parsing without the CUDA toolkit.

``cub::BlockReduce<float, 256>`` with its ``TempStorage`` in shared memory, ``WarpReduce``,
``BlockScan``, ``BlockLoad``/``BlockStore`` and the ``cub::Sum``/``cub::Max`` functors are how
many kernels reduce and stage tiles. Answered with an empty header, every such kernel is only
partly understood (BC001) and goes unchecked. Every missing ``cub/`` include is answered with
this one header: declarations only, enough for libclang to type the kernels. The collectives are
opaque calls; the kernel's own loads and stores around them are what the rules read.
"""

from __future__ import annotations

CUB_HEADER = r"""
#ifndef BOUNDCHECK_CUB_STUB
#define BOUNDCHECK_CUB_STUB
namespace cub {
struct Sum { template <class T> __host__ __device__ T operator()(const T&, const T&) const; };
struct Max { template <class T> __host__ __device__ T operator()(const T&, const T&) const; };
struct Min { template <class T> __host__ __device__ T operator()(const T&, const T&) const; };
struct ArgMax { template <class T> __host__ __device__ T operator()(const T&, const T&) const; };
struct ArgMin { template <class T> __host__ __device__ T operator()(const T&, const T&) const; };
template <class K, class V> struct KeyValuePair {
  K key; V value; __host__ __device__ KeyValuePair(); __host__ __device__ KeyValuePair(const K&, const V&); };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
template <class T, int BLOCK_DIM_X, int ALGORITHM = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockReduce {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ BlockReduce(); __device__ BlockReduce(TempStorage&);
  template <class F> __device__ T Reduce(T, F); template <class F> __device__ T Reduce(T, F, int);
  template <int N, class F> __device__ T Reduce(T (&)[N], F);
  __device__ T Sum(T); __device__ T Sum(T, int); template <int N> __device__ T Sum(T (&)[N]);
};
template <class T, int LOGICAL_WARP_THREADS = 32, int ARCH = 0>
class WarpReduce {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ WarpReduce(TempStorage&);
  template <class F> __device__ T Reduce(T, F); template <class F> __device__ T Reduce(T, F, int);
  __device__ T Sum(T); __device__ T Sum(T, int);
};
template <class T, int LOGICAL_WARP_THREADS = 32, int ARCH = 0>
class WarpScan {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ WarpScan(TempStorage&);
  __device__ void InclusiveSum(T, T&); __device__ void ExclusiveSum(T, T&);
  __device__ void InclusiveSum(T, T&, T&); __device__ void ExclusiveSum(T, T&, T&);
  template <class F> __device__ void InclusiveScan(T, T&, F); template <class F> __device__ void ExclusiveScan(T, T&, T, F);
  __device__ T Broadcast(T, unsigned);
};
template <class T, int BLOCK_DIM_X, int ALGORITHM = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockScan {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ BlockScan(); __device__ BlockScan(TempStorage&);
  __device__ void InclusiveSum(T, T&); __device__ void ExclusiveSum(T, T&);
  __device__ void InclusiveSum(T, T&, T&); __device__ void ExclusiveSum(T, T&, T&);
  template <int N> __device__ void InclusiveSum(T (&)[N], T (&)[N]);
  template <int N> __device__ void ExclusiveSum(T (&)[N], T (&)[N]);
  template <class F> __device__ void InclusiveScan(T, T&, F); template <class F> __device__ void ExclusiveScan(T, T&, T, F);
  template <class F, class P> __device__ void InclusiveScan(T, T&, F, P&);
  template <class F, class P> __device__ void ExclusiveScan(T, T&, F, P&);
};
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int ALGORITHM = 0, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockLoad {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ BlockLoad(); __device__ BlockLoad(TempStorage&);
  template <class It> __device__ void Load(It, T (&)[ITEMS_PER_THREAD]);
  template <class It> __device__ void Load(It, T (&)[ITEMS_PER_THREAD], int);
  template <class It, class D> __device__ void Load(It, T (&)[ITEMS_PER_THREAD], int, D);
};
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int ALGORITHM = 0, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockStore {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ BlockStore(); __device__ BlockStore(TempStorage&);
  template <class It> __device__ void Store(It, T (&)[ITEMS_PER_THREAD]);
  template <class It> __device__ void Store(It, T (&)[ITEMS_PER_THREAD], int);
};
template <class K, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class V = int, int RADIX_BITS = 4,
          bool MEMOIZE = true, int ALGORITHM = 0, int SMEM = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockRadixSort {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ BlockRadixSort(TempStorage&);
  __device__ void Sort(K (&)[ITEMS_PER_THREAD], int = 0, int = sizeof(K) * 8);
  __device__ void Sort(K (&)[ITEMS_PER_THREAD], V (&)[ITEMS_PER_THREAD], int = 0, int = sizeof(K) * 8);
  __device__ void SortDescending(K (&)[ITEMS_PER_THREAD], int = 0, int = sizeof(K) * 8);
  __device__ void SortDescending(K (&)[ITEMS_PER_THREAD], V (&)[ITEMS_PER_THREAD], int = 0, int = sizeof(K) * 8);
};
struct DeviceReduce {
  template <class I, class O> __host__ static cudaError_t Sum(void*, unsigned long&, I, O, int, cudaStream_t = 0);
  template <class I, class O> __host__ static cudaError_t Max(void*, unsigned long&, I, O, int, cudaStream_t = 0);
};
struct DeviceScan {
  template <class I, class O> __host__ static cudaError_t InclusiveSum(void*, unsigned long&, I, O, int, cudaStream_t = 0);
  template <class I, class O> __host__ static cudaError_t ExclusiveSum(void*, unsigned long&, I, O, int, cudaStream_t = 0);
};
template <class T> __device__ T ShuffleIndex(T, int, unsigned);
__device__ unsigned int LaneId();
__device__ unsigned int WarpId();
}
#endif
"""


def cub_header(include: str) -> str | None:
    """The stub for a missing include of CUB's (``cub/cub.cuh``, ``cub/block/block_reduce.cuh``, a
    vendored ``3rdparty/cub/cub.cuh``)."""
    return CUB_HEADER if "/cub/" in "/" + include else None
