/* ulpbench_probe.h — how ulpbench learns a --kernel's parameter types from
 * the compiler itself, not from reading the source: typedefs, `using`
 * aliases, template parameters and `const T* __restrict__` are resolved
 * by nvcc exactly.
 *
 * ulpbench compiles a translation unit that #includes the user's file and
 * then this header, and ends with ULPBENCH_PROBE((&kernel)) (or
 * (&kernel<type, ...>), or (static_cast<void (*)(...)>(&kernel)) for one
 * overload: in parentheses, the commas of a template's arguments stay in
 * the macro's one argument).
 * That defines two device variables, which nvcc writes into the PTX with
 * their initial values:
 *   ulpbench_entry   the kernel's address: its initializer names the
 *                    kernel's entry in the PTX (its mangled name), and
 *                    taking it instantiates a template kernel;
 *   ulpbench_params  the number of parameters, then one code per
 *                    parameter (below), 0 after the last.
 * A code is bits 0-6 the element (a pointer's pointee, or the value
 * itself): 1 float, 2 double, 3 __half, 4 __nv_bfloat16, 5 bool, 6 char,
 * 7 signed char, 8 unsigned char, 9 short, 10 unsigned short, 11 int,
 * 12 unsigned, 13 long, 14 unsigned long, 15 long long, 16 unsigned long
 * long, 0 anything else; bit 7: the element is a struct whose one member
 * is of that type (struct { __half h; }); bits 8-9: 1 a pointer, 2 a
 * value; bit 10: the pointee is const; bits 16-47: sizeof the value, or
 * of the pointee (0 for void).
 * Nothing here changes the user's kernel or its code.  Under NVRTC (a
 * toolkit without nvcc, whose NVRTC may lack <type_traits>) the few
 * traits it needs are its own, on the compiler's built-in ones. */
#ifndef ULPBENCH_PROBE_H
#define ULPBENCH_PROBE_H

#include <cuda_fp16.h>
#include <cuda_bf16.h>
#ifdef __CUDACC_RTC__
namespace ulpbench_probe_ { namespace tt {
template <bool B> struct bool_constant { static constexpr bool value = B; };
typedef bool_constant<false> false_type;
typedef bool_constant<true> true_type;
template <class T> struct remove_cv { typedef T type; };
template <class T> struct remove_cv<const T> { typedef T type; };
template <class T> struct remove_cv<volatile T> { typedef T type; };
template <class T> struct remove_cv<const volatile T> { typedef T type; };
template <class T> struct remove_pointer { typedef T type; };
template <class T> struct remove_pointer<T *> { typedef T type; };
template <class T> struct is_pointer : false_type {};
template <class T> struct is_pointer<T *> : true_type {};
template <class T> struct is_const : false_type {};
template <class T> struct is_const<const T> : true_type {};
template <class T> struct is_array : false_type {};
template <class T> struct is_array<T[]> : true_type {};
template <class T, unsigned long long N> struct is_array<T[N]> : true_type {};
template <class T> struct is_class : bool_constant<__is_class(T)> {};
#if __cplusplus >= 201703L
template <class T> struct is_aggregate : bool_constant<__is_aggregate(T)> {};
#endif
} }
#define ULPBENCH_STD ulpbench_probe_::tt
#else
#include <type_traits>
#define ULPBENCH_STD std
#endif

