// The subcommands of `tlbf`. Each registers itself on the app and sets the
// process exit code through `rc` when it runs; the work is the libraries'.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exit_code.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::cli {

void add_inspect(CLI::App& app, int& rc);
void add_build(CLI::App& app, int& rc);
void add_query(CLI::App& app, int& rc);
void add_serve(CLI::App& app, int& rc);
void add_mutants(CLI::App& app, int& rc);
void add_mutate(CLI::App& app, int& rc);
void add_vectors(CLI::App& app, int& rc);
void add_check(CLI::App& app, int& rc);
void add_grade(CLI::App& app, int& rc);

// Adds --version to a (sub)command, so that it works everywhere.
void add_version(CLI::App& app);

// How a subcommand ends on a failure: prints "COMMAND: WHY" on standard
// error and returns `code` for the process's exit.
int fail_with(Exit code, std::string_view command, const Failure& failure);

// A failure the subcommand goes on after (a learner's report not written, a
// viewer missing): prints "COMMAND: WHY" on standard error, as fail_with does.
void say(std::string_view command, const Failure& failure);

// Every number on the command line is read by these (docs/cli.md, "Exit
// codes"): a plain decimal, no sign, exponent, hex, nan or inf, in the range
// given. CLI11 on its own reads "-4" as 2^64 - 4, saturates overflow, takes
// "0x10" as 16 and lets NaN through CLI::Range, each of which would turn a
// typo into a different, valid-looking request.
std::optional<std::uint64_t> strict_whole_number(const std::string& text);  // nullopt: not one
CLI::Validator whole_number_in(std::uint64_t min, std::uint64_t max);
CLI::Validator decimal_in(double min, double max);
extern const CLI::Validator kUnsigned64;  // whole_number_in(0, 2^64 - 1)

// The ids of a comma-separated list of mutants (--mutants, --require): each
// named once, none empty. A repeat would count one mutant's kill twice in a
// score, and an empty name is a typo, not "no more".
Outcome<std::vector<std::string>> mutant_ids(std::string_view option, const std::string& text);

// Refuses an empty value: `--json "$UNSET"` must not read as "no --json".
extern const CLI::Validator kNotEmpty;

// --own-vectors, of `vectors lint` and `check`: a folder of vector files that
// deliberately differs from those this tlbf was built with, checked by schema
// and values alone. Without it a folder must hold exactly those files, so a
// gutted or tampered copy cannot pass for them (docs/vectors.md).
inline constexpr const char* kOwnVectorsHelp =
    "The folder holds vectors of your own, deliberately not those this tlbf was built with: check them by "
    "schema and values alone";

}  // namespace tlbf::cli
