#pragma once
/// The other ranks of a run on several processes of this host are `variate` processes
/// given the model and the data as files and, as options, every setting the ranks share
/// (Settings::arguments with kSharedByRanks): what they must agree on (the model, its
/// dtype, the data's shapes, the row blocks: the fingerprint; the method's settings: the
/// lockstep) is the same because it is made from the same descriptions.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/services/distributed_run.h"
#include "engine/services/run_spec.h"

namespace variate::services {

/// A folder of files for the other ranks, removed with this object.
class RankFiles {
 public:
  RankFiles() = default;
  ~RankFiles();
  RankFiles(const RankFiles&) = delete;
  RankFiles& operator=(const RankFiles&) = delete;

  /// `text` in a file of the folder (made on first use). @throws ArgumentError
  std::string write(const std::string& name, const std::string& text);

 private:
  std::optional<std::string> folder_;
};

/// Where `spec`'s processes come from: the setting nproc (and the ones the ranks share),
/// or the spec's rendezvous; for nproc ranks, their command line, with the model and data
/// written into `files` where they are not files already. The command is the method's
/// (`variate sample ...`), or `command` with its own `arguments` before the settings
/// (`variate sbc ... --replications 200`).
RankPlan rank_plan(const RunSpec& spec, RankFiles& files, const std::string& command = {},
                   const std::vector<std::string>& arguments = {});

}  // namespace variate::services