namespace ulpbench_probe_ {

template <class T> struct el { static constexpr unsigned long long c = 0; };
#define ULPBENCH_EL(T, k) \
	template <> struct el<T> { static constexpr unsigned long long c = k; };
ULPBENCH_EL(float, 1) ULPBENCH_EL(double, 2) ULPBENCH_EL(__half, 3)
ULPBENCH_EL(__nv_bfloat16, 4) ULPBENCH_EL(bool, 5) ULPBENCH_EL(char, 6)
ULPBENCH_EL(signed char, 7) ULPBENCH_EL(unsigned char, 8)
ULPBENCH_EL(short, 9) ULPBENCH_EL(unsigned short, 10) ULPBENCH_EL(int, 11)
ULPBENCH_EL(unsigned, 12) ULPBENCH_EL(long, 13) ULPBENCH_EL(unsigned long, 14)
ULPBENCH_EL(long long, 15) ULPBENCH_EL(unsigned long long, 16)
#undef ULPBENCH_EL

#if __cplusplus >= 201703L
/* Converts to anything: T{any{}} is valid for an aggregate of one member
 * or more, T{any{}, any{}} of two or more (unevaluated: never called). */
struct any { template <class U> operator U() const; };
template <class T, class = void> struct one : ULPBENCH_STD::false_type {};
template <class T> struct one<T, decltype((void)T{any{}})> : ULPBENCH_STD::true_type {};
template <class T, class = void> struct two : ULPBENCH_STD::false_type {};
template <class T> struct two<T, decltype((void)T{any{}, any{}})> : ULPBENCH_STD::true_type {};
template <class T> constexpr unsigned long long member()
{
	auto [m] = T{};   /* the one member, by a structured binding */
	return el<typename ULPBENCH_STD::remove_cv<decltype(m)>::type>::c;
}
template <class T, bool = ULPBENCH_STD::is_aggregate<T>::value && !ULPBENCH_STD::is_array<T>::value &&
		   one<T>::value && !two<T>::value>
struct wrapped { static constexpr unsigned long long c = 0; };
template <class T> struct wrapped<T, true> { static constexpr unsigned long long c = member<T>(); };
#else
template <class T> struct wrapped { static constexpr unsigned long long c = 0; };
#endif

template <class T> constexpr unsigned long long elem()
{
	typedef typename ULPBENCH_STD::remove_cv<T>::type U;
	return el<U>::c ? el<U>::c : ULPBENCH_STD::is_class<U>::value && wrapped<U>::c ? wrapped<U>::c | 0x80 : 0;
}

template <class T> constexpr unsigned long long size() { return sizeof(T); }
template <> constexpr unsigned long long size<void>() { return 0; }
template <> constexpr unsigned long long size<const void>() { return 0; }
template <> constexpr unsigned long long size<volatile void>() { return 0; }
template <> constexpr unsigned long long size<const volatile void>() { return 0; }

template <class T> constexpr unsigned long long code()
{
	typedef typename ULPBENCH_STD::remove_cv<T>::type U;
	typedef typename ULPBENCH_STD::remove_pointer<U>::type P;
	return ULPBENCH_STD::is_pointer<U>::value
		? 1ull << 8 | (ULPBENCH_STD::is_const<P>::value ? 1ull << 10 : 0) | elem<P>() |
		  size<P>() << 16
		: 2ull << 8 | elem<U>() | size<U>() << 16;
}

template <class F> struct sig;
template <class... A> struct sig<void (*)(A...)> {
	static constexpr unsigned long long v[sizeof...(A) + 1] = { code<A>()..., 0 };
	static constexpr unsigned long long at(unsigned i)
	{
		return i == 0 ? sizeof...(A) : i <= sizeof...(A) ? v[i - 1] : 0;
	}
};

} /* namespace ulpbench_probe_ */

#define ULPBENCH_AT(K, i) ulpbench_probe_::sig<decltype(K)>::at(i)
#define ULPBENCH_AT4(K, i) ULPBENCH_AT(K, i), ULPBENCH_AT(K, i + 1), \
	ULPBENCH_AT(K, i + 2), ULPBENCH_AT(K, i + 3)
#define ULPBENCH_PROBE(K)                                                       \
	extern "C" __device__ void *ulpbench_entry = (void *)(K);               \
	ULPBENCH_PROBE_RTC(K)
/* The parameters only: under NVRTC, which takes no kernel's address in a
 * device variable's initializer, the kernel is named as NVRTC names it
 * (nvrtcAddNameExpression; src/compile/nvcc.c) */
#define ULPBENCH_PROBE_RTC(K)                                                   \
	extern "C" __device__ unsigned long long ulpbench_params[33] = {        \
		ULPBENCH_AT4(K, 0), ULPBENCH_AT4(K, 4), ULPBENCH_AT4(K, 8),     \
		ULPBENCH_AT4(K, 12), ULPBENCH_AT4(K, 16), ULPBENCH_AT4(K, 20),  \
		ULPBENCH_AT4(K, 24), ULPBENCH_AT4(K, 28), ULPBENCH_AT(K, 32) }

#endif
