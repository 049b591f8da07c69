// A row's replay read back from JSON: a report's config.replay and a
// learner's replay in class.json, which tlbf grade writes with the same fields
// (docs/mutants.md, "The transcript is the lever").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "tlbf/mutants/class_rows.hpp"

namespace tlbf::mutants {

// None for null; else every field, `replayed` in the JSON's order. Throws
// nlohmann's exceptions when a field is missing or of another type.
std::optional<RowReplay> row_replay_of(const nlohmann::ordered_json& replay);

}  // namespace tlbf::mutants
