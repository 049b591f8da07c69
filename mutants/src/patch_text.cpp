// Reading a patch: the files it changes, and its first change as a Place.
#include "patch_text.hpp"

#include <stdlib.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "file_text.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

namespace {

// A change that only adds lines replaces no text, and an empty location
// shows nothing in a viewer: cover the line the lines are added after (or,
// at the top of the file, before) and make it part of the replacement.
void cover_a_neighbour(Place& p) {
  std::vector<std::string> lines;
  std::istringstream in(p.source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const int added_at = p.start_line;  // the old file's line the added lines go before
  const int line = added_at > 1 ? added_at - 1 : added_at;
  if (line < 1 || line > static_cast<int>(lines.size())) return;
  const std::string& text = lines[static_cast<std::size_t>(line - 1)];
  p.start_line = p.end_line = line;
  p.start_column = 1;
  p.end_column = static_cast<int>(text.size()) + 1;
  p.replacement = line < added_at ? text + "\n" + p.replacement : p.replacement + "\n" + text;
}

}  // namespace

// Every file a patch changes, as `patch -p1` names them: its "+++ " lines,
// without the first path component and the timestamp after a tab.
std::set<std::string> files_changed_by(const std::string& patch) {
  std::set<std::string> out;
  std::istringstream in(patch);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++ ", 0) != 0) continue;
    std::string path =
        line.substr(4, line.find('\t') == std::string::npos ? std::string::npos : line.find('\t') - 4);
    if (path == "/dev/null") continue;  // a file the patch deletes
    const std::size_t slash = path.find('/');
    out.insert(slash == std::string::npos ? path : path.substr(slash + 1));
  }
  return out;
}

// The first change of the first hunk: the old file's lines it removes
// (end exclusive), the lines it adds, and the patch's preamble (its text
// before the first `---`) as the description.
Place describe_patch(const std::string& patch, const fs::path& source_root) {
  Place p;
  std::istringstream in(patch);
  int old_line = 0;  // the old file's line the next hunk line stands for; 0 before the first hunk
  bool changed = false, removed = false;
  for (std::string text; std::getline(in, text);) {
    if (old_line == 0) {
      if (text.rfind("+++ ", 0) == 0) {
        const std::string path =
            text.substr(4, text.find('\t') == std::string::npos ? std::string::npos : text.find('\t') - 4);
        p.file = path.find('/') == std::string::npos ? path
                                                     : path.substr(path.find('/') + 1);  // as patch -p1 does
      } else if (text.rfind("@@ -", 0) == 0) {
        old_line = std::max(1, std::atoi(text.c_str() + 4));
      } else if (p.description.empty() && !text.empty() && text.rfind("--- ", 0) != 0) {
        p.description = text;
      }
      continue;
    }
    const char mark = text.empty() ? ' ' : text[0];
    if (mark == ' ' || mark == '@') {
      if (changed) break;
      ++old_line;
    } else if (mark == '-' || mark == '+') {
      if (!changed) p.start_line = p.end_line = old_line;
      changed = true;
      if (mark == '-') {
        removed = true;
        // The location ends after the last removed line's text, not at the
        // start of the next line: the replacement has no final newline, and
        // a viewer would join the mutated line with the one after it.
        p.end_line = old_line++;
        p.end_column = static_cast<int>(text.size());  // the text without its '-', plus one
      } else {
        p.replacement += (p.replacement.empty() ? "" : "\n") + text.substr(1);
      }
    }
  }
  p.source = file_text(source_root / p.file);
  // The diff as patch reads it: from its first "--- " line, without the preamble.
  const std::size_t diff_at = patch.rfind("--- ", 0) == 0 ? 0 : patch.find("\n--- ");
  if (diff_at != std::string::npos) p.diff = patch.substr(diff_at == 0 ? 0 : diff_at + 1);
  if (changed && !removed) cover_a_neighbour(p);
  return p;
}

}  // namespace tlbf::mutants
