#include "tlbf/low.hpp"
#include "tlbf/conformance/high.hpp"
