// tlbf-relay SOCKET: what TLBF_IMPL runs in served mode. It hands its standard
// input and output to a socket of tlbf mutate or tlbf grade, which chooses
// what is served there and gives them to the served process (docs/mutants.md,
// "What a suite can see"), then waits for that process to end. It can serve
// nothing itself, so a sandboxed suite that is shown it learns nothing from
// running it otherwise.
#include <cstring>
#include <iostream>

#include "tlbf/mutants/hidden.hpp"

int main(int argc, char** argv) {
  if (argc != 2 || std::strcmp(argv[1], "--help") == 0) {
    std::cerr << "usage: tlbf-relay SOCKET   (started as TLBF_IMPL by tlbf mutate and tlbf grade)\n";
    return 2;
  }
  return tlbf::mutants::relay(argv[1]);
}
