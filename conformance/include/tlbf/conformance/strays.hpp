// Stray processes: descendants that escaped their Child's process group and
// were orphaned to tlbf. They are ended when no Child is running.
#pragma once

namespace tlbf::conformance {

// Kills and reaps the strays: processes that became this one's children by
// being orphaned (from the first Child on, this process is a child
// subreaper), such as a daemon that an implementation or a suite started in
// a session of its own, out of reach of its process group's kill. Call it
// when no Child is running; returns how many it ended.
int end_strays();

}  // namespace tlbf::conformance
