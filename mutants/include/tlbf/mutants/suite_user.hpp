// Who a suite runs as (docs/mutants.md, "Who a suite runs as"). When tlbf
// runs as root, every run of a suite (in `tlbf grade` and `tlbf mutate`,
// sandboxed or not, the Rust kind's build included) runs as an unprivileged
// user, `nobody` unless --suite-user names another: a real setuid and setgid
// (setpriv), so that the kernel sees that user, not uid 0 in a namespace's
// clothing. What tlbf serves (tlbf-mutant, the variants) stays tlbf's user.
// When tlbf is not root nothing changes: suites run as tlbf's user.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

struct SuiteUser {
  uid_t uid = 0;
  gid_t gid = 0;
  std::string name;  // as given, for messages
};

// The default of --suite-user.
inline constexpr const char* kDefaultSuiteUser = "nobody";

// Chooses who suites run as, from --suite-user's `spec`: a user's name or
// number (with that user's primary group), or UID:GID; "" for the default.
// A failure naming what is wrong when tlbf is root and the user does not
// exist, or setpriv (util-linux) cannot be found. When tlbf is not root it
// checks nothing and chooses nobody else: suites run as tlbf's user.
// Call it once, before any run; until then the default holds.
Outcome<Done> choose_suite_user(const std::string& spec);

// The user suites run as when that is not tlbf's own (tlbf is root and the
// chosen user is not): else none.
std::optional<SuiteUser> suite_user();

// `line` (a shell line) run as the suite user: setpriv with its uid, its gid
// and no other group, no capability and no way to gain one (no_new_privs);
// `line` itself when suite_user() is none.
std::string as_suite_user(const std::string& line);

// Hands `path` and everything under it (links themselves, not what they
// point to) to the suite user, so that its runs may write there; nothing
// when suite_user() is none. A failure naming the file it could not change.
Outcome<Done> give_to_suite_user(const std::filesystem::path& path);

// Lets the suite user pass through a private folder of tlbf's (mode 0711:
// search, not list) to the run folders and sockets made in it with random
// names; nothing when suite_user() is none.
Outcome<Done> let_suite_user_pass(const std::filesystem::path& folder);

// The folders above `path` the suite user may not pass through, outermost
// first (only the outermost matters to a caller that covers it); none when
// suite_user() is none or it may pass them all. From the permission bits and
// the suite user's uid and one gid (POSIX ACLs are not read).
std::vector<std::string> closed_to_suite_user(const std::string& path);

}  // namespace tlbf::mutants
