// The package an author uploads to an autograder platform (tlbf grade
// --autograder; platform_output.hpp). Its scripts run the installed tlbf on
// one submission; every path they use is an environment variable with the
// platform's own as its default, so that a test runs them in a folder laid
// out as the platform's container.
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tlbf/shell_quote.hpp"
#include "files.hpp"
#include "platform_output.hpp"
#include "tlbf/mutants/scorer.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;

// What the kind's suites need in the container besides tlbf (whose .deb
// brings its own libraries): bubblewrap for the sandbox, and the suite's
// language.
std::string packages_for(const std::string& kind) {
  return kind == "rust" ? "bubblewrap cargo rustc" : "bubblewrap python3";
}

// The kit's built variants made in the image, so that no submission pays
// their builds (the Rust kit's: docs/mutants.md, "The Rust kind"); "" for a
// kit whose variants need none.
std::string prepare_line(const std::string& kind) {
  return kind == "rust" ? "tlbf grade --kind rust --prepare" : "";
}

std::string quoted(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += " " + shell_quote_if_needed(w);
  return out;
}

// Runs tlbf on one submission and, when it wrote no result (it could not
// start, or was killed), writes one saying so: the platform never shows a
// silent zero.
std::string entry_script(const std::string& about, const std::string& root_var, const std::string& root,
                         const std::string& submission, const std::string& result_option,
                         const std::string& args, const std::string& fallback) {
  return "#!/usr/bin/env bash\n" + about + "set -u\nroot=${" + root_var + ":-" + root +
         "}\n"
         "tlbf=${TLBF:-tlbf}\n"
         "mkdir -p \"$root/results\"\n"
         "rm -f \"$root/results/results.json\"\n"
         "\"$tlbf\" grade --submission \"$root/" +
         submission + "\" " + result_option + " \"$root/results/results.json\" -o \"$root/tlbf-grade\"" +
         args +
         "\nstatus=$?\n"
         "if [ ! -s \"$root/results/results.json\" ]; then\n"
         "  cat > \"$root/results/results.json\" <<'JSON'\n" +
         fallback +
         "\nJSON\n"
         "fi\n"
         "exit $status\n";
}

constexpr const char* kFailedMessage =
    "The grader failed before it could grade this submission (tlbf grade wrote no result; its output is in "
    "the grader's log). Submit again, and tell your instructor if it happens again.";

std::string setup_script(const std::string& kind) {
  return "#!/usr/bin/env bash\n"
         "# Gradescope runs this once, as root, when it builds the autograder's image: it\n"
         "# installs tlbf from the .deb beside it (cmake --build BUILD --target package),\n"
         "# and what the suites run with.\n"
         "set -euo pipefail\n"
         "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
         "debs=(\"$here\"/tlbf_*.deb)\n"
         "if [ ! -f \"${debs[0]}\" ]; then\n"
         "  echo \"setup.sh: no tlbf_*.deb in $here: build it (cmake --build BUILD --target package) and put "
         "it "
         "beside setup.sh\" >&2\n"
         "  exit 1\n"
         "fi\n"
         "apt-get update\n"
         "apt-get install -y \"${debs[0]}\" " +
         packages_for(kind) + "\n" + (prepare_line(kind).empty() ? "" : prepare_line(kind) + "\n");
}

struct PackageFile {
  std::string name;
  std::string text;
  bool executable = false;
};

std::vector<PackageFile> gradescope_files(const std::string& kind, const std::string& args) {
  const std::string fallback = std::string("{\"score\": 0, \"max_score\": 0, \"output\": \"") +
                               kFailedMessage + "\", \"visibility\": \"visible\", \"tests\": []}";
  return {{"setup.sh", setup_script(kind), true},
          {"run_autograder",
           entry_script("# Gradescope runs this for each submission: it grades /autograder/submission and\n"
                        "# writes /autograder/results/results.json (AUTOGRADER_ROOT: another root than\n"
                        "# /autograder; TLBF: another tlbf than the one on PATH).\n",
                        "AUTOGRADER_ROOT", "/autograder", "submission", "--gradescope", args, fallback),
           true}};
}

std::vector<PackageFile> prairielearn_files(const std::string& kind, const std::string& args) {
  const std::string fallback = std::string("{\"gradable\": false, \"score\": 0, \"message\": \"") +
                               kFailedMessage + "\", \"tests\": []}";
  return {{"Dockerfile",
           "# The external grader's image: tlbf from the .deb beside this file\n"
           "# (cmake --build BUILD --target package), and what the suites run with.\n"
           "FROM debian:12\n"
           "COPY tlbf_*.deb /tmp/\n"
           "RUN apt-get update && apt-get install -y /tmp/tlbf_*.deb " +
               packages_for(kind) + " && rm -rf /var/lib/apt/lists/* /tmp/tlbf_*.deb\n" +
               (prepare_line(kind).empty() ? "" : "RUN " + prepare_line(kind) + "\n")},
          {"tests/run.sh",
           entry_script("# PrairieLearn's external grader runs this (the question's tests/ folder is\n"
                        "# /grade/tests): it grades the uploaded file in /grade/student and writes\n"
                        "# /grade/results/results.json (GRADE_ROOT: another root than /grade; TLBF:\n"
                        "# another tlbf than the one on PATH).\n",
                        "GRADE_ROOT", "/grade", "student", "--prairielearn", args, fallback),
           true},
          {"info.json",
           "{\n  \"externalGradingOptions\": {\n    \"enabled\": true,\n    \"image\": "
           "\"YOUR-REGISTRY/tlbf-grader\",\n"
           "    \"entrypoint\": \"/grade/tests/run.sh\",\n    \"timeout\": 600\n  }\n}\n"}};
}

}  // namespace

Outcome<Done> write_autograder_package(const PlatformOptions& opt, const std::string& out,
                                       const std::string& kind,
                                       const std::vector<std::string>& grading_args) {
  const std::string args = quoted(grading_args);
  const auto files =
      opt.autograder == "gradescope" ? gradescope_files(kind, args) : prairielearn_files(kind, args);
  std::error_code ec;
  fs::create_directories(fs::path(out) / (opt.autograder == "gradescope" ? "." : "tests"), ec);
  if (ec) return failure("cannot make " + out + ": " + ec.message());
  for (const auto& file : files) {
    const std::string path = (fs::path(out) / file.name).string();
    if (auto written = write_file(path, file.text); !written) return written;
    if (file.executable && ::chmod(path.c_str(), 0755) != 0)
      return failure("cannot make " + path + " executable");
  }
  if (!opt.deb.empty()) {
    const fs::path deb = fs::path(out) / fs::path(opt.deb).filename();
    fs::copy_file(opt.deb, deb, fs::copy_options::overwrite_existing, ec);
    if (ec) return failure("cannot copy " + opt.deb + " into " + out + ": " + ec.message());
  }
  return done();
}

}  // namespace tlbf::cli
