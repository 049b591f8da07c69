// Items as the CLI reads them: one a line, as text or as hex (docs/cli.md, "Items").
#pragma once

#include <cstdint>
#include <iostream>
#include <istream>
#include <span>
#include <string>

#include "tlbf/hex.hpp"
#include "tlbf/lines.hpp"

namespace tlbf::cli {

// Calls on_item(std::span<const std::uint8_t>) for every line of `in`, decoded
// from hex when `hex` is set. Returns false, after printing the line number
// and what is wrong, at the first line that is not hex or when reading fails.
template <typename OnItem>
bool for_each_item(std::istream& in, bool hex, const std::string& source, OnItem&& on_item) {
  std::string line;
  std::uint64_t number = 0;
  while (read_line(in, line)) {
    ++number;
    if (!hex) {
      on_item(std::span(reinterpret_cast<const std::uint8_t*>(line.data()), line.size()));
      continue;
    }
    const auto decoded = from_hex(line);
    if (!decoded) {
      std::cerr << "tlbf: " << source << " line " << number << ": not hex (" << line.size()
                << " characters; want an even number of 0-9, a-f, A-F)\n";
      return false;
    }
    on_item(std::span<const std::uint8_t>(*decoded));
  }
  if (in.bad()) {
    std::cerr << "tlbf: " << source << ": read error after line " << number << "\n";
    return false;
  }
  return true;
}

}  // namespace tlbf::cli
