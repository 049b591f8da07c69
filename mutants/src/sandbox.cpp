#include "tlbf/mutants/sandbox.hpp"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

// The home folder: $HOME, else the user's entry (a CI job may run without HOME).
std::string home() {
  const char* h = std::getenv("HOME");
  if (h && *h) return h;
  const passwd* entry = ::getpwuid(::getuid());
  return entry && entry->pw_dir ? entry->pw_dir : "";
}

// A program as the shell would find it on PATH, links followed; "" when not found.
std::string resolved(const std::string& program) {
  std::error_code ec;
  if (program.find('/') != std::string::npos) return fs::weakly_canonical(fs::absolute(program), ec).string();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (::access(candidate.c_str(), X_OK) == 0)
      return fs::weakly_canonical(fs::absolute(candidate), ec).string();
  }
  return "";
}

bool under_system_folder(const std::string& path) {
  for (const char* root : {"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/", "/opt/"}) {
    if (path.rfind(root, 0) == 0) return true;
  }
  return false;
}

}  // namespace

Outcome<Done> sandbox_available() {
  // As the suite user, who runs bwrap when tlbf is root (suite_user.hpp).
  const auto probe =
      conformance::run_with_input(as_suite_user("bwrap --unshare-user --disable-userns --cap-drop ALL "
                                                "--ro-bind / / --proc /proc --ro-bind /proc/sys "
                                                "/proc/sys "
                                                "--dev /dev --tmpfs /tmp --unshare-net --unshare-pid "
                                                "--die-with-parent true"),
                                  "", std::chrono::seconds(30));
  if (probe.exited_cleanly()) return done();
  return failure(!probe.started ? "bwrap cannot be started (" + probe.start_error + ")"
                                : "bwrap cannot make a sandbox here (" + probe.how_it_ended() + ": " +
                                      conformance::last_lines(probe.out + probe.err, 2) +
                                      "); install Debian's bubblewrap and allow user namespaces");
}

std::string sandboxed(const Sandbox& sandbox, const std::string& directory, const std::string& line) {
  // The system read-only, and nothing of /home, /root, /work, /tmp or the
  // grader's scratch folders but what is bound below.
  std::string out =
      // A user namespace of its own, with no capability in it: a suite run as
      // root would otherwise keep root's, and could remount what is bound
      // read-only or enter the grader's namespaces (an adversary's suite did).
      // A session of its own (--new-session): no controlling terminal to
      // type into with TIOCSTI, whatever the process that starts bwrap has.
      "bwrap --die-with-parent --new-session --unshare-user --cap-drop ALL --unshare-net --unshare-pid "
      "--unshare-ipc --unshare-uts"
      " --ro-bind /usr /usr --ro-bind /etc /etc --ro-bind-try /opt /opt"
      " --symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
      " --proc /proc --dev /dev --tmpfs /tmp"
      // The kernel's settings read-only. A suite that tlbf runs as root is
      // uid 0 of the machine in its namespace, and a sysctl asks only for
      // that uid, not for a capability: an adversary's suite set
      // kernel.core_pattern to a program of its own, crashed a process, and
      // the kernel ran that program as root outside every namespace. The
      // cover also makes this /proc not "fully visible", so no namespace
      // made inside can mount a writable one; --disable-userns refuses such
      // namespaces outright.
      " --ro-bind /proc/sys /proc/sys --disable-userns";
  for (const auto& dir : sandbox.read_only)
    out += " --ro-bind-try " + shell_quote(dir) + " " + shell_quote(dir);
  for (const auto& dir : sandbox.read_write) out += " --bind " + shell_quote(dir) + " " + shell_quote(dir);
  // Cargo writes its locks and caches into CARGO_HOME, which is read-only
  // here: it gets a fresh one in the private /tmp, with the grader's
  // configuration (a registry replaced by Debian's, say) shown in it.
  const char* cargo_home = std::getenv("CARGO_HOME");
  const std::string cargo = cargo_home && *cargo_home ? cargo_home : home().empty() ? "" : home() + "/.cargo";
  out += " --dir /tmp/cargo-home --setenv CARGO_HOME /tmp/cargo-home";
  for (const char* config : {"config.toml", "config"}) {
    std::error_code ec;
    if (!cargo.empty() && fs::is_regular_file(fs::path(cargo) / config, ec)) {
      out += " --ro-bind " + shell_quote((fs::path(cargo) / config).string()) + " /tmp/cargo-home/" + config;
    }
  }
  // Last, over what the binds above show (a path no bind shows is left out:
  // hiding it would make its folders).
  const auto shown = [&sandbox](const std::string& path) {
    std::vector<std::string> roots = {"/usr/", "/etc/", "/opt/"};
    for (const auto& dir : sandbox.read_only) roots.push_back(dir + "/");
    for (const auto& dir : sandbox.read_write) roots.push_back(dir + "/");
    return std::any_of(roots.begin(), roots.end(),
                       [&path](const std::string& root) { return path.rfind(root, 0) == 0; });
  };
  for (const auto& path : sandbox.hidden) {
    if (!shown(path)) continue;
    std::error_code ec;
    const bool folder = fs::is_directory(path, ec);
    out += folder ? " --tmpfs " + shell_quote(path) : " --ro-bind /dev/null " + shell_quote(path);
  }
  if (!directory.empty()) out += " --chdir " + shell_quote(directory);
  return as_suite_user_reaching(sandbox, out + " -- /bin/sh -c " + shell_quote(line));
}

