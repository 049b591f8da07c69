// A suite's conversation with its subject, as served mode records it, and
// what the scorer makes of it (docs/mutants.md, "The transcript is the
// lever"): whether a suite asks the same in every run, and whether a subject
// answers it as the reference did.
#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <vector>

namespace tlbf::mutants {

// One connection to TLBF_IMPL (one session of line protocol v1): every byte
// the suite sent, and every byte the subject answered.
struct Session {
  std::string sent, answered;
  auto operator<=>(const Session&) const = default;
};
// One run's sessions, in no order that means anything (concurrent sessions
// end in any order).
using Transcript = std::vector<Session>;

// Requests of a session: its lines, a last one without its '\n' included
// (docs/protocol.md, "Framing").
std::size_t requests_in(const std::string& sent);
std::size_t requests_in(const Transcript& transcript);

// "" when `a` and `b` hold the same sessions, as multisets (the order of
// sessions is not counted); else, in words, the first request where a
// session of one differs from the most alike session of the other, with
// what each sent there ("request 5 of a session: `contains f 0x61` in one
// clean run, `contains f 0x62` in another").
std::string first_difference(const Transcript& a, const Transcript& b);

// "" when `answered` is byte for byte the reference's answers to its
// session; else the first request whose answer differs, with both answers
// ("request 12, `contains f 0x61`: the reference answered `ok true`, this
// subject `ok false`").
std::string answer_difference(const Session& reference, const std::string& answered);

// Line `n` (from 0) of `text` without its '\n', shown printable and cut to
// a readable length; "(none)" when `text` has fewer lines.
std::string shown_line(const std::string& text, std::size_t n);

}  // namespace tlbf::mutants
