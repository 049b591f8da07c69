// How values are written in vector files (docs/vectors.md, "Values").
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlbf/hex.hpp"
#include "tlbf/protocol/values.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {

// Bytes: lowercase hex, "" for none.
inline std::string hex(std::span<const std::uint8_t> bytes) { return to_hex(bytes); }

inline std::vector<std::uint8_t> unhex(const std::string& text) {
  auto decoded = from_hex(text);
  if (!decoded) throw std::invalid_argument("not hex: " + text.substr(0, 40));
  return *decoded;
}

inline std::vector<std::uint8_t> bytes_of(const json& value) { return unhex(value.get<std::string>()); }

// Reals: the protocol's spelling, the shortest decimal that reads back.
inline std::string real(double x) { return protocol::write_real(x); }

inline double real_of(const json& value) {
  const auto parsed = protocol::read_real(value.get<std::string>());
  if (!parsed) throw std::invalid_argument("not a real: " + value.get<std::string>());
  return *parsed;
}

// Hashes: 16 lowercase hex digits.
inline std::string hash(std::uint64_t h) { return protocol::write_hash(h); }

inline std::uint64_t hash_of(const json& value) {
  const auto parsed = protocol::read_hash(value.get<std::string>());
  if (!parsed) throw std::invalid_argument("not a hash: " + value.get<std::string>());
  return *parsed;
}

}  // namespace tlbf::vectors
