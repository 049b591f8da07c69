// Everything the TLBF v1 reference offers, in one include.
#pragma once

#include "tlbf/bloom.hpp"
#include "tlbf/error.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/sizing.hpp"
