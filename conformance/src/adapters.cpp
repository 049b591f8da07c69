#include "tlbf/conformance/adapters.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tlbf/conformance/child.hpp"
#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/hash.hpp"

namespace tlbf::conformance {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
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

// Asks the server `hello`; "" when it answers ok, else what went wrong.
std::string first_answer_problem(const std::string& command, std::chrono::milliseconds limit,
                                 std::string& detail) {
  const RunResult r = run_with_input(command, "hello\n", limit);
  if (r.started && !r.timed_out && r.out.rfind("ok ", 0) == 0) return "";
  detail = last_lines(r.err.empty() ? r.out : r.err, 12);
  if (!r.started) return "cannot start it: " + r.start_error;
  return "it did not answer hello (" + r.how_it_ended() + ")";
}

}  // namespace

fs::path adapter_cache() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return fs::path(xdg) / "tlbf";
  const char* home = std::getenv("HOME");
  std::string folder = home && *home ? home : "";
  if (folder.empty()) {
    if (const passwd* entry = ::getpwuid(::getuid())) folder = entry->pw_dir;
  }
  return fs::path(folder.empty() ? "/tmp" : folder) / ".cache" / "tlbf";
}

Adapter python_module_adapter(const fs::path& module, const fs::path& adapter_script,
                              std::chrono::milliseconds limit) {
  Adapter a;
  std::error_code ec;
  if (!fs::is_regular_file(module, ec)) {
    a.error = "--python-module '" + module.string() + "' is not a file";
    return a;
  }
  if (!fs::is_regular_file(adapter_script, ec)) {
    a.error = "cannot find the Python adapter " + adapter_script.string();
    return a;
  }
  const std::string command = "python3 " + shell_quote(fs::absolute(adapter_script).string()) + " " +
                              shell_quote(fs::absolute(module).string());
  const std::string problem = first_answer_problem(command, limit, a.detail);
  if (!problem.empty()) {
    a.error = "the Python adapter over " + module.string() + " does not serve: " + problem;
    return a;
  }
  a.command = command;
  return a;
}

Adapter rust_crate_adapter(const fs::path& crate_dir, const std::string& module,
                           const fs::path& server_source, const fs::path& cache,
                           std::chrono::milliseconds limit) {
  Adapter a;
  std::error_code ec;
  const fs::path crate = fs::weakly_canonical(fs::absolute(crate_dir), ec);
  const std::string manifest = slurp(crate / "Cargo.toml");
  if (manifest.empty()) {
    a.error = "--rust-crate '" + crate_dir.string() + "' has no Cargo.toml (give the crate's folder)";
    return a;
  }
  const std::string package = manifest_value(manifest, "package", "name");
  if (package.empty()) {
    a.error = crate.string() + "/Cargo.toml names no [package] (a workspace? give the member crate's folder)";
    return a;
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
  if (at == std::string::npos) {
    a.error = "cannot read the Rust adapter's template " + server_source.string();
    return a;
  }
  server.replace(at, use.size(), "use learner::" + (inside.empty() ? "" : inside + "::") + "{");
  const std::string cargo = find_cargo();
  if (cargo.empty()) {
    a.error =
        "cannot find cargo (on PATH or in ~/.cargo/bin): --rust-crate builds a server against the crate";
    return a;
  }
  const fs::path folder = cache / "rust-adapter" / hex_key(crate.string() + "\n" + inside);
  fs::create_directories(folder / "src", ec);
  if (ec) {
    a.error = "cannot make " + (folder / "src").string() + ": " + ec.message();
    return a;
  }
  // The dependency renamed: `learner` whatever the crate's library is called.
  const std::string toml =
      "[package]\nname = \"tlbf-adapter\"\nversion = \"1.0.0\"\nedition = \"2021\"\npublish = false\n\n"
      "[dependencies]\nlearner = { package = \"" +
      package + "\", path = \"" + crate.string() + "\" }\n\n[workspace]\n";
  if (!write_if_changed(folder / "Cargo.toml", toml) ||
      !write_if_changed(folder / "src" / "main.rs", server)) {
    a.error = "cannot write the adapter's sources in " + folder.string();
    return a;
  }
  const RunResult built = run_with_input("cd " + shell_quote(folder.string()) + " && CARGO_TARGET_DIR=" +
                                             shell_quote((folder / "target").string()) + " " +
                                             shell_quote(cargo) + " build --release --offline --quiet 2>&1",
                                         "", limit);
  if (!built.exited_cleanly()) {
    a.error = "cannot build the Rust adapter against " + crate.string() + " (module " +
              (inside.empty() ? lib : lib + "::" + inside) + "): cargo build " + built.how_it_ended();
    a.detail = last_lines(built.out + built.err, 25);
    return a;
  }
  const std::string command = shell_quote((folder / "target" / "release" / "tlbf-adapter").string());
  const std::string problem = first_answer_problem(command, limit, a.detail);
  if (!problem.empty()) {
    a.error = "the Rust adapter over " + crate.string() + " does not serve: " + problem;
    return a;
  }
  a.command = command;
  return a;
}

}  // namespace tlbf::conformance
