// Header bytes for cases that forge TLBF v1 files field by field
// (docs/format.md, section 5), shared by the rule cases and the described cases.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {

inline void put_le(std::vector<std::uint8_t>& out, std::uint64_t value, int size) {
  for (int i = 0; i < size; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// Every field, whatever its value: a file that only the field under test makes wrong.
struct Header {
  std::uint64_t version = 1;  // written as 4 bytes
  std::uint64_t m = 8;
  std::uint64_t k = 1;         // 4 bytes
  std::uint64_t reserved = 0;  // 4 bytes
  std::uint64_t n = 0;
  std::size_t bit_bytes = 1;
  std::uint8_t last_byte = 0;  // the last byte of the bit array (its padding, when m % 8 != 0)
};

// The file as hex: the magic, the fields little-endian, then bit_bytes bytes
// of zeros but the last, which is last_byte.
inline std::string file_hex(const Header& h) {
  std::vector<std::uint8_t> out = {0x54, 0x4c, 0x42, 0x46};
  put_le(out, h.version, 4);
  put_le(out, h.m, 8);
  put_le(out, h.k, 4);
  put_le(out, h.reserved, 4);
  put_le(out, h.n, 8);
  out.resize(out.size() + h.bit_bytes, 0);
  if (h.bit_bytes > 0) out.back() = h.last_byte;
  return protocol::write_bytes(out);
}

}  // namespace tlbf::conformance
