// Words for /bin/sh: the one quoting every component uses for the command
// lines it builds (an implementation's command, a reproduce line, a suite's
// command under tlbf mutate).
#pragma once

#include <string>
#include <string_view>

namespace tlbf {

// `word` single-quoted, so that /bin/sh interprets nothing in it: each ' in
// it becomes '\'' ("it's" -> 'it'\''s'); "" becomes ''.
std::string shell_quote(std::string_view word);

// `word` as it is when it holds only letters, digits and @%+=:,./_- (nothing
// /bin/sh interprets), else shell_quote(word): command lines stay readable.
std::string shell_quote_if_needed(std::string_view word);

}  // namespace tlbf
