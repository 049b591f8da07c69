// The children started by Child::start and not yet reaped: any other child of
// this process but the watchdog is a stray (strays.hpp). Internal to
// conformance/; thread-safe.
#pragma once

#include <sys/types.h>

namespace tlbf::conformance {

void note_live(pid_t pid);
void note_reaped(pid_t pid);

}  // namespace tlbf::conformance
