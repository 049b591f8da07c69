// Protocol servers over a learner's library, so that `tlbf check` can check
// code that has the course's API and no protocol of its own
// (docs/check.md, "Checking a Rust crate", "Checking a Python module").
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "tlbf/conformance/session.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

// What an adapter gives: the shell command line of a protocol server whose
// every answer comes from the learner's code, or a Failure that says why there
// is none, with what to show under it (a compiler's or an interpreter's last
// lines) on the lines after the first.

// `python3 ADAPTER MODULE`, where ADAPTER is tlbf_adapter.py (the protocol
// layer of the bundled Python implementation over the module's functions).
// Tried once with `hello` before it is returned: a module that cannot be
// imported, or lacks a name the adapter calls, is an error here, with the
// interpreter's message, not a check that fails every case. The try is
// started as `launch` says, as the check's own processes are (the learner's
// code runs in it); a Rust crate's build is not (cargo runs as on the
// author's machine: docs/check.md, "No process outlives the run").
tlbf::Outcome<std::string> python_module_adapter(const std::filesystem::path& module,
                                                 const std::filesystem::path& adapter_script,
                                                 std::chrono::milliseconds limit, const Launch& launch = {});

// The bundled Rust server (`server_source`, its main.rs) built against the
// crate in `crate_dir`, whose module `module` has the section-4 API:
// `module` is a path inside the crate ("bloom", the default; "" for its
// root) or a whole path that starts with the crate's name ("tl_ds::bloom").
// Built with `cargo build --release --offline` in a folder of `cache` named
// after the crate's path and the module, so a second check rebuilds only
// what changed. An error carries cargo's last lines.
tlbf::Outcome<std::string> rust_crate_adapter(const std::filesystem::path& crate_dir,
                                              const std::string& module,
                                              const std::filesystem::path& server_source,
                                              const std::filesystem::path& cache,
                                              std::chrono::milliseconds limit, const Launch& launch = {});

// Where tlbf keeps builds between runs (the Rust adapter's, a grading kit's
// built variants): $TLBF_CACHE_DIR, else $XDG_CACHE_HOME/tlbf, else
// ~/.cache/tlbf (the user's home from the password file when HOME is unset,
// /tmp without either).
std::filesystem::path tlbf_cache_folder();

}  // namespace tlbf::conformance
