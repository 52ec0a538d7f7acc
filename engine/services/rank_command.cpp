#include "engine/services/rank_command.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "engine/core/argument_error.h"
#include "engine/services/setting_table.h"

namespace variate::services {

RankFiles::~RankFiles() {
  std::error_code ignored;
  if (folder_) std::filesystem::remove_all(*folder_, ignored);
}

std::string RankFiles::write(const std::string& name, const std::string& text) {
  if (!folder_) {
    std::string pattern = (std::filesystem::temp_directory_path() / "variate-ranks-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw ArgumentError("no temporary folder for the other processes' files");
    folder_ = pattern;
  }
  const std::string path = (std::filesystem::path(*folder_) / name).string();
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) throw ArgumentError("cannot write '" + path + "' for the other processes");
  return path;
}

RankPlan rank_plan(const RunSpec& spec, RankFiles& files, const std::string& command,
                   const std::vector<std::string>& arguments) {
  const Settings& settings = spec.settings;
  RankPlan plan;
  plan.nproc = settings.get(setting::nproc);
  plan.rendezvous = spec.rendezvous;
  plan.world_size = spec.world_size;
  plan.rank = spec.rank;
  plan.timeout_seconds = settings.get(setting::dist_timeout);
  plan.split_rows = settings.get(setting::shard) == "rows";
  plan.row_blocks = settings.get(setting::row_blocks);
  if (plan.nproc.value_or(1) <= 1 || spec.rendezvous) return plan;
  const std::optional<std::string> text = spec.model->text();
  if (!text) throw ArgumentError("a model written in C++ runs on one process (its program has no model text to give others)");
  const std::string model = spec.model->file() ? *spec.model->file() : files.write("model.vmod", *text);
  plan.rank_program = spec.rank_program;  // empty: this program
  plan.rank_command = {spec.rank_program.empty() ? "variate" : spec.rank_program,
                       command.empty() ? method_command(spec.method) : command, model};
  if (spec.data.given()) {
    plan.rank_command.push_back("--data");
    plan.rank_command.push_back(spec.data.path ? *spec.data.path : files.write("data.json", spec.data.json_text()));
  }
  plan.rank_command.insert(plan.rank_command.end(), arguments.begin(), arguments.end());
  for (const std::string& argument : settings.arguments(spec.method, kSharedByRanks)) {
    plan.rank_command.push_back(argument);
  }
  plan.rank_command.push_back("--quiet");
  return plan;
}

}  // namespace variate::services
