// Every transcript, and every transcript block of docs/protocol.md, replayed
// against the oracle (tlbf serve) and the two independent implementations.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "tlbf/conformance/transcript.hpp"

namespace tlbf::conformance {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Transcript must_parse(const std::string& text, const std::string& name) {
  auto t = parse_transcript(text, name);
  if (!t) throw std::runtime_error(name + ":" + t.why());
  return t.value();
}

std::vector<Transcript> all_transcripts() {
  std::vector<Transcript> out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(TLBF_TRANSCRIPTS_DIR)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) out.push_back(must_parse(slurp(file), file.filename().string()));

  const std::string doc = slurp(TLBF_PROTOCOL_DOC);
  const std::regex block("```transcript\n([\\s\\S]*?)```");
  int n = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), block), end; it != end; ++it) {
    out.push_back(must_parse((*it)[1], "protocol.md block " + std::to_string(++n)));
  }
  return out;
}

struct Impl {
  const char* name;
  const char* command;
  friend void PrintTo(const Impl& impl, std::ostream* os) { *os << impl.name; }
};

class EveryImplementation : public ::testing::TestWithParam<Impl> {};

TEST_P(EveryImplementation, AnswersEveryTranscript) {
  if (*GetParam().command == '\0')
    GTEST_SKIP() << "cargo is missing: the Rust implementation was not built (scripts/setup installs cargo)";
  const auto transcripts = all_transcripts();
  ASSERT_GE(transcripts.size(), 8U);  // six files and the doc's blocks
  for (const Transcript& t : transcripts) {
    SCOPED_TRACE(t.name);
    const ReplayReport report = replay(t, GetParam().command, Budget{});
    for (const auto& failure : report.failures) ADD_FAILURE() << failure;
    if (!report.passed) ADD_FAILURE() << "stderr tail:\n" << report.stderr_tail;
  }
}

INSTANTIATE_TEST_SUITE_P(Transcripts, EveryImplementation,
                         ::testing::Values(Impl{"Oracle", TLBF_ORACLE_IMPL}, Impl{"Python", TLBF_PYTHON_IMPL},
                                           Impl{"Rust", TLBF_RUST_IMPL}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(Transcripts, TheDocHasExamples) {
  const std::string doc = slurp(TLBF_PROTOCOL_DOC);
  EXPECT_NE(doc.find("```transcript\n"), std::string::npos);
}

}  // namespace
}  // namespace tlbf::conformance
