#include "tlbf/strict_json.hpp"

#include <set>
#include <vector>

namespace tlbf {
namespace {

using Json = nlohmann::ordered_json;

// Thrown from the parser's callback to stop it at once: nlohmann::json has
// no other way to end a parse from there.
struct Refused {
  std::string why;
};

// One open container, for duplicate keys and for saying where a problem is.
struct Level {
  bool object;
  std::string key;             // the key being read, in an object
  std::size_t index = 0;       // the element being read, in an array
  std::set<std::string> keys;  // the keys seen so far, in an object
};

// A JSON Pointer (RFC 6901) to the value being read in the first `count`
// open containers: "/testGroups/0/tests".
std::string pointer(const std::vector<Level>& levels, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    const Level& level = levels[i];
    out += "/";
    if (!level.object) {
      out += std::to_string(level.index);
      continue;
    }
    for (char c : level.key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  }
  return out.empty() ? "/" : out;
}

// The checks, run as each token is read, before the tree holds it.
class Checker {
 public:
  Checker(const std::string& name, const JsonFormat& format) : name_(name), format_(format) {}

  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    switch (event) {
      case E::object_start:
      case E::array_start:
        open(event == E::object_start);
        break;
      case E::key:
        key(parsed.get<std::string>());
        break;
      case E::object_end:
      case E::array_end:
        levels_.pop_back();
        next_element();
        break;
      case E::value:
        next_element();
        break;
    }
    return true;
  }

 private:
  void open(bool object) {
    if (static_cast<int>(levels_.size()) >= format_.max_depth) {
      throw Refused{name_ + ": nested deeper than " + std::to_string(format_.max_depth) + " levels at " +
                    pointer(levels_, levels_.size()) + ", deeper than any " + std::string(format_.what) +
                    " can be"};
    }
    levels_.push_back(Level{object, {}, 0, {}});
  }

  void key(std::string k) {
    Level& level = levels_.back();
    if (!level.keys.insert(k).second) {
      throw Refused{name_ + ": the key \"" + k + "\" appears twice in the object at " +
                    pointer(levels_, levels_.size() - 1) +
                    " (readers differ on which one counts, so the file has no one meaning)"};
    }
    level.key = std::move(k);
  }

  // A value in an array is done: the next one has the next index.
  void next_element() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().index;
  }

  const std::string& name_;
  const JsonFormat& format_;
  std::vector<Level> levels_;
};

// The parser's message without its "[json.exception.parse_error.101] " tag.
std::string parser_words(const std::string& what) {
  const auto tag_end = what.find("] ");
  return tag_end == std::string::npos ? what : what.substr(tag_end + 2);
}

}  // namespace

Outcome<Json> parse_json_strictly(std::string_view text, const std::string& name, const JsonFormat& format) {
  Checker checker(name, format);
  try {
    return Json::parse(text, std::ref(checker));
  } catch (const Refused& refused) {
    return failure(refused.why);
  } catch (const Json::exception& e) {
    return failure(name + ": not JSON: " + parser_words(e.what()));
  }
}

}  // namespace tlbf
