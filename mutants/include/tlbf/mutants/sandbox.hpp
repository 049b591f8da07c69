// Running a suite where it sees nothing but what it needs (docs/mutants.md,
// "What a suite can see"): bubblewrap, with the system's folders and the
// toolchain read-only, the run's own folder writable, a private /tmp, no
// network, and a PID namespace of its own.
#pragma once

#include <string>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

struct Sandbox {
  std::vector<std::string> read_only;  // beside the system's folders: toolchains, the programs the suite runs
  std::vector<std::string> read_write;  // the run's own folder
  // Files and folders the suite must not see though a folder above them is
  // shown (tlbf's own install under /usr or /opt): each shows empty.
  std::vector<std::string> hidden;
};

// Done when bubblewrap can make a sandbox here (it is installed, and user
// namespaces are allowed), else a failure that says why not.
Outcome<Done> sandbox_available();

// `line` (a shell line) as run inside the sandbox, in `directory`: as the
// suite user when tlbf is root (as_suite_user_reaching runs bwrap itself).
std::string sandboxed(const Sandbox& sandbox, const std::string& directory, const std::string& line);

// `line` run as the suite user (suite_user.hpp) where it reaches the
// sandbox's read_only and read_write folders though a folder above one is
// closed to that user (root's home, mode 0700): a first bwrap, as tlbf's
// user, covers each such folder with an empty tmpfs and binds only those
// through it. `line` as as_suite_user makes it when nothing is closed, or
// itself when there is no suite user. For an unsandboxed run, its toolchain
// as read_only.
std::string as_suite_user_reaching(const Sandbox& sandbox, const std::string& line);

// What a suite command needs to see to run: the folder of its program when
// that lies outside the system's folders, and the toolchains in the home
// folder (~/.cargo, ~/.rustup, ~/.pyenv) and at $CARGO_HOME, $RUSTUP_HOME
// and $PYENV_ROOT (absolute) that exist.
std::vector<std::string> toolchain_folders(const std::vector<std::string>& suite);

// tlbf's own files, where a sandboxed suite would otherwise see them: the
// running tlbf (`tlbf serve` is the oracle, `tlbf check` a ready-made suite),
// tlbf-mutant (it serves any mutant), and what is installed beside them (the
// kits' references, patches, wheats and chaffs, the adapters, the vectors,
// the oracle's library and headers). tlbf-relay stays: the suite needs it.
// Not those the suite's own program is (an author's `tlbf mutate --sandbox
// -- tlbf check`). Only what exists is listed.
std::vector<std::string> tlbf_own_files(const std::vector<std::string>& suite);

}  // namespace tlbf::mutants
