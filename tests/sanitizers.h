// Whether this test was built with a sanitizer (AddressSanitizer + UndefinedBehaviorSanitizer,
// or ThreadSanitizer). Those builds look for memory, undefined-behaviour and threading errors,
// not for changed results, and run the solver several times slower: a test whose cost is
// frames of a large problem runs a smaller one there, through the same code. The normal build
// runs every case whole and checks the results.
#pragma once

namespace drape::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

} // namespace drape::testing
