// Running commands as child processes: the Child, one run of a command with
// its input, the strays, the scratch folders. A header for callers that use
// several of them; each has its own.
#pragma once

#include "tlbf/conformance/child.hpp"
#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/conformance/scratch_folders.hpp"
#include "tlbf/conformance/strays.hpp"
