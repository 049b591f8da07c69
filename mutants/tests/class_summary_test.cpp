// class.json from rows made here: each learner's replay as their report
// said it (docs/mutants.md, "A class in one command").
#include "tlbf/mutants/class_summary.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

ClassRow replay_row(std::string name, std::optional<RowReplay> replay) {
  ClassRow r;
  r.name = std::move(name);
  r.verdict = "short";
  r.killed = 1;
  r.ran = 2;
  r.outcomes = {{"s01", "caught"}, {"s02", "survived"}};
  r.replay = std::move(replay);
  return r;
}

TEST(ClassSummary, EachLearnersReplayIsWrittenAsTheirReportSaidIt) {
  RowReplay spared;
  spared.deterministic = true;
  spared.replayed = {"s02"};
  RowReplay unseeded;
  unseeded.deterministic = false;
  unseeded.difference =
      "request 6 of a session: `contains f2 00` in one clean run, `contains f2 01` in another";
  RowReplay off;
  off.enabled = false;
  const Json json = Json::parse(class_summary_json(
      {replay_row("ann", spared), replay_row("bob", unseeded), replay_row("cy", off), replay_row("dee", {})},
      "python", 0.8, {}));
  const Json& learners = json.at("learners");
  ASSERT_EQ(learners.size(), 4U);
  EXPECT_EQ(
      learners[0].at("replay"),
      Json::parse(R"({"enabled": true, "deterministic": true, "difference": null, "replayed": ["s02"]})"));
  EXPECT_EQ(learners[1].at("replay"), Json::parse(R"({"enabled": true, "deterministic": false, "difference":
    "request 6 of a session: `contains f2 00` in one clean run, `contains f2 01` in another", "replayed": []})"));
  EXPECT_EQ(learners[2].at("replay"),
            Json::parse(R"({"enabled": false, "deterministic": null, "difference": null, "replayed": []})"));
  EXPECT_TRUE(learners[3].at("replay").is_null());  // no report, or one that says nothing of replay
}

}  // namespace
}  // namespace tlbf::mutants
