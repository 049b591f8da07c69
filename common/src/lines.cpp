#include "tlbf/lines.hpp"

namespace tlbf {

bool read_line(std::istream& in, std::string& line) {
  if (!std::getline(in, line)) return false;  // no bytes left: no line
  // Text written on Windows ends lines in "\r\n"; the "\r" is framing, not item.
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

}  // namespace tlbf
