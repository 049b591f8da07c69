// The oracle's side of line protocol v1 (docs/protocol.md): one session holds
// the named filters and answers one request line at a time.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "tlbf/bloom.hpp"

namespace tlbf::protocol {

class OracleSession {
 public:
  // The response line, without "\n", to one request line given without its
  // "\n" (a trailing "\r" is removed here). Never throws for any input; a
  // request that breaks the protocol gets "err Protocol ...".
  std::string handle(std::string_view line);

 private:
  std::map<std::string, Bloom, std::less<>> filters_;
};

}  // namespace tlbf::protocol
