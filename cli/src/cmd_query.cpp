// tlbf query: "present" or "absent" for each input line, by a filter file.
#include <iostream>
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
};

int run_query(const QueryOptions& opt) {
  const auto bytes = read_file(opt.filter);
  if (!bytes) return kIo;
  const auto loaded = Bloom::from_bytes(*bytes);
  if (!loaded) {
    std::cerr << "tlbf query: " << opt.filter << " is refused: " << loaded.error().describe() << "\n";
    return kRefused;
  }
  Input input(opt.input);
  if (!input.ok()) return kIo;
  const Bloom& filter = loaded.value();
  const bool read_all = for_each_item(input.stream(), opt.hex, opt.input, [&](std::span<const std::uint8_t> item) {
    std::cout << (filter.contains(item) ? "present\n" : "absent\n");
  });
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "tlbf query: cannot write answers to standard output\n";
    return kIo;
  }
  return read_all ? kOk : kRefused;
}

}  // namespace

void add_query(CLI::App& app, int& rc) {
  auto opt = std::make_shared<QueryOptions>();
  CLI::App* cmd = app.add_subcommand(
      "query", "Answer present or absent for each input line, one answer a line");
  cmd->add_option("filter", opt->filter, "A TLBF v1 filter file")->required();
  cmd->add_option("input", opt->input, "Items, one a line (default: standard input)");
  cmd->add_flag("--hex", opt->hex, "Each line is the item's bytes in hex");
  add_version(*cmd);
  cmd->callback([opt, &rc] { rc = run_query(*opt); });
}

}  // namespace tlbf::cli
