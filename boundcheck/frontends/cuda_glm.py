"""Declarations that answer a missing ``<glm/…>`` include: the vector and matrix types, operators
and functions of GLM (the header-only math library of Gaussian-splatting and NeRF kernels). An
empty header leaves every kernel that holds a ``glm::vec3`` partly understood (BC001); these
declarations only let the kernel parse, none of them is an access."""

GLM = r"""
#ifndef BOUNDCHECK_GLM
#define BOUNDCHECK_GLM
namespace glm {
typedef int length_t;
enum qualifier { packed_highp, packed_mediump, packed_lowp, highp = packed_highp, defaultp = packed_highp };
template <length_t L, class T, qualifier Q = defaultp> struct vec;
template <class T, qualifier Q> struct vec<1, T, Q> {
  T x;
  __host__ __device__ vec(); __host__ __device__ vec(T);
  __host__ __device__ T& operator[](length_t); __host__ __device__ const T& operator[](length_t) const;
  __host__ __device__ static constexpr length_t length() { return 1; } };
template <class T, qualifier Q> struct vec<2, T, Q> {
  T x, y;
  __host__ __device__ vec(); __host__ __device__ explicit vec(T); __host__ __device__ vec(T, T);
  template <length_t M, class U, qualifier P> __host__ __device__ explicit vec(const vec<M, U, P>&);
  __host__ __device__ T& operator[](length_t); __host__ __device__ const T& operator[](length_t) const;
  __host__ __device__ static constexpr length_t length() { return 2; } };
template <class T, qualifier Q> struct vec<3, T, Q> {
  T x, y, z;
  __host__ __device__ vec(); __host__ __device__ explicit vec(T); __host__ __device__ vec(T, T, T);
  __host__ __device__ vec(const vec<2, T, Q>&, T); __host__ __device__ vec(T, const vec<2, T, Q>&);
  template <length_t M, class U, qualifier P> __host__ __device__ explicit vec(const vec<M, U, P>&);
  __host__ __device__ T& operator[](length_t); __host__ __device__ const T& operator[](length_t) const;
  __host__ __device__ static constexpr length_t length() { return 3; } };
template <class T, qualifier Q> struct vec<4, T, Q> {
  T x, y, z, w;
  __host__ __device__ vec(); __host__ __device__ explicit vec(T); __host__ __device__ vec(T, T, T, T);
  __host__ __device__ vec(const vec<3, T, Q>&, T); __host__ __device__ vec(const vec<2, T, Q>&, T, T);
  template <length_t M, class U, qualifier P> __host__ __device__ explicit vec(const vec<M, U, P>&);
  __host__ __device__ T& operator[](length_t); __host__ __device__ const T& operator[](length_t) const;
  __host__ __device__ static constexpr length_t length() { return 4; } };
template <length_t C, length_t R, class T, qualifier Q = defaultp> struct mat {
  vec<R, T, Q> value[C];
  __host__ __device__ mat(); __host__ __device__ explicit mat(T);
  template <class... A> __host__ __device__ mat(A...);
  __host__ __device__ vec<R, T, Q>& operator[](length_t); __host__ __device__ const vec<R, T, Q>& operator[](length_t) const;
  __host__ __device__ static constexpr length_t length() { return C; } };
template <class T, qualifier Q = defaultp> struct qua {
  T x, y, z, w;
  __host__ __device__ qua(); __host__ __device__ qua(T, T, T, T); __host__ __device__ qua(T, const vec<3, T, Q>&);
  __host__ __device__ T& operator[](length_t); __host__ __device__ const T& operator[](length_t) const; };
#define BC_GLM_VEC_OP(OP) \
  template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> operator OP(const vec<L, T, Q>&, const vec<L, T, Q>&); \
  template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> operator OP(const vec<L, T, Q>&, T); \
  template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> operator OP(T, const vec<L, T, Q>&); \
  template <length_t L, class T, qualifier Q, class U> __host__ __device__ vec<L, T, Q>& operator OP##=(vec<L, T, Q>&, const U&); \
  template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> operator OP(const mat<C, R, T, Q>&, T); \
  template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> operator OP(T, const mat<C, R, T, Q>&); \
  template <length_t C, length_t R, class T, qualifier Q, class U> __host__ __device__ mat<C, R, T, Q>& operator OP##=(mat<C, R, T, Q>&, const U&); \
  template <class T, qualifier Q> __host__ __device__ qua<T, Q> operator OP(const qua<T, Q>&, const qua<T, Q>&); \
  template <class T, qualifier Q> __host__ __device__ qua<T, Q> operator OP(const qua<T, Q>&, T); \
  template <class T, qualifier Q> __host__ __device__ qua<T, Q> operator OP(T, const qua<T, Q>&);
BC_GLM_VEC_OP(+) BC_GLM_VEC_OP(-) BC_GLM_VEC_OP(*) BC_GLM_VEC_OP(/)
#undef BC_GLM_VEC_OP
// element-wise for + and - only: `mat * mat` is the matrix product below
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> operator+(const mat<C, R, T, Q>&, const mat<C, R, T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> operator-(const mat<C, R, T, Q>&, const mat<C, R, T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> operator-(const vec<L, T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> operator-(const mat<C, R, T, Q>&);
template <class T, qualifier Q> __host__ __device__ qua<T, Q> operator-(const qua<T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ vec<R, T, Q> operator*(const mat<C, R, T, Q>&, const vec<C, T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ vec<C, T, Q> operator*(const vec<R, T, Q>&, const mat<C, R, T, Q>&);
template <length_t C, length_t R, length_t K, class T, qualifier Q> __host__ __device__ mat<K, R, T, Q> operator*(const mat<C, R, T, Q>&, const mat<K, C, T, Q>&);
template <class T, qualifier Q> __host__ __device__ vec<3, T, Q> operator*(const qua<T, Q>&, const vec<3, T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ bool operator==(const vec<L, T, Q>&, const vec<L, T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ bool operator!=(const vec<L, T, Q>&, const vec<L, T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ T dot(const vec<L, T, Q>&, const vec<L, T, Q>&);
template <class T, qualifier Q> __host__ __device__ T dot(const qua<T, Q>&, const qua<T, Q>&);
template <class T, qualifier Q> __host__ __device__ vec<3, T, Q> cross(const vec<3, T, Q>&, const vec<3, T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ T length(const vec<L, T, Q>&);
template <class T, qualifier Q> __host__ __device__ T length(const qua<T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ T distance(const vec<L, T, Q>&, const vec<L, T, Q>&);
template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> normalize(const vec<L, T, Q>&);
template <class T, qualifier Q> __host__ __device__ qua<T, Q> normalize(const qua<T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<R, C, T, Q> transpose(const mat<C, R, T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> inverse(const mat<C, R, T, Q>&);
template <class T, qualifier Q> __host__ __device__ qua<T, Q> inverse(const qua<T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ T determinant(const mat<C, R, T, Q>&);
template <length_t C, length_t R, class T, qualifier Q> __host__ __device__ mat<C, R, T, Q> outerProduct(const vec<R, T, Q>&, const vec<C, T, Q>&);
template <class T, qualifier Q> __host__ __device__ mat<3, 3, T, Q> mat3_cast(const qua<T, Q>&);
template <class T, qualifier Q> __host__ __device__ mat<4, 4, T, Q> mat4_cast(const qua<T, Q>&);
template <class M> __host__ __device__ qua<float, defaultp> quat_cast(const M&);
template <class T, qualifier Q> __host__ __device__ qua<T, Q> slerp(const qua<T, Q>&, const qua<T, Q>&, T);
template <class T, qualifier Q> __host__ __device__ qua<T, Q> conjugate(const qua<T, Q>&);
template <class T, class... A> __host__ __device__ T rotate(const T&, A...);
template <class T> __host__ __device__ vec<2, T, defaultp> make_vec2(const T*);
template <class T> __host__ __device__ vec<3, T, defaultp> make_vec3(const T*);
template <class T> __host__ __device__ vec<4, T, defaultp> make_vec4(const T*);
template <class T> __host__ __device__ mat<2, 2, T, defaultp> make_mat2(const T*);
template <class T> __host__ __device__ mat<3, 3, T, defaultp> make_mat3(const T*);
template <class T> __host__ __device__ mat<4, 4, T, defaultp> make_mat4(const T*);
template <class T> __host__ __device__ qua<T, defaultp> make_quat(const T*);
template <class V> __host__ __device__ auto value_ptr(V& v) -> decltype(&v[0][0]);
template <class T> __host__ __device__ constexpr T epsilon();
template <class T> __host__ __device__ constexpr T pi();
#define BC_GLM_UNARY(F) \
  template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> F(const vec<L, T, Q>&); \
  template <class T> __host__ __device__ T F(T);
BC_GLM_UNARY(abs) BC_GLM_UNARY(exp) BC_GLM_UNARY(log) BC_GLM_UNARY(sqrt) BC_GLM_UNARY(inversesqrt)
BC_GLM_UNARY(floor) BC_GLM_UNARY(ceil) BC_GLM_UNARY(round) BC_GLM_UNARY(sign) BC_GLM_UNARY(fract)
BC_GLM_UNARY(sin) BC_GLM_UNARY(cos) BC_GLM_UNARY(tan) BC_GLM_UNARY(asin) BC_GLM_UNARY(acos) BC_GLM_UNARY(atan)
BC_GLM_UNARY(radians) BC_GLM_UNARY(degrees)
#undef BC_GLM_UNARY
#define BC_GLM_BINARY(F) \
  template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> F(const vec<L, T, Q>&, const vec<L, T, Q>&); \
  template <length_t L, class T, qualifier Q> __host__ __device__ vec<L, T, Q> F(const vec<L, T, Q>&, T); \
  template <class T> __host__ __device__ T F(T, T);
BC_GLM_BINARY(min) BC_GLM_BINARY(max) BC_GLM_BINARY(pow) BC_GLM_BINARY(atan) BC_GLM_BINARY(mod) BC_GLM_BINARY(step)
#undef BC_GLM_BINARY
template <class A, class B, class C> __host__ __device__ A clamp(const A&, const B&, const C&);
template <class A, class B, class C> __host__ __device__ A mix(const A&, const B&, const C&);
template <class A, class B, class C> __host__ __device__ A lerp(const A&, const B&, const C&);
template <class A, class B, class C> __host__ __device__ A smoothstep(const B&, const C&, const A&);
typedef vec<2, float> vec2; typedef vec<3, float> vec3; typedef vec<4, float> vec4;
typedef vec<2, float> fvec2; typedef vec<3, float> fvec3; typedef vec<4, float> fvec4;
typedef vec<2, double> dvec2; typedef vec<3, double> dvec3; typedef vec<4, double> dvec4;
typedef vec<2, int> ivec2; typedef vec<3, int> ivec3; typedef vec<4, int> ivec4;
typedef vec<2, unsigned int> uvec2; typedef vec<3, unsigned int> uvec3; typedef vec<4, unsigned int> uvec4;
typedef mat<2, 2, float> mat2; typedef mat<3, 3, float> mat3; typedef mat<4, 4, float> mat4;
typedef mat<2, 2, float> mat2x2; typedef mat<3, 3, float> mat3x3; typedef mat<4, 4, float> mat4x4;
typedef mat<2, 3, float> mat2x3; typedef mat<3, 2, float> mat3x2; typedef mat<3, 4, float> mat3x4;
typedef mat<4, 3, float> mat4x3; typedef mat<2, 4, float> mat2x4; typedef mat<4, 2, float> mat4x2;
typedef mat<2, 2, float> fmat2; typedef mat<3, 3, float> fmat3; typedef mat<4, 4, float> fmat4;
typedef mat<2, 3, float> fmat2x3; typedef mat<3, 2, float> fmat3x2;
typedef qua<float> quat; typedef qua<float> fquat; typedef qua<double> dquat;
}
#endif
"""


def glm_header(include: str) -> str:
    """The declarations for an include of GLM (``glm/glm.hpp``, ``glm/gtc/type_ptr.hpp``), else
    nothing."""
    return GLM if include.startswith("glm/") else ""
