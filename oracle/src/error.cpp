#include "tlbf/error.hpp"

namespace tlbf {

std::string_view to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::BadParams:
      return "BadParams";
    case ErrorKind::Mismatch:
      return "Mismatch";
    case ErrorKind::Format:
      return "Format";
  }
  return "Unknown";  // unreachable for valid enumerators
}

std::string Error::describe() const {
  std::string out(to_string(kind));
  out += ": ";
  out += message;
  return out;
}

}  // namespace tlbf
