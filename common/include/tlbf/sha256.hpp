// SHA-256 (FIPS 180-4), for telling whether a file is the one tlbf was built
// with: the vector files' digests are compiled into tlbf (docs/vectors.md,
// "The vectors tlbf was built with"). Debian's CMake computes the same digest
// at build time (file(SHA256)); the tests hold the two together and this one
// to the standard's published examples.
#pragma once

#include <string>
#include <string_view>

namespace tlbf {

// 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace tlbf
