// The I/O loop of a protocol endpoint: lines in, one line out for each.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "tlbf/outcome.hpp"

namespace tlbf::protocol {

// What answers request lines handed over in pieces as they are read, so that
// a line of 64 MiB need never be held whole (docs/protocol.md, section 1).
class LineHandler {
 public:
  virtual ~LineHandler() = default;
  // The next bytes of the current request line: never a "\n", and possibly
  // empty. Pieces split a line anywhere, even between "\r" and "\n".
  virtual void add(std::string_view piece) = 0;
  // The line is complete: its response, without "\n". The next add begins
  // the next line.
  virtual std::string finish() = 0;
  // The line has reached MAX_LINE without its "\n": forget its pieces. The
  // next add begins the next line.
  virtual void abandon() = 0;
};

// Reads requests from in_fd until end of input and writes the handler's
// response and "\n" to out_fd for each, in order. Reads and writes in large
// chunks and flushes exactly when it is about to wait for input, so a
// pipelining peer is never left waiting and never deadlocks. A request line
// of MAX_LINE bytes or more before its "\n" is discarded up to its "\n" and
// answered with err Protocol; a final line without "\n" is answered like any
// other. Holds no more than one read's chunk of input itself. Returns at end
// of input, or with a Failure saying why when reading or writing fails (a
// peer that closed our output, for instance). Prints nothing. SIGPIPE must be
// ignored by the caller.
Outcome<Done> serve_lines(int in_fd, int out_fd, LineHandler& handler);

// The same, for a handler that takes each request line whole (without its
// "\n"): the line is gathered here first, so it costs its length in memory.
Outcome<Done> serve_lines(int in_fd, int out_fd, const std::function<std::string(std::string_view)>& handle);

}  // namespace tlbf::protocol
