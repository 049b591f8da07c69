// tlbf: the TLBF v1 oracle and conformance harness. Subcommands are thin
// wrappers over the libraries; docs/cli.md documents each and the exit codes.
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "tlbf/mutants/catalog.hpp"

namespace tlbf::cli {

void add_version(CLI::App& app) {
  app.set_version_flag("--version", "tlbf " TLBF_VERSION_STRING " (TLBF format v1)");
}

Outcome<std::vector<std::string>> mutant_ids(std::string_view option, const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string id = text.substr(start, comma - start);
    if (id.empty()) return failure(std::string(option) + " '" + text + "' has an empty name");
    if (std::find(out.begin(), out.end(), id) != out.end())
      return failure(std::string(option) + " '" + text + "' names " + id + " twice");
    out.push_back(id);
    if (comma == text.size()) return out;
    start = comma + 1;
  }
}

void say(std::string_view command, const Failure& failure) {
  std::cerr << command << ": " << failure.why << "\n";
}

int fail_with(Exit code, std::string_view command, const Failure& failure) {
  say(command, failure);
  return code;
}

namespace {

// A plain decimal: digits, and with `fraction` at most one '.' between digits.
// Nothing else: no sign, space, exponent, hex, "nan" or "inf", each of which
// a looser parser would turn into a different, valid-looking value.
bool plain_decimal(const std::string& text, bool fraction) {
  const auto digits = [&](std::size_t from, std::size_t to) {
    return from < to && std::all_of(text.begin() + static_cast<std::ptrdiff_t>(from),
                                    text.begin() + static_cast<std::ptrdiff_t>(to),
                                    [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::size_t point = fraction ? text.find('.') : std::string::npos;
  return point == std::string::npos ? digits(0, text.size())
                                    : digits(0, point) && digits(point + 1, text.size());
}

}  // namespace

std::optional<std::uint64_t> strict_whole_number(const std::string& text) {
  std::uint64_t value = 0;
  if (!plain_decimal(text, false) ||
      std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc()) {
    return std::nullopt;  // not digits only, or above 2^64 - 1
  }
  return value;
}

CLI::Validator whole_number_in(std::uint64_t min, std::uint64_t max) {
  const std::string range = std::to_string(min) + " ..= " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        const auto value = strict_whole_number(text);
        if (!value || *value < min || *value > max)
          return "'" + text + "' is not a decimal integer in " + range;
        return {};
      },
      "INT in " + range);
}

CLI::Validator decimal_in(double min, double max) {
  std::ostringstream range;
  range << min << " ..= " << max;
  return CLI::Validator(
      [min, max, range = range.str()](std::string& text) -> std::string {
        double value = 0;
        const bool read = plain_decimal(text, true) &&
                          std::from_chars(text.data(), text.data() + text.size(), value).ec == std::errc();
        if (!read || value < min || value > max) return "'" + text + "' is not a decimal number in " + range;
        return {};
      },
      "NUMBER in " + range.str());
}

const CLI::Validator kUnsigned64 = whole_number_in(0, std::numeric_limits<std::uint64_t>::max());

const CLI::Validator kNotEmpty(
    [](std::string& text) -> std::string {
      return text.empty() ? "the value is empty (an unset shell variable?); give one, or leave the option out"
                          : std::string();
    },
    "NOT EMPTY");

// Every subcommand writes standard output through stdio (std::cout is
// synchronised with it), so a write that failed (a full disk, a closed
// descriptor, a reader that left) shows in stdout's error flag, at the
// latest when it is flushed here. A run that had already failed keeps its
// code; one that had not gets `failed_code`.
int with_output_flushed(int rc, int failed_code) {
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
  if (!failed) return rc;
  const int why = errno;
  // A reader that left a pipe chose to stop reading: no message for it.
  struct stat out {};
  const bool to_pipe = ::fstat(STDOUT_FILENO, &out) == 0 && (S_ISFIFO(out.st_mode) || S_ISSOCK(out.st_mode));
  if (why != EPIPE && !to_pipe && rc != kIo) {
    std::cerr << "tlbf: cannot write standard output: " << (why != 0 ? std::strerror(why) : "write error")
              << "\n";
  }
  return rc == kOk ? failed_code : rc;
}

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The name `word` most likely meant: one it begins (an abbreviation) or one
// a typo or two away; "" when none is near enough.
std::string closest(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, std::min<std::size_t>(2, word.size() / 3)) + 1;
  for (const auto& name : names) {
    const std::size_t d = name.rfind(word, 0) == 0 && word.size() >= 3 ? 1 : edit_distance(word, name);
    if (d < best_distance) best = name, best_distance = d;
  }
  return best;
}

// "did you mean" for a mistyped command or option, as git and cargo say it;
// "" when nothing near was typed.
std::string suggestion(CLI::App& app, int argc, char** argv) {
  CLI::App* command = nullptr;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->parsed()) command = sub;
  }
  if (command == nullptr) {
    if (argc < 2 || argv[1][0] == '-') return "";
    std::vector<std::string> names;
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
      names.push_back(sub->get_name());
    const std::string near = closest(argv[1], names);
    return near.empty()
               ? ""
               : "tlbf: no command '" + std::string(argv[1]) + "'; did you mean 'tlbf " + near + "'?";
  }
  for (CLI::App* sub : command->get_subcommands([](CLI::App*) { return true; })) {
    if (sub->parsed()) command = sub;
  }
  std::vector<std::string> names;
  for (const CLI::Option* option : command->get_options()) {
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
  }
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") break;
    if (word.rfind("--", 0) != 0) continue;
    word = word.substr(0, word.find('='));
    if (std::find(names.begin(), names.end(), word) != names.end()) continue;
    const std::string near = closest(word, names);
    if (!near.empty())
      return "tlbf " + command->get_name() + ": no option '" + word + "'; did you mean '" + near + "'?";
  }
  return "";
}

}  // namespace

}  // namespace tlbf::cli

int main(int argc, char** argv) {
  using namespace tlbf::cli;
  // A file size limit (ulimit -f) then fails the write with EFBIG, which is
  // reported as exit 3 naming the file, instead of killing tlbf mid-file.
  std::signal(SIGXFSZ, SIG_IGN);
  // The help texts name the mutants, so before any of them is written.
  if (const auto& read = tlbf::mutants::read_catalog(); !read.ok()) {
    std::cerr << "tlbf: " << read.why() << "\n";
    return 2;
  }
  CLI::App app{"tlbf: reference implementation and test harness for the TLBF v1 Bloom filter format"};
  app.name("tlbf");
  app.require_subcommand(1);
  add_version(app);

  int rc = kOk;
  add_inspect(app, rc);
  add_build(app, rc);
  add_query(app, rc);
  add_serve(app, rc);
  add_mutants(app, rc);
  add_mutate(app, rc);
  add_vectors(app, rc);
  add_check(app, rc);
  add_grade(app, rc);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive here too, with exit code 0.
    const std::string near = e.get_exit_code() == 0 ? "" : suggestion(app, argc, argv);
    if (!near.empty()) {
      std::cerr << near << "\nRun with --help for more information.\n";
      return with_output_flushed(kUsage, kUsage);
    }
    rc = app.exit(e) == 0 ? kOk : kUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "tlbf: out of memory\n";
    return kFailed;
  } catch (const std::exception& e) {
    std::cerr << "tlbf: stopped by an unexpected error: " << e.what() << "\n";
    return kFailed;
  }
  return with_output_flushed(rc, kIo);
}
