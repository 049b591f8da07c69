// tlbf vectors generate | lint: the test vector files (docs/vectors.md).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "commands.hpp"
#include "files.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;

int run_generate(const std::string& out_dir) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "tlbf vectors generate: cannot create " << out_dir << ": " << ec.message() << "\n";
    return kIo;
  }
  for (const auto& file : vectors::generate()) {
    const std::string text = vectors::serialize(file.doc);
    const std::string path = (fs::path(out_dir) / file.name).string();
    if (auto written = write_file(path, text); !written)
      return fail_with(kIo, kFileSpeaker, written.failure());
    std::cout << path << ": " << file.doc["numberOfTests"] << " tests\n";
  }
  return kOk;
}

int run_lint(const std::string& dir, bool own_vectors) {
  const auto folder =
      vectors::load_folder(dir, own_vectors ? vectors::Expect::OwnVectors : vectors::Expect::BuiltWith);
  for (const auto& problem : folder.problems) std::cout << problem << "\n";
  if (!folder.readable) return kIo;
  if (folder.problems.empty()) {
    std::cout << "vectors in " << dir << ": " << folder.tests << " tests, no problems"
              << (own_vectors ? " (checked as your own: by schema and values)" : "") << "\n";
    return kOk;
  }
  std::cout << folder.problems.size() << " problems\n";
  if (folder.differs) std::cout << vectors::kNotBuiltWith << "\n";
  return kRefused;
}

}  // namespace

void add_vectors(CLI::App& app, int& rc) {
  CLI::App* cmd = app.add_subcommand("vectors", "Generate or lint the test vector files (docs/vectors.md)");
  cmd->require_subcommand(1);
  add_version(*cmd);

  auto out_dir = std::make_shared<std::string>("vectors");
  CLI::App* gen = cmd->add_subcommand("generate", "Write every vector file, the same bytes on every run");
  gen->footer(
      exit_footer({{kOk, "every file is written"}, {kUsage, "usage"}, {kIo, "a file cannot be written"}},
                  "docs/vectors.md"));
  gen->add_option("--out", *out_dir, "Folder to write to (default: vectors)")->check(kNotEmpty);
  add_version(*gen);
  gen->callback([out_dir, &rc] { rc = run_generate(*out_dir); });

  CLI::App* stats =
      cmd->add_subcommand("stats", "Print each file's size and test counts, and each flag's use");
  add_version(*stats);
  stats->callback([&rc] {
    std::cout << vectors::stats_markdown(vectors::generate());
    rc = kOk;
  });

  auto dir = std::make_shared<std::string>("vectors");
  CLI::App* lint = cmd->add_subcommand(
      "lint", "Check vector files: structure, counts, tcIds, flags, and every expected value by the oracle");
  lint->footer(exit_footer({{kOk, "every file passes the lint"},
                            {kRefused,
                             "one does not, or differs from the vectors this tlbf was built with (each "
                             "problem is printed)"},
                            {kUsage, "usage"},
                            {kIo, "the folder cannot be read"}},
                           "docs/vectors.md"));
  lint->add_option("dir", *dir, "Folder holding the vector files (default: vectors)")->check(kNotEmpty);
  auto own = std::make_shared<bool>(false);
  lint->add_flag("--own-vectors", *own, kOwnVectorsHelp);
  add_version(*lint);
  lint->callback([dir, own, &rc] { rc = run_lint(*dir, *own); });
}

}  // namespace tlbf::cli
