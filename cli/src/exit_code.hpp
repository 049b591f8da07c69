// tlbf's exit codes: one value per situation, the same for every subcommand
// (docs/cli.md, "Exit codes", is this table; a test holds the two together and
// every subcommand's help footer to it). A script can tell "the verdict is no"
// from "the verdict could not be reached" from "a file could not be written"
// by the number alone, whichever subcommand it ran.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace tlbf::cli {

enum Exit : int {
  kOk = 0,
  kRefused = 1,         // the verdict is no: a file that is not TLBF v1, an implementation that
                        // does not conform, a suite short of the bar
  kUsage = 2,           // the command line is wrong; nothing was run
  kIo = 3,              // a file could not be opened, read or written
  kPassesBroken = 4,    // mutate: the suite passes against an implementation that refuses everything
  kFlaky = 5,           // mutate: the suite passes and fails on the same code
  kRejectsCorrect = 6,  // mutate: the suite fails a correct variant (a wheat)
  kCannotRun = 7,       // what was to be run could not be: an implementation that cannot start,
                        // a patch that does not apply, a learner's grading that met a harness error
  kFailsClean = 8,      // mutate: the suite fails on the clean reference
  kNotAllMeet = 9,      // grade --fail-unless-all-meet: some learner does not meet the bar
  kFailed = 70,         // tlbf itself failed (out of memory, an unexpected error): sysexits.h's
                        // EX_SOFTWARE, far from every verdict
};

struct ExitMeaning {
  Exit code;
  std::string_view name;     // as docs/cli.md's table names it
  std::string_view meaning;  // in general; a subcommand's footer says what it is there
};

inline constexpr ExitMeaning kExitMeanings[] = {
    {kOk, "ok", "done; the verdict, where there is one, is yes"},
    {kRefused, "no", "the verdict is no"},
    {kUsage, "usage", "the command line is wrong; nothing was run"},
    {kIo, "io", "a file could not be opened, read or written"},
    {kPassesBroken, "passes-broken", "the suite passes against an implementation that refuses everything"},
    {kFlaky, "flaky", "the suite passes and fails on the same code"},
    {kRejectsCorrect, "rejects-correct", "the suite fails a correct variant"},
    {kCannotRun, "cannot-run", "something tlbf was to run could not be run"},
    {kFailsClean, "fails-clean", "the suite fails on the clean reference"},
    {kNotAllMeet, "not-all-meet", "some learner does not meet the bar"},
    {kFailed, "failed", "tlbf itself failed"},
};

// "Exit codes: 0 WHAT; 1 WHAT; ... See DOC." wrapped at 96 columns, for a
// subcommand's --help: what each code it can end with means there.
inline std::string exit_footer(std::initializer_list<std::pair<Exit, std::string_view>> uses,
                               std::string_view doc) {
  std::string words = "Exit codes:";
  for (const auto& [code, what] : uses)
    words += " " + std::to_string(static_cast<int>(code)) + " " + std::string(what) + ";";
  words.back() = '.';
  words += " See " + std::string(doc) + ".";
  std::string out, line;
  std::size_t start = 0;
  while (start < words.size()) {
    std::size_t end = words.find(' ', start);
    if (end == std::string::npos) end = words.size();
    const std::string word = words.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > 96) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

}  // namespace tlbf::cli
