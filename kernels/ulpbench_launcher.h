/* ulpbench_launcher.h — how ulpbench learns a --launcher's parameter
 * types from the compiler, and calls it.
 *
 * ulpbench compiles two units that #include the user's file and then this
 * header:
 *   - for the device, ending with ULPBENCH_LAUNCHER_PROBE(launch): a
 *     device variable ulpbench_params holding the number of the host
 *     function's parameters, then one code per parameter, as
 *     ulpbench_probe.h codes a kernel's (a pointer to an incomplete type,
 *     such as cudaStream_t, has size 0);
 *   - for the host, as a shared object, ending with
 *     ULPBENCH_LAUNCHER(launch): extern "C" int ulpbench_call(void **a),
 *     which calls launch with parameter i read from a[i] (its storage) and
 *     returns the number of parameters.
 * Nothing here changes the user's code. */
#ifndef ULPBENCH_LAUNCHER_H
#define ULPBENCH_LAUNCHER_H

#include "ulpbench_probe.h"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace ulpbench_launch_ {

template <class T, class = void> struct size_of { static constexpr unsigned long long v = 0; };
template <class T> struct size_of<T, decltype(void(sizeof(T)))> {
	static constexpr unsigned long long v = sizeof(T);
};

/* The element code of a complete type (ulpbench_probe.h); 0 otherwise. */
template <class T, bool = (size_of<T>::v > 0)> struct el {
	static constexpr unsigned long long c = 0;
};
template <class T> struct el<T, true> {
	static constexpr unsigned long long c = ulpbench_probe_::elem<T>();
};

template <class T> constexpr unsigned long long code()
{
	typedef typename std::remove_cv<typename std::remove_reference<T>::type>::type U;
	typedef typename std::remove_pointer<U>::type P;
	return std::is_pointer<U>::value
		? 1ull << 8 | (std::is_const<P>::value ? 1ull << 10 : 0) |
		  el<typename std::remove_cv<P>::type>::c |
		  size_of<typename std::remove_cv<P>::type>::v << 16
		: 2ull << 8 | el<U>::c | size_of<U>::v << 16;
}

template <class F> struct sig;
template <class R, class... A> struct sig<R (*)(A...)> {
	static constexpr unsigned long long v[sizeof...(A) + 1] = { code<A>()..., 0 };
	static constexpr unsigned long long at(unsigned i)
	{
		return i == 0 ? sizeof...(A) : i <= sizeof...(A) ? v[i - 1] : 0;
	}
};

template <class R, class... A, std::size_t... I>
void call(R (*f)(A...), void **a, std::index_sequence<I...>)
{
	f(*static_cast<typename std::remove_reference<A>::type *>(a[I])...);
}

template <class R, class... A> int call(R (*f)(A...), void **a)
{
	call(f, a, std::index_sequence_for<A...>{});
	return (int)sizeof...(A);
}

} /* namespace ulpbench_launch_ */

#define ULPBENCH_LAT(K, i) ulpbench_launch_::sig<decltype(&K)>::at(i)
#define ULPBENCH_LAT4(K, i) ULPBENCH_LAT(K, i), ULPBENCH_LAT(K, i + 1), \
	ULPBENCH_LAT(K, i + 2), ULPBENCH_LAT(K, i + 3)
#define ULPBENCH_LAUNCHER_PROBE(K)                                              \
	extern "C" __device__ unsigned long long ulpbench_params[33] = {        \
		ULPBENCH_LAT4(K, 0), ULPBENCH_LAT4(K, 4), ULPBENCH_LAT4(K, 8),  \
		ULPBENCH_LAT4(K, 12), ULPBENCH_LAT4(K, 16), ULPBENCH_LAT4(K, 20), \
		ULPBENCH_LAT4(K, 24), ULPBENCH_LAT4(K, 28), ULPBENCH_LAT(K, 32) }
#define ULPBENCH_LAUNCHER(K)                                                    \
	extern "C" int ulpbench_call(void **a) { return ulpbench_launch_::call(&K, a); }

#endif
