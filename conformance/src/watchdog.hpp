// The watchdog: a process forked once, before the first child, that outlives
// tlbf by a moment and then kills every child process group still alive and
// removes the scratch folders still promised, however tlbf ended, SIGKILL
// included (docs/check.md, "No process outlives the run"). Internal to
// conformance/: Child, the stray cleanup and the scratch folders use it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace tlbf::conformance::watchdog {

inline constexpr int kMaxFolders = 16;
inline constexpr std::size_t kMaxFolderPath =
    4000;  // with its header, one write under PIPE_BUF: whole or not at all

// Starts it, once per process (later calls only say whether that worked); it
// also makes this process ignore SIGPIPE and become a child subreaper.
bool start_once();
// The watchdog's pid, -1 when there is none: it is a child, but no stray.
pid_t pid();

// The process group `pgid` is to be killed when tlbf dies; then no longer.
// Nothing happens when there is no watchdog.
void watch_group(pid_t pgid);
void forget_group(pid_t pgid);

// `folder` (absolute, at most kMaxFolderPath bytes) is to be removed when
// tlbf dies; then no longer. False when the watchdog was not told.
bool watch_folder(const std::string& folder);
bool forget_folder(const std::string& folder);

}  // namespace tlbf::conformance::watchdog
