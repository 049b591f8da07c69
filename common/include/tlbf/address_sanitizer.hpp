// Whether this build runs under AddressSanitizer, for the tests whose
// measure it changes (resident memory, address-space limits). GCC says so
// with __SANITIZE_ADDRESS__, Clang through __has_feature; the sanitizer
// build may use either (scripts/build asan).
#pragma once

namespace tlbf {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif
#else
inline constexpr bool kAddressSanitized = false;
#endif

}  // namespace tlbf
