// What the tests of a class's grading share: a kit folder made in a
// scratch folder, and a test of a message's words.
#pragma once

#include <filesystem>
#include <string>

#include "scratch_folder.hpp"

namespace tlbf::mutants::testing {

// A kit folder with a reference, patches and wheats, and kit.json holding `json`.
inline std::filesystem::path kit_with(const ScratchFolder& scratch, const std::string& json) {
  const std::filesystem::path kit = scratch.path() / "kit";
  write_text(kit / "reference" / "bloom.py", "x = 1\n");
  write_text(kit / "reference" / "test_course.py", "\n");
  write_text(kit / "patches" / "s01.patch", "\n");
  write_text(kit / "wheats" / "w1" / "bloom.py", "x = 2\n");
  write_text(kit / "kit.json", json);
  return kit / "kit.json";
}

inline constexpr const char* kPatchKit = R"({"kind": "python", "reference": "reference", "patches": "patches",
  "wheats": "wheats", "tests_file": "test_bloom.py", "suite": ["python3", "-m", "unittest"],
  "left_out": ["test_course.py"]})";

// Whether `text` holds `part`, for EXPECT_PRED2: a failure shows both.
inline bool says(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace tlbf::mutants::testing
