// The subcommands of `tlbf`. Each registers itself on the app and sets the
// process exit code through `rc` when it runs; the work is the libraries'.
#pragma once

#include <CLI/CLI.hpp>

namespace tlbf::cli {

// Exit codes shared by every subcommand (docs/cli.md, "Exit codes").
enum Exit : int {
  kOk = 0,
  kRefused = 1,  // the input was read and is not acceptable: a malformed filter
                 // file, parameters TLBF v1 refuses, an item line that is not hex
  kUsage = 2,    // the command line itself is wrong
  kIo = 3,       // a file could not be opened, read or written
  kFailed = 70,  // tlbf itself failed (out of memory, an unexpected error): distinct
                 // from every subcommand's own codes (sysexits.h's EX_SOFTWARE)
};

void add_inspect(CLI::App& app, int& rc);
void add_build(CLI::App& app, int& rc);
void add_query(CLI::App& app, int& rc);
void add_serve(CLI::App& app, int& rc);
void add_mutants(CLI::App& app, int& rc);
void add_mutate(CLI::App& app, int& rc);
void add_vectors(CLI::App& app, int& rc);
void add_check(CLI::App& app, int& rc);

// Adds --version to a (sub)command, so that it works everywhere.
void add_version(CLI::App& app);

// Accepts only a plain decimal that fits in 64 bits. CLI11 on its own reads
// "-4" as 2^64 - 4 and saturates overflow, which would turn a typo into a
// different, valid-looking request.
extern const CLI::Validator kUnsigned64;

}  // namespace tlbf::cli
