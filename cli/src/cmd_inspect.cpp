// tlbf inspect: what a filter file holds, or exactly why it is refused.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "files.hpp"
#include "tlbf/oracle.hpp"

namespace tlbf::cli {
namespace {

struct InspectOptions {
  std::string file;
  bool json = false;
};

struct Summary {
  std::uint64_t ones;
  double fill;            // ones / m
  double measured_rate;   // fill^k: the exact chance a fresh item is a false positive
  double predicted_rate;  // predicted_fp_rate(m, k, n_inserted)
};

Summary summarize(const Bloom& filter) {
  const std::uint64_t ones = filter.count_ones();
  const double fill = static_cast<double>(ones) / static_cast<double>(filter.m());
  return {ones, fill, std::pow(fill, filter.k()),
          predicted_fp_rate(filter.m(), filter.k(), filter.n_inserted())};
}

void print_text(const std::string& file, std::uint64_t size, const Bloom& filter, const Summary& s) {
  std::cout << std::setprecision(6);
  std::cout << "file            " << file << " (" << size << " bytes)\n"
            << "format          TLBF v" << VERSION << "\n"
            << "m               " << filter.m() << " bits (" << filter.bits().size() << " bytes)\n"
            << "k               " << filter.k() << "\n"
            << "n_inserted      " << filter.n_inserted() << "\n"
            << "bits set        " << s.ones << " (fill " << s.fill << ")\n"
            << "fp rate now     " << s.measured_rate << " (fill^k: measured)\n"
            << "fp rate model   " << s.predicted_rate << " (predicted for n_inserted)\n";
}

void print_json(const std::string& file, std::uint64_t size, const Bloom* filter, const Summary* s,
                const Error* error) {
  nlohmann::ordered_json out = {{"file", file}, {"size", size}, {"valid", filter != nullptr}};
  if (filter) {
    out["version"] = VERSION;
    out["m"] = filter->m();
    out["k"] = filter->k();
    out["n_inserted"] = filter->n_inserted();
    out["bit_bytes"] = filter->bits().size();
    out["ones"] = s->ones;
    out["fill"] = s->fill;
    out["fp_rate_measured"] = s->measured_rate;
    out["fp_rate_predicted"] = s->predicted_rate;
  } else {
    out["error"] = {{"kind", std::string(to_string(error->kind))}, {"message", error->message}};
  }
  // A file name need not be UTF-8, and JSON must be: its other bytes are U+FFFD.
  std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

int run_inspect(const InspectOptions& opt) {
  auto file = read_filter_file(opt.file);
  if (!file) return fail_with(kIo, kFileSpeaker, file.failure());
  const std::uint64_t size = file->size;
  const auto loaded =
      file->refused ? Result<Bloom>(*file->refused) : Bloom::from_bytes(std::move(file->bytes));
  if (!loaded) {
    if (opt.json) print_json(opt.file, size, nullptr, nullptr, &loaded.error());
    std::cerr << "tlbf inspect: " << opt.file << " is refused: " << loaded.error().describe() << "\n";
    return kRefused;
  }
  const Summary s = summarize(loaded.value());
  if (opt.json) {
    print_json(opt.file, size, &loaded.value(), &s, nullptr);
  } else {
    print_text(opt.file, size, loaded.value(), s);
  }
  return kOk;
}

}  // namespace

void add_inspect(CLI::App& app, int& rc) {
  auto opt = std::make_shared<InspectOptions>();
  CLI::App* cmd = app.add_subcommand(
      "inspect", "Show a filter file's header, fill and false-positive rate, or why it is refused");
  cmd->footer(exit_footer({{kOk, "the file is a TLBF v1 filter"},
                           {kRefused, "it is not (the reason is printed)"},
                           {kUsage, "usage"},
                           {kIo, "the file cannot be read"}},
                          "docs/cli.md"));
  cmd->add_option("file", opt->file, "A TLBF v1 filter file")->required()->check(kNotEmpty);
  cmd->add_flag("--json", opt->json, "Print one JSON object instead of text");
  add_version(*cmd);
  cmd->callback([opt, &rc] { rc = run_inspect(*opt); });
}

}  // namespace tlbf::cli
