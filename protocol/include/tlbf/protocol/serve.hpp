// The I/O loop of a protocol endpoint: lines in, one line out for each.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "tlbf/outcome.hpp"

namespace tlbf::protocol {

// Reads requests from in_fd until end of input and writes handle(request) and
// "\n" to out_fd for each, in order. Reads and writes in large chunks and
// flushes exactly when it is about to wait for input, so a pipelining peer is
// never left waiting and never deadlocks. A request line longer than MAX_LINE
// is discarded up to its "\n" and answered with err Protocol; a final line
// without "\n" is answered like any other. Returns at end of input, or with a
// Failure saying why when reading or writing fails (a peer that closed our
// output, for instance). Prints nothing. SIGPIPE must be ignored by the caller.
Outcome<Done> serve_lines(int in_fd, int out_fd, const std::function<std::string(std::string_view)>& handle);

}  // namespace tlbf::protocol
