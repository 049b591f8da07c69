// Splitting a byte stream into items, one a line (docs/cli.md, "Items").
#pragma once

#include <istream>
#include <string>

namespace tlbf {

// Reads the next line into `line` without its "\n", and without one "\r"
// just before it. The last line needs no "\n"; an empty remainder after the
// final "\n" is not a line. Returns false at end of input. Any byte other than
// "\n" is kept, NUL included.
bool read_line(std::istream& in, std::string& line);

}  // namespace tlbf
