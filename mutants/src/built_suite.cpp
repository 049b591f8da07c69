#include "built_suite.hpp"

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tlbf/shell_quote.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/hidden.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

Outcome<std::string> built_executable(const std::string& cargo_out) {
  std::set<std::string> found;
  std::istringstream in(cargo_out);
  for (std::string line; std::getline(in, line);) {
    // Lines that are not one JSON object (a build script's output) are not cargo's messages.
    const auto message = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object() || message.value("reason", "") != "compiler-artifact") continue;
    const auto executable = message.find("executable");
    if (executable != message.end() && executable->is_string()) found.insert(executable->get<std::string>());
  }
  if (found.size() == 1) return *found.begin();
  return failure("the build named " + std::to_string(found.size()) +
                 " executables in its JSON messages where one was expected (does the kit's \"build\" "
                 "build one test target, with --message-format=json-render-diagnostics?)");
}

Outcome<fs::path> run_folder_from(const fs::path& built, const std::string& executable,
                                  const std::string& place, const fs::path& under) {
  const fs::path folder = under / ("tree-" + random_name());
  std::error_code ec;
  fs::create_directory(folder, ec);
  if (ec) return failure("cannot make " + folder.string() + ": " + ec.message());
  std::string line;
  for (const auto& entry : fs::directory_iterator(built, ec)) {
    if (entry.path().filename() == "target") continue;  // the build's products: the executable alone is run
    line += "cp -a " + shell_quote(entry.path().string()) + " " + shell_quote(folder.string()) + "/ && ";
  }
  if (ec) return failure("cannot list " + built.string() + ": " + ec.message());
  const fs::path target = folder / place;
  line += "mkdir -p " + shell_quote(target.parent_path().string()) + " && cp " + shell_quote(executable) +
          " " + shell_quote(target.string()) + " && find " + shell_quote(folder.string()) +
          " -exec touch -h -d @" + std::to_string(kRunFolderEpoch) + " {} +";
  const auto made = conformance::run_with_input(line, "", std::chrono::minutes(10));
  if (!made.exited_cleanly()) {
    return failure("cannot make the runs' folder from " + built.string() + " (" + made.how_it_ended() +
                   "): " + conformance::last_lines(made.out + made.err, 3));
  }
  return folder;
}

}  // namespace tlbf::mutants
