#include "tlbf/conformance/cases.hpp"
#include "tlbf/vectors/vectors.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace tlbf::conformance {
namespace {

using vectors::json;

// Hex as the protocol writes it: "-" for no bytes.
std::string bytes_word(const json& hex) {
  const auto text = hex.get<std::string>();
  return text.empty() ? "-" : text;
}

std::string num(const json& v) { return v.dump(); }
std::string str(const json& v) { return v.get<std::string>(); }

std::string ok_words(const json& values) {
  std::string out = "ok";
  for (const auto& v : values) out += " " + num(v);
  return out;
}

std::string error_pattern(const json& t) { return "err " + str(t["errorKind"]); }

// Steps for one test, by its group type.
std::vector<Step> steps_for(const std::string& type, const json& t) {
  const bool fails = t.contains("errorKind");
  if (type == "Fnv1a64Test") return {{"fnv1a64 " + bytes_word(t["item"]), "ok " + str(t["hash"])}};
  if (type == "Mix64Test") return {{"mix64 " + str(t["input"]), "ok " + str(t["output"])}};
  if (type == "OptimalMTest") return {{"optimal_m " + num(t["n"]) + " " + str(t["p"]), "ok " + num(t["m"])}};
  if (type == "OptimalKTest") return {{"optimal_k " + num(t["m"]) + " " + num(t["n"]), "ok " + num(t["k"])}};
  if (type == "PredictedFpRateTest") {
    return {{"predicted_fp_rate " + num(t["m"]) + " " + num(t["k"]) + " " + num(t["n"]),
             "ok ~" + str(t["rate"])}};
  }
  if (type == "WithRateTest") {
    std::vector<Step> steps = {
        {"with_rate f " + num(t["n"]) + " " + str(t["p"]), fails ? error_pattern(t) : "ok"}};
    if (!fails) steps.push_back({"info f", "ok " + num(t["m"]) + " " + num(t["k"]) + " 0"});
    return steps;
  }
  if (type == "PositionsForTest") {
    return {{"positions_for " + num(t["m"]) + " " + num(t["k"]) + " " + bytes_word(t["item"]),
             fails ? error_pattern(t) : ok_words(t["positions"])}};
  }
  if (type == "FilterTest") {
    const json& how = t["construct"];
    const std::string make =
        how.contains("withRate")
            ? "with_rate f " + num(how["withRate"]["n"]) + " " + str(how["withRate"]["p"])
            : "new f " + num(how["new"]["m"]) + " " + num(how["new"]["k"]);
    if (fails) return {{make, error_pattern(t)}};
    std::vector<Step> steps = {{make, "ok"}};
    for (std::size_t i = 0; i < t["inserts"].size(); ++i) {
      const std::string item = bytes_word(t["inserts"][i]);
      steps.push_back({"positions f " + item, ok_words(t["positions"][i])});
      steps.push_back({"insert f " + item, "ok"});
    }
    steps.push_back({"count_ones f", "ok " + num(t["countOnes"])});
    steps.push_back({"info f", "ok " + num(t["m"]) + " " + num(t["k"]) + " " + num(t["nInserted"])});
    steps.push_back({"to_bytes f", "ok " + str(t["bytes"])});
    for (std::size_t i = 0; i < t["probes"].size(); ++i) {
      steps.push_back(
          {"contains f " + bytes_word(t["probes"][i]), t["present"][i].get<bool>() ? "ok true" : "ok false"});
    }
    return steps;
  }
  if (type == "UnionTest") {
    std::vector<Step> steps = {{"from_bytes a " + bytes_word(t["left"]), "ok"},
                               {"from_bytes b " + bytes_word(t["right"]), "ok"},
                               {"union a b", fails ? error_pattern(t) : "ok"}};
    if (!fails) steps.push_back({"to_bytes a", "ok " + str(t["bytes"])});
    return steps;
  }
  if (type == "FromBytesTest") {
    if (fails) return {{"from_bytes f " + bytes_word(t["bytes"]), error_pattern(t)}};
    return {{"from_bytes f " + bytes_word(t["bytes"]), "ok"},
            {"info f", "ok " + num(t["m"]) + " " + num(t["k"]) + " " + num(t["nInserted"])},
            {"count_ones f", "ok " + num(t["countOnes"])},
            {"to_bytes f", "ok " + str(t["bytes"])}};  // a valid file re-serializes to itself
  }
  throw std::invalid_argument("no protocol steps for test type " + type);
}

std::string short_name(const std::string& file) {
  // tlbf_from_bytes_v1.json -> from_bytes
  const std::string stem = file.substr(5, file.size() - 5 - 8);
  return stem;
}

}  // namespace

std::optional<Capability> capability_of(std::string_view command) {
  const protocol::Command* c = protocol::command_named(command);
  return c ? c->capability : std::nullopt;
}

std::vector<Case> cases_from_vectors(const std::vector<vectors::VectorFile>& files) {
  std::vector<Case> out;
  for (const auto& file : files) {
    for (const auto& group : file.doc["testGroups"]) {
      const std::string type = group["type"].get<std::string>();
      for (const auto& t : group["tests"]) {
        Case c;
        c.name = "vectors/" + short_name(file.name) + "/" + type + "/" + t["tcId"].dump();
        c.steps = steps_for(type, t);
        for (const auto& step : c.steps) {
          if (auto cap = capability_of(step.request.substr(0, step.request.find(' ')))) c.needs.insert(*cap);
        }
        c.acceptable = t["result"] == "acceptable";
        for (const auto& flag : t["flags"]) c.why += (c.why.empty() ? "" : ", ") + flag.get<std::string>();
        if (t.contains("comment") && t["comment"].is_string()) c.about = t["comment"].get<std::string>();
        if (!c.why.empty()) c.about += (c.about.empty() ? "" : " ") + std::string("(flags: ") + c.why + ")";
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

std::string shown_request(const Step& step) {
  constexpr std::size_t kShown = 8;
  const std::string shown = step.request + std::string(std::min(step.fill.count, kShown), step.fill.byte);
  if (step.fill.count <= kShown) return shown;
  return shown + "...[" + std::to_string(step.request.size() + step.fill.count) + " bytes in all]";
}

void make_steps_now(Case& c) {
  if (!c.make_steps) return;
  c.steps = c.make_steps();
  c.make_steps = nullptr;
}

}  // namespace tlbf::conformance
