// The one JSON parser for files tlbf is given (vector files, reports to
// merge, kits, earlier reports of a class): stricter than the JSON grammar,
// because tlbf is a test oracle and must not take a tampered file on faith.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "tlbf/outcome.hpp"

namespace tlbf {

// What a kind of file may hold: how deep it nests at most, and what it is
// called in the messages ("vector file", "report").
struct JsonFormat {
  int max_depth;  // containers inside containers: {"a": [1]} is 2, a bare 1 is 0
  std::string_view what;
};

// The document `text`, the contents of `name`, or a Failure that names the
// file and what is wrong:
// - not JSON: the parser's words, with line and column;
// - nested deeper than format.max_depth, and where: refused as the parser
//   reaches that depth, so a file a million arrays deep neither grows a
//   million-level tree nor reaches any code that recurses over one;
// - a key twice in one object, and where: JSON leaves its meaning to the
//   reader (nlohmann::json keeps the last one, other readers the first), so
//   the same file could mean two things.
Outcome<nlohmann::ordered_json> parse_json_strictly(std::string_view text, const std::string& name,
                                                    const JsonFormat& format);

}  // namespace tlbf
