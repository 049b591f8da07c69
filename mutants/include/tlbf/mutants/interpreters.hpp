// A kit's interpreters, found once for a class rather than on every run
// (docs/mutants.md, "What a grading costs").
#pragma once

#include <filesystem>
#include <string>

#include "tlbf/mutants/grade.hpp"

namespace tlbf::mutants {

// Whether `word` names a Python interpreter by a bare name that PATH
// resolves: python, python3 or python3.N.
bool bare_python(const std::string& word);

// The interpreter that `word` (a bare_python name) starts when run in
// `folder`, as its sys.executable names it: an absolute path to a program
// this user may run, or "" when it cannot be found that way (the word does
// not start, answers nothing usable, or takes more than a minute). The
// folder matters: a pyenv shim chooses by the folder's .python-version.
std::string python_executable(const std::string& word, const std::filesystem::path& folder);

// The kit with the first word of its suite (run in copies of its reference)
// and of its variants' command (run in copies of variants.from) replaced,
// when it is a bare_python name, by python_executable's answer for it, so
// that every run starts the interpreter itself, not whatever first on PATH
// chooses it (a pyenv shim is a shell script that runs pyenv, some hundred
// milliseconds every start). A word that cannot be resolved stays as it is.
Kit with_interpreters_resolved(Kit kit);

}  // namespace tlbf::mutants
