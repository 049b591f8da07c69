#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

constexpr std::uint64_t k2Pow32 = std::uint64_t{1} << 32;

std::string item_hex(std::uint64_t i) {
  std::vector<std::uint8_t> bytes(8);
  for (int b = 0; b < 8; ++b) bytes[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(i >> (8 * b));
  return protocol::write_bytes(bytes);
}

// Two items whose one probe (k = 1) in a filter of m = 2^33 bits differ but
// agree in their low 32 bits: an index cast to 32 bits puts both on one bit.
// A birthday search; about 100,000 items suffice. The items are mixed, not
// counted: FNV-1a's low 32 bits never collide for items that differ only
// before a shared suffix (each step is a bijection of those bits).
std::pair<std::string, std::string> items_colliding_in_32_bits() {
  constexpr std::uint64_t m = std::uint64_t{1} << 33;
  std::unordered_map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>>
      seen;  // low bits -> (item, position)
  for (std::uint64_t i = 1; i < (std::uint64_t{1} << 22); ++i) {
    const std::uint64_t item = mix64(i);
    std::vector<std::uint8_t> bytes(8);
    for (int b = 0; b < 8; ++b)
      bytes[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(item >> (8 * b));
    const std::uint64_t g = fnv1a64(bytes) % m;
    const auto [at, fresh] = seen.try_emplace(static_cast<std::uint32_t>(g), item, g);
    if (!fresh && at->second.second != g) return {item_hex(at->second.first), item_hex(item)};
  }
  // Unreachable for FNV-1a and mix64 as docs/format.md defines them: a test runs the search.
  return {item_hex(1), item_hex(2)};
}

Case late(std::string name, std::set<Capability> needs, std::function<std::vector<DraftStep>()> steps) {
  Case c;
  c.name = std::move(name);
  c.needs = std::move(needs);
  c.about = "a filter of m at or above 2^32 (docs/check.md, \"The large filters\")";
  c.make_steps = [name = c.name, steps = std::move(steps)] { return case_from_draft(name, steps()).steps; };
  return c;
}

// A request of 64 MiB less 4 KiB, `\n` included, just under the longest
// line docs/protocol.md allows, so that a reader with a limit at 32 MiB (or
// anywhere from 16 MiB up, which protocol/framing/line_above_16mib leaves)
// fails. Cheap to answer once read: no such filter. Its item is a fill,
// written in pieces: tlbf check never holds the line.
Case longest_line() {
  const std::string start = "contains absent_last ";  // odd length, so the hex fills the rest exactly
  Case c;
  c.name = "large/line_just_under_64mib";
  c.needs = {Capability::Filter};
  c.about =
      "a request line just under the 64 MiB docs/protocol.md allows (docs/check.md, \"The large filters\")";
  c.steps.push_back(
      {start, "err NoSuchFilter", Fill{(std::size_t{64} << 20) - (std::size_t{4} << 10) - 1 - start.size()}});
  return c;
}

}  // namespace

std::vector<Case> large_cases() {
  std::vector<Case> out;
  // Each filter below is a bit array of 512 MiB to 1 GiB, made one at a time.
  out.push_back(late("large/filters_at_2_pow_32", {Capability::Filter}, [] {
    std::vector<DraftStep> steps;
    for (std::uint64_t m : {k2Pow32 - 1, k2Pow32, k2Pow32 + 1, 2 * k2Pow32 + 3}) {
      const std::string ms = std::to_string(m);
      for (const char* r :
           {"new lg ", "info lg", "insert lg 61", "insert lg 636174", "contains lg 61", "contains lg 636174",
            "contains lg 62", "positions lg 636174", "info lg", "drop lg"}) {
        std::string request = r;
        if (request == "new lg ") request += ms + " 5";
        steps.push_back(ask(request));
      }
    }
    return steps;
  }));
  out.push_back(late("large/index_keeps_64_bits", {Capability::Filter}, [] {
    const auto [a, b] = items_colliding_in_32_bits();
    return std::vector<DraftStep>{
        ask("new lx 8589934592 1"), ask("insert lx " + a),    ask("contains lx " + b),
        ask("positions lx " + a),   ask("positions lx " + b), ask("insert lx " + b),
        ask("contains lx " + a),    ask("contains lx " + b),  ask("drop lx")};
  }));
  out.push_back(late("large/with_rate_beyond_2_pow_32", {Capability::Filter}, [] {
    return std::vector<DraftStep>{ask("with_rate lw 500000000 0.01"),
                                  ask("info lw"),
                                  ask("insert lw 61"),
                                  ask("contains lw 61"),
                                  ask("contains lw 62"),
                                  ask("drop lw")};
  }));
  out.push_back(late("large/union_beyond_2_pow_32", {Capability::Filter, Capability::Union}, [] {
    return std::vector<DraftStep>{ask("new lu_a 4294967304 2"),
                                  ask("new lu_b 4294967304 2"),
                                  ask("insert lu_b 61"),
                                  ask("union lu_a lu_b"),
                                  ask("contains lu_a 61"),
                                  ask("contains lu_a 62"),
                                  ask("info lu_a"),
                                  ask("drop lu_a"),
                                  ask("drop lu_b")};
  }));
  out.push_back(longest_line());
  return out;
}

}  // namespace tlbf::conformance
