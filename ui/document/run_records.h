#pragma once
/// Runs as the project file records them, turned into the studio's run objects.

#include <memory>

#include "engine/store/project_records.h"

#include "ui/document/run_data.h"
#include "ui/document/run_list.h"

namespace variate::store { class Project; }

namespace variate::ui {

/// A run's record without its draws (drawsLoaded is false).
RunData runFromRecord(const store::RunInfo& info);

/// Draws and chain states of a run read back from the project.
struct LoadedDraws {
  std::vector<ChainDraws> chains;
  std::vector<ChainState> states;
};

/// Reads every chain of `run` (warmup rows included).
/// @throws store::ProjectError when the file cannot be read.
LoadedDraws readDraws(const store::Project& project, const store::RunInfo& run);

/// What an approximation's run stored about its draws (k-hat, ADVI's start, the mode);
/// for a run that stored no k-hat, k-hat computed from its draws' log_p__ and log_g__.
/// Empty for other methods.
/// @throws store::ProjectError when the file cannot be read.
ApproximationCheck readApproximation(const store::Project& project, const store::RunInfo& info);


/// Brings `runs` up to the file's runs, as another process changes them (`variate sample
/// --project` adds a run, ends it, deletes one): adds the runs it does not hold (not made
/// current), drops those the file no longer has, and refreshes the record of every run
/// this process does not follow live (active with its draws here).
/// @throws store::ProjectError when the file cannot be read.
void syncRunsWithFile(const store::Project& project, RunList& runs);

/// ELBO trace of a variational run.
ElboTrace readElbo(const store::Project& project, store::Id run);

/// Stan CSV column name to the bracketed form the studio shows ("theta.1" -> "theta[1]").
QString bracketedName(const std::string& stanName);

/// How many leading columns of a run's rows are the method's own (the sampler columns
/// of NUTS, the variational columns of ADVI).
int methodColumnCount(const store::RunInfo& info);

}  // namespace variate::ui
