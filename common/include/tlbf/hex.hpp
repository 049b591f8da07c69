// Hex text for byte strings, as the CLI and the protocol write them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tlbf {

// Lowercase, two digits a byte, no separators; "" for no bytes.
std::string to_hex(std::span<const std::uint8_t> bytes);

// Accepts upper- and lowercase digits. nullopt for an odd length or any
// character that is not a hex digit.
std::optional<std::vector<std::uint8_t>> from_hex(std::string_view text);

// True exactly when from_hex(text) gives bytes, without making them.
bool is_hex(std::string_view text);

// The value of one hex digit (either case), or -1 for any other character:
// for readers that decode digits as they arrive.
int hex_digit(char c) noexcept;

}  // namespace tlbf
