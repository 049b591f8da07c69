// tlbf query: "present" or "absent" for each input line, by a filter file.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "files.hpp"
#include "items.hpp"
#include "tlbf/oracle.hpp"

namespace tlbf::cli {
namespace {

struct QueryOptions {
  std::string filter;
  std::string input = "-";
  bool hex = false;
  bool stats = false;
};

constexpr std::string_view kPresent = "present\n", kAbsent = "absent\n";

int run_query(const QueryOptions& opt) {
  auto file = read_filter_file(opt.filter);
  if (!file) return fail_with(kIo, kFileSpeaker, file.failure());
  const auto loaded =
      file->refused ? Result<Bloom>(*file->refused) : Bloom::from_bytes(std::move(file->bytes));
  if (!loaded) {
    std::cerr << "tlbf query: " << opt.filter << " is refused: " << loaded.error().describe() << "\n";
    return kRefused;
  }
  auto opened = Input::open(opt.input);
  if (!opened) return fail_with(kIo, kFileSpeaker, opened.failure());
  Input& input = opened.value();
  const Bloom& filter = loaded.value();
  Throughput throughput("tlbf query", ::isatty(2) == 1);
  const auto answers = std::make_unique<bool[]>(kBatchItems);
  std::string out;
  const auto read_all =
      for_each_batch(input.stream(), opt.hex, opt.input, [&](std::span<const ByteView> items) {
        filter.contains_many(items, {answers.get(), items.size()});
        for (std::size_t i = 0; i < items.size(); ++i) out += answers[i] ? kPresent : kAbsent;
        std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
        out.clear();
        throughput.add(items.size());
      });
  std::cout.flush();
  // The lines before a bad one are answered; a read error is io, a line that is not hex refused.
  const int read_status =
      read_all ? kOk
               : fail_with(read_failed(input.stream()) ? kIo : kRefused, kFileSpeaker, read_all.failure());
  throughput.finish(opt.stats);
  if (!std::cout) {
    std::cerr << "tlbf query: cannot write answers to standard output\n";
    return kIo;
  }
  return read_status;
}

}  // namespace

void add_query(CLI::App& app, int& rc) {
  auto opt = std::make_shared<QueryOptions>();
  CLI::App* cmd =
      app.add_subcommand("query", "Answer present or absent for each input line, one answer a line");
  cmd->footer(exit_footer({{kOk, "every line is answered"},
                           {kRefused, "the filter file is not TLBF v1, or a --hex line is not hex"},
                           {kUsage, "usage"},
                           {kIo, "a file cannot be read or the answers cannot be written"}},
                          "docs/cli.md"));
  cmd->add_option("filter", opt->filter, "A TLBF v1 filter file")->required()->check(kNotEmpty);
  cmd->add_option("input", opt->input, "Items, one a line (default: standard input)")->check(kNotEmpty);
  cmd->add_flag("--hex", opt->hex, "Each line is the item's bytes in hex");
  cmd->add_flag("--stats", opt->stats, "Print the items and items per second to standard error at the end");
  add_version(*cmd);
  cmd->callback([opt, &rc] { rc = run_query(*opt); });
}

}  // namespace tlbf::cli
