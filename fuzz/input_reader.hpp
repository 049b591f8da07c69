// Reading a fuzzer's input as a little program: bytes, integers, choices.
// Running out of input is not an error: every read then gives zeros, and
// done() says so, so every input decodes to something.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tlbf::fuzz {

class InputReader {
 public:
  explicit InputReader(std::span<const std::uint8_t> data) : data_(data) {}

  bool done() const { return at_ >= data_.size(); }

  std::uint8_t byte() { return done() ? 0 : data_[at_++]; }

  // Little-endian, from up to `width` bytes.
  std::uint64_t uint(unsigned width) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= std::uint64_t{byte()} << (8 * i);
    return v;
  }

  // Up to `max` bytes, the length first.
  std::vector<std::uint8_t> bytes(std::size_t max) {
    std::size_t n = byte() % (max + 1);
    n = std::min(n, data_.size() - std::min(at_, data_.size()));
    std::vector<std::uint8_t> out(data_.begin() + static_cast<std::ptrdiff_t>(at_),
                                  data_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    at_ += n;
    return out;
  }

 private:
  std::span<const std::uint8_t> data_;
  std::size_t at_ = 0;
};

}  // namespace tlbf::fuzz
