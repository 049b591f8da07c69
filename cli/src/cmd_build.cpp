// tlbf build: a filter sized for n items at rate p, filled from lines of input.
#include <unistd.h>

#include <iostream>
#include <string>

#include "commands.hpp"
#include "files.hpp"
#include "items.hpp"
#include "tlbf/oracle.hpp"

namespace tlbf::cli {
namespace {

struct BuildOptions {
  std::uint64_t n = 0;
  double p = 0;
  std::string output;
  std::string input = "-";
  bool hex = false;
  bool stats = false;
};

int run_build(const BuildOptions& opt) {
  auto made = Bloom::with_rate(opt.n, opt.p);
  if (!made) {
    std::cerr << "tlbf build: " << made.error().describe() << "\n";
    return kRefused;
  }
  Bloom& filter = made.value();
  auto opened = Input::open(opt.input);
  if (!opened) return fail_with(kIo, kFileSpeaker, opened.failure());
  Input& input = opened.value();
  Throughput throughput("tlbf build", ::isatty(2) == 1);
  const auto read_all =
      for_each_batch(input.stream(), opt.hex, opt.input, [&](std::span<const ByteView> items) {
        filter.insert_many(items);
        throughput.add(items.size());
      });
  throughput.finish(opt.stats && read_all.ok());
  if (!read_all) {  // nothing is written from a partial input
    return fail_with(read_failed(input.stream()) ? kIo : kRefused, kFileSpeaker, read_all.failure());
  }
  if (filter.n_inserted() > opt.n) {
    std::cerr << "tlbf build: warning: " << filter.n_inserted()
              << " items in a filter designed for n = " << opt.n
              << "; its false-positive rate will be above p = " << opt.p << "\n";
  }
  // to_bytes, without a second copy
  if (auto written = write_file(opt.output, filter.header(), filter.bits()); !written)
    return fail_with(kIo, kFileSpeaker, written.failure());
  return kOk;
}

}  // namespace

void add_build(CLI::App& app, int& rc) {
  auto opt = std::make_shared<BuildOptions>();
  CLI::App* cmd =
      app.add_subcommand("build", "Build a filter for N items at false-positive rate P from input lines");
  cmd->footer(exit_footer({{kOk, "the filter is written"},
                           {kRefused, "N and P are parameters TLBF v1 refuses, or a --hex line is not hex"},
                           {kUsage, "usage"},
                           {kIo, "the input cannot be read or the filter cannot be written"}},
                          "docs/cli.md"));
  cmd->add_option("--n", opt->n, "Items the filter is designed for (>= 1)")->required()->check(kUnsigned64);
  cmd->add_option("--p", opt->p, "Target false-positive rate, in (0, 1)")->required();
  cmd->add_option("-o,--output", opt->output, "File to write the filter to (- for stdout)")
      ->required()
      ->check(kNotEmpty);
  cmd->add_option("input", opt->input, "Items, one a line (default: standard input)")->check(kNotEmpty);
  cmd->add_flag("--hex", opt->hex, "Each line is the item's bytes in hex");
  cmd->add_flag("--stats", opt->stats, "Print the items and items per second to standard error at the end");
  add_version(*cmd);
  cmd->callback([opt, &rc] { rc = run_build(*opt); });
}

}  // namespace tlbf::cli
