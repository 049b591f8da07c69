#include "tlbf/fuzz/peer.hpp"
