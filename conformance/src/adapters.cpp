#include "tlbf/conformance/adapters.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tlbf/conformance/child.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/shell_quote.hpp"
#include "tlbf/whole_file.hpp"

namespace tlbf::conformance {
namespace {

namespace fs = std::filesystem;

// The file's text, or "" when it cannot be read: a missing manifest is then
// "no package name", which the build reports. Read by common's bounded
// reader, so a learner's Cargo.toml that is a FIFO or /dev/zero is refused.
std::string slurp(const fs::path& path) {
  auto text = read_whole_file(path.string(), std::size_t{16} << 20, "manifest or source");
  return text.ok() ? std::move(text).value() : std::string();
}

bool write_if_changed(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec) && slurp(path) == text) return true;  // cargo sees nothing new
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// `key = "value"` in the [section] of a Cargo.toml; "" when absent. Enough
// for the plain manifests of a course's crates, not a TOML parser.
std::string manifest_value(const std::string& manifest, const std::string& section, const std::string& key) {
  std::istringstream in(manifest);
  std::string current;
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    line = line.substr(first);
    if (line[0] == '[') {
      current = line.substr(0, line.find(']') + 1);
      continue;
    }
    if (current != "[" + section + "]" || line.rfind(key, 0) != 0) continue;
    const auto rest = line.find_first_not_of(" \t", key.size());
    if (rest == std::string::npos || line[rest] != '=') continue;
    const auto open = line.find('"', rest);
    const auto close = open == std::string::npos ? open : line.find('"', open + 1);
    if (close != std::string::npos) return line.substr(open + 1, close - open - 1);
  }
  return "";
}

std::string hex_key(const std::string& text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(tlbf::fnv1a64(text)));
  return hex;
}

// cargo on PATH, else rustup's in the home folder.
std::string find_cargo() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/cargo").c_str(), X_OK) == 0) return dir + "/cargo";
  }
  const char* home = std::getenv("HOME");
  const std::string cargo_home =
      std::getenv("CARGO_HOME") ? std::getenv("CARGO_HOME") : std::string(home ? home : "") + "/.cargo";
  if (::access((cargo_home + "/bin/cargo").c_str(), X_OK) == 0) return cargo_home + "/bin/cargo";
  return "";
}

// `why`, and below it what a program printed (a build's output, an
// interpreter's message), when it printed anything.
tlbf::Failure with_output(const std::string& why, const std::string& output) {
  return tlbf::failure(output.empty() ? why : why + "\n" + readable_lines(output, 4000));
}

// Asks the server `hello`: done when it answers ok, else a Failure that says
// what went wrong, with its last lines of output below.
tlbf::Outcome<tlbf::Done> answers_hello(const std::string& command, std::chrono::milliseconds limit,
                                        const Launch& launch) {
  const RunResult r =
      run_with_input(launch.own_pid_namespace ? in_own_pid_namespace(command) : command, "hello\n", limit);
  if (r.started && !r.timed_out && r.out.rfind("ok ", 0) == 0) return tlbf::done();
  const std::string output = last_lines(r.err.empty() ? r.out : r.err, 12);
  if (!r.started) return with_output("cannot start it: " + r.start_error, output);
  return with_output("it did not answer hello (" + r.how_it_ended() + ")", output);
}

}  // namespace

fs::path tlbf_cache_folder() {
  if (const char* own = std::getenv("TLBF_CACHE_DIR"); own && *own == '/') return own;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return fs::path(xdg) / "tlbf";
  const char* home = std::getenv("HOME");
  std::string folder = home && *home ? home : "";
  if (folder.empty()) {
    if (const passwd* entry = ::getpwuid(::getuid())) folder = entry->pw_dir;
  }
  return fs::path(folder.empty() ? "/tmp" : folder) / ".cache" / "tlbf";
}

