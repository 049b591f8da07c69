#include "tlbf/mutants/suite_user.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <sstream>

#include "tlbf/shell_quote.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

struct Choice {
  bool made = false;
  std::optional<SuiteUser> user;
  std::string setpriv;  // its path
};

Choice& choice() {
  static Choice c;
  return c;
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// `name`'s entry, by name or by number; none when there is no such user.
std::optional<SuiteUser> user_entry(const std::string& name) {
  const passwd* entry = all_digits(name)
                            ? ::getpwuid(static_cast<uid_t>(std::strtoul(name.c_str(), nullptr, 10)))
                            : ::getpwnam(name.c_str());
  if (entry == nullptr) return std::nullopt;
  return SuiteUser{entry->pw_uid, entry->pw_gid, name};
}

Outcome<SuiteUser> parse_user(const std::string& spec) {
  const std::size_t colon = spec.find(':');
  if (colon != std::string::npos) {
    const std::string uid = spec.substr(0, colon), gid = spec.substr(colon + 1);
    if (!all_digits(uid) || !all_digits(gid))
      return failure("--suite-user " + spec + ": UID:GID takes two numbers");
    return SuiteUser{static_cast<uid_t>(std::strtoul(uid.c_str(), nullptr, 10)),
                     static_cast<gid_t>(std::strtoul(gid.c_str(), nullptr, 10)), spec};
  }
  if (auto entry = user_entry(spec)) return *entry;
  return failure("--suite-user " + spec +
                 ": no such user on this machine (tlbf runs as root, so each suite " +
                 "runs as that user; name one that exists, by name, number or UID:GID)");
}

// setpriv's path on PATH (or /usr/bin's), "" when there is none.
std::string find_setpriv() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(std::string(path ? path : "") + ":/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty() || dir[0] != '/') continue;  // a relative folder means another file in each run's folder
    const std::string candidate = dir + "/setpriv";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace

Outcome<Done> choose_suite_user(const std::string& spec) {
  Choice& c = choice();
  c.made = true;
  c.user.reset();
  if (::geteuid() != 0) return done();
  auto user = parse_user(spec.empty() ? kDefaultSuiteUser : spec);
  if (!user.ok()) return user.failure();
  if (user.value().uid == 0) return done();  // root, as asked: docs/mutants.md says what that reopens
  c.setpriv = find_setpriv();
  if (c.setpriv.empty())
    return failure("tlbf runs as root and runs each suite as " + user.value().name +
                   " with setpriv, which is not on PATH (Debian's util-linux has it)");
  c.user = std::move(user).value();
  return done();
}

std::optional<SuiteUser> suite_user() {
  Choice& c = choice();
  // The default, for a caller that chose nothing (the library's tests); a
  // machine without it runs suites as they were.
  if (!c.made) (void)choose_suite_user("");
  return c.user;
}

std::string as_suite_user(const std::string& line) {
  const auto user = suite_user();
  if (!user) return line;
  // Real, effective and saved ids all changed: the kernel sees that user,
  // and the run keeps no capability (root's are dropped with uid 0, and the
  // bounding set is emptied so that no file capability brings one back).
  return shell_quote(choice().setpriv) + " --reuid=" + std::to_string(user->uid) +
         " --regid=" + std::to_string(user->gid) +
         " --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- /bin/sh -c " +
         shell_quote(line);
}

Outcome<Done> give_to_suite_user(const fs::path& path) {
  const auto user = suite_user();
  if (!user) return done();
  const auto give = [&user](const fs::path& p) -> Outcome<Done> {
    if (::lchown(p.c_str(), user->uid, user->gid) != 0)
      return failure("cannot give " + p.string() + " to the suite user " + user->name + ": " +
                     std::strerror(errno));
    return done();
  };
  if (auto given = give(path); !given.ok()) return given;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (auto given = give(it->path()); !given.ok()) return given;
  }
  if (ec)
    return failure("cannot give " + path.string() + " to the suite user " + user->name + ": " + ec.message());
  return done();
}

Outcome<Done> let_suite_user_pass(const fs::path& folder) {
  if (!suite_user()) return done();
  if (::chmod(folder.c_str(), 0711) != 0)
    return failure("cannot let the suite user pass through " + folder.string() + ": " + std::strerror(errno));
  return done();
}

std::vector<std::string> closed_to_suite_user(const std::string& path) {
  std::vector<std::string> out;
  const auto user = suite_user();
  if (!user) return out;
  const fs::path whole = fs::path(path).lexically_normal();
  fs::path above;
  for (auto part = whole.begin(); part != whole.end(); ++part) {
    if (std::next(part) == whole.end()) break;  // the path itself is not above it
    above /= *part;
    struct stat st {};
    if (::stat(above.c_str(), &st) != 0) break;  // missing: nothing below to reach
    const mode_t search = st.st_uid == user->uid ? S_IXUSR : st.st_gid == user->gid ? S_IXGRP : S_IXOTH;
    if ((st.st_mode & search) == 0) out.push_back(above.string());
  }
  return out;
}

}  // namespace tlbf::mutants
