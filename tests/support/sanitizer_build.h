#pragma once
// Whether this test was compiled in a sanitizer build (-DVARIATE_SANITIZE=..., docs/HARDENING.md,
// "Sanitizer builds"): tests whose measurements such a build changes (address space,
// resident memory, debug line tables) skip those checks there.

namespace test_support {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif
#else
inline constexpr bool kSanitizerBuild = false;
#endif

}  // namespace test_support