tlbf::Outcome<std::string> python_module_adapter(const fs::path& module, const fs::path& adapter_script,
                                                 std::chrono::milliseconds limit, const Launch& launch) {
  std::error_code ec;
  if (!fs::is_regular_file(module, ec))
    return tlbf::failure("--python-module '" + module.string() + "' is not a file");
  if (!fs::is_regular_file(adapter_script, ec))
    return tlbf::failure("cannot find the Python adapter " + adapter_script.string());
  const std::string command = "python3 " + shell_quote(fs::absolute(adapter_script).string()) + " " +
                              shell_quote(fs::absolute(module).string());
  if (auto served = answers_hello(command, limit, launch); !served)
    return served.failure_in("the Python adapter over " + module.string() + " does not serve: ");
  return command;
}

tlbf::Outcome<std::string> rust_crate_adapter(const fs::path& crate_dir, const std::string& module,
                                              const fs::path& server_source, const fs::path& cache,
                                              std::chrono::milliseconds limit, const Launch& launch) {
  std::error_code ec;
  const fs::path crate = fs::weakly_canonical(fs::absolute(crate_dir), ec);
  const std::string manifest = slurp(crate / "Cargo.toml");
  if (manifest.empty())
    return tlbf::failure("--rust-crate '" + crate_dir.string() +
                         "' has no Cargo.toml (give the crate's folder)");
  const std::string package = manifest_value(manifest, "package", "name");
  if (package.empty()) {
    return tlbf::failure(crate.string() +
                         "/Cargo.toml names no [package] (a workspace? give the member crate's folder)");
  }
  std::string lib = manifest_value(manifest, "lib", "name");
  if (lib.empty()) {
    lib = package;
    for (char& c : lib) c = c == '-' ? '_' : c;
  }
  // The module inside the crate: "tl_ds::bloom" and "bloom" alike.
  std::string inside = module;
  if (inside == lib || inside == "crate") inside.clear();
  for (const std::string& prefix : {lib + "::", std::string("crate::")}) {
    if (inside.rfind(prefix, 0) == 0) inside = inside.substr(prefix.size());
  }
  std::string server = slurp(server_source);
  const std::string use = "use tl_ds::bloom::{";
  const std::size_t at = server.find(use);
  if (at == std::string::npos)
    return tlbf::failure("cannot read the Rust adapter's template " + server_source.string());
  server.replace(at, use.size(), "use learner::" + (inside.empty() ? "" : inside + "::") + "{");
  const std::string cargo = find_cargo();
  if (cargo.empty()) {
    return tlbf::failure(
        "cannot find cargo (on PATH or in ~/.cargo/bin): --rust-crate builds a server against the crate");
  }
  const fs::path folder = cache / "rust-adapter" / hex_key(crate.string() + "\n" + inside);
  fs::create_directories(folder / "src", ec);
  if (ec) return tlbf::failure("cannot make " + (folder / "src").string() + ": " + ec.message());
  // The dependency renamed: `learner` whatever the crate's library is called.
  const std::string toml =
      "[package]\nname = \"tlbf-adapter\"\nversion = \"1.0.0\"\nedition = \"2021\"\npublish = false\n\n"
      "[dependencies]\nlearner = { package = \"" +
      package + "\", path = \"" + crate.string() + "\" }\n\n[workspace]\n";
  if (!write_if_changed(folder / "Cargo.toml", toml) ||
      !write_if_changed(folder / "src" / "main.rs", server)) {
    return tlbf::failure("cannot write the adapter's sources in " + folder.string());
  }
  const RunResult built = run_with_input("cd " + shell_quote(folder.string()) + " && CARGO_TARGET_DIR=" +
                                             shell_quote((folder / "target").string()) + " " +
                                             shell_quote(cargo) + " build --release --offline --quiet 2>&1",
                                         "", limit);
  if (!built.exited_cleanly()) {
    return with_output("cannot build the Rust adapter against " + crate.string() + " (module " +
                           (inside.empty() ? lib : lib + "::" + inside) + "): cargo build " +
                           built.how_it_ended(),
                       last_lines(built.out + built.err, 25));
  }
  const std::string command = shell_quote((folder / "target" / "release" / "tlbf-adapter").string());
  if (auto served = answers_hello(command, limit, launch); !served)
    return served.failure_in("the Rust adapter over " + crate.string() + " does not serve: ");
  return command;
}

}  // namespace tlbf::conformance