// The suite user must reach every folder a run uses, and cannot reach one
// inside a folder closed to it: a toolchain in root's home (mode 0700;
// Gradescope's ~/.cargo), or a folder the grader's cwd or TMPDIR puts there.
// bwrap resolves what it binds as the user who runs it, an open descriptor's
// path too (--ro-bind-fd, 0.8), so a first bwrap, still tlbf's user and with
// no namespace but a mount one, covers the outermost such folder with an
// empty tmpfs (0755) and binds only the run's folders through it: the suite
// user then reaches them, and nothing else of that folder.
std::string as_suite_user_reaching(const Sandbox& sandbox, const std::string& line) {
  std::vector<std::string> covers;
  const auto covered = [&covers](const std::string& path) {
    return std::any_of(covers.begin(), covers.end(),
                       [&path](const std::string& cover) { return path.rfind(cover + "/", 0) == 0; });
  };
  for (const auto* list : {&sandbox.read_only, &sandbox.read_write}) {
    for (const auto& path : *list) {
      const auto closed = closed_to_suite_user(path);
      if (!closed.empty() && !covered(path) &&
          std::find(covers.begin(), covers.end(), closed.front()) == covers.end())
        covers.push_back(closed.front());
    }
  }
  if (covers.empty()) return as_suite_user(line);
  std::string out = "bwrap --die-with-parent --dev-bind / /";
  for (const auto& cover : covers) out += " --tmpfs " + shell_quote(cover);
  // The folders between a cover and what is bound below it, which bwrap
  // would make 0700: passable, and empty but for the binds.
  std::vector<std::string> between;
  for (const auto* list : {&sandbox.read_only, &sandbox.read_write}) {
    for (const auto& path : *list) {
      if (!covered(path)) continue;
      for (fs::path up = fs::path(path).parent_path(); covered(up.string()); up = up.parent_path()) {
        if (std::find(between.begin(), between.end(), up.string()) == between.end())
          between.push_back(up.string());
      }
    }
  }
  std::sort(between.begin(), between.end());  // a folder before those inside it
  for (const auto& dir : between) out += " --perms 0755 --dir " + shell_quote(dir);
  for (const auto& path : sandbox.read_only) {
    if (covered(path)) out += " --ro-bind-try " + shell_quote(path) + " " + shell_quote(path);
  }
  for (const auto& path : sandbox.read_write) {
    if (covered(path)) out += " --bind " + shell_quote(path) + " " + shell_quote(path);
  }
  return out + " -- " + as_suite_user(line);
}

std::vector<std::string> toolchain_folders(const std::vector<std::string>& suite) {
  std::vector<std::string> out;
  std::error_code ec;
  if (!home().empty()) {
    for (const char* dir : {".cargo", ".rustup", ".pyenv"}) {
      if (fs::is_directory(fs::path(home()) / dir, ec)) out.push_back((fs::path(home()) / dir).string());
    }
  }
  // Where the environment puts them instead (a grader whose HOME is elsewhere).
  for (const char* variable : {"CARGO_HOME", "RUSTUP_HOME", "PYENV_ROOT"}) {
    const char* dir = std::getenv(variable);
    if (dir == nullptr || *dir != '/' || !fs::is_directory(dir, ec)) continue;
    if (std::find(out.begin(), out.end(), std::string(dir)) == out.end()) out.push_back(dir);
  }
  if (!suite.empty()) {
    const std::string program = resolved(suite.front());
    if (!program.empty() && !under_system_folder(program))
      out.push_back(fs::path(program).parent_path().string());
  }
  return out;
}

std::vector<std::string> tlbf_own_files(const std::vector<std::string>& suite) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path bin = self.parent_path();
  const fs::path prefix = bin.parent_path();
  // Beside tlbf in the build tree, and the install layout's folders.
  std::vector<fs::path> candidates = {self,
                                      bin / "tlbf-mutant",
                                      bin / "grade-kits",
                                      bin / "adapters",
                                      prefix / "libexec" / "tlbf" / "tlbf-mutant",
                                      prefix / "share" / "tlbf",
                                      prefix / "include" / "tlbf",
                                      prefix / "lib" / "cmake" / "tlbf"};
  for (const auto& entry : fs::directory_iterator(prefix / "lib", ec)) {
    if (entry.path().filename().string().rfind("libtlbf", 0) == 0) candidates.push_back(entry.path());
  }
  const std::string program = suite.empty() ? "" : resolved(suite.front());
  std::vector<std::string> out;
  for (const auto& candidate : candidates) {
    const fs::path path = fs::weakly_canonical(candidate, ec);
    if (ec || !fs::exists(path, ec) || path.string() == program) continue;
    if (std::find(out.begin(), out.end(), path.string()) == out.end()) out.push_back(path.string());
  }
  return out;
}

}  // namespace tlbf::mutants
