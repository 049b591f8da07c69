// What tlbf-relay sends the hidden server, for tests that stand in for it.
#pragma once

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cstring>

#include "tlbf/mutants/hidden.hpp"

namespace tlbf::mutants::test_support {

// tlbf-relay's hello on `sock`, handing over `in` and `out` as the served
// process's standard input and output.
inline void hand_over(int sock, int in, int out) {
  char hello[sizeof kRelayHello];
  std::memcpy(hello, kRelayHello, sizeof hello);
  iovec data{hello, sizeof hello};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  cmsghdr* fds = CMSG_FIRSTHDR(&message);
  fds->cmsg_level = SOL_SOCKET;
  fds->cmsg_type = SCM_RIGHTS;
  fds->cmsg_len = CMSG_LEN(2 * sizeof(int));
  const int both[2] = {in, out};
  std::memcpy(CMSG_DATA(fds), both, sizeof both);
  ASSERT_EQ(::sendmsg(sock, &message, 0), static_cast<ssize_t>(sizeof hello));
}

}  // namespace tlbf::mutants::test_support
