// How values are written in vector files (docs/vectors.md, "Values"). A
// value that is not so written is a Failure naming it; a value of the wrong
// JSON type still throws nlohmann's exception, which the lint catches at its
// edge with the rest of json's (lint.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tlbf/hex.hpp"
#include "tlbf/outcome.hpp"
#include "tlbf/protocol/values.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {

// Bytes: lowercase hex, "" for none.
inline std::string hex(std::span<const std::uint8_t> bytes) { return to_hex(bytes); }

inline Outcome<std::vector<std::uint8_t>> unhex(const std::string& text) {
  auto decoded = from_hex(text);
  if (!decoded) return failure("not hex: " + text.substr(0, 40));
  return std::move(*decoded);
}

inline Outcome<std::vector<std::uint8_t>> bytes_of(const json& value) {
  return unhex(value.get<std::string>());
}

// Reals: the protocol's spelling, the shortest decimal that reads back.
inline std::string real(double x) { return protocol::write_real(x); }

inline Outcome<double> real_of(const json& value) {
  const auto parsed = protocol::read_real(value.get<std::string>());
  if (!parsed) return failure("not a real: " + value.get<std::string>());
  return *parsed;
}

// Hashes: 16 lowercase hex digits.
inline std::string hash(std::uint64_t h) { return protocol::write_hash(h); }

inline Outcome<std::uint64_t> hash_of(const json& value) {
  const auto parsed = protocol::read_hash(value.get<std::string>());
  if (!parsed) return failure("not a hash: " + value.get<std::string>());
  return *parsed;
}

}  // namespace tlbf::vectors
