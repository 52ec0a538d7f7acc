#pragma once
/// `sample|fit --worker`: the command-line library's RemoteInference over a RemoteClient.
/// Submits the run (uploading its data unless the worker holds it), prints the job id and
/// how to reattach, then replays the job's events into the command's observers. Ctrl-C
/// detaches: the job goes on.

#include "engine/cli/remote_inference.h"

namespace variate::remote {

class WorkerInference : public cli::RemoteInference {
 public:
  std::string submit(const cli::RemoteOptions& options, const cli::RemoteSubmission& submission,
                     std::ostream& log) override;
  void cancel(const cli::RemoteOptions& options) noexcept override;
  std::vector<ChainResult> sample(const cli::RemoteOptions& options, std::ostream& log,
                                  const std::function<SampleObserver&(const cli::RunFacts&)>& started) override;
  AdviFit fit(const cli::RemoteOptions& options, std::ostream& log, const UnconstrainedTarget& target,
              AdviObserver* observer, cli::RunFacts& facts) override;
};

}  // namespace variate::remote
