// The oracle's side of line protocol v1 (docs/protocol.md): one session holds
// the named filters and answers one request line at a time.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "tlbf/bloom.hpp"
#include "tlbf/protocol/serve.hpp"

namespace tlbf::protocol {

class PendingRequest;

class OracleSession final : public LineHandler {
 public:
  OracleSession();
  ~OracleSession() override;
  // A copy has the same filters and no line in progress.
  OracleSession(const OracleSession& other);
  OracleSession& operator=(const OracleSession& other);
  OracleSession(OracleSession&&) noexcept;
  OracleSession& operator=(OracleSession&&) noexcept;

  // The response line, without "\n", to one request line given without its
  // "\n" (a trailing "\r" is removed here). Never throws for any input; a
  // request that breaks the protocol gets "err Protocol ...".
  std::string handle(std::string_view line);

  // The same answers, for a line given in pieces (LineHandler). The line is
  // read as it arrives and never held whole: a bytes argument is decoded
  // piece by piece, and kept only when the request can use it (not for a
  // filter that does not exist, nor past a wrong argument), so a line of
  // 64 MiB costs at most its decoded bytes. Other words are kept whole.
  void add(std::string_view piece) override;
  std::string finish() override;
  void abandon() override;

 private:
  std::map<std::string, Bloom, std::less<>> filters_;
  std::unique_ptr<PendingRequest> pending_;  // the line being read
};

}  // namespace tlbf::protocol
