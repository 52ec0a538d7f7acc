#pragma once
/// What a front end hands a service to see a run while it goes, and what the service
/// tells it: its messages, that the run started (its record, its columns, what it
/// decided), every batch of draws with its rows of output values, the ELBO, the training's
/// steps, L-BFGS's iterations, Pathfinder's paths; and the control that stops, pauses and
/// detaches it. Everything is optional; calls come from the run's threads (a chain's, the
/// service's caller's), so an observer hands over and returns.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/deep/training_observer.h"
#include "engine/mcmc/sample.h"
#include "engine/optimize/lbfgs.h"
#include "engine/pathfinder/pathfinder.h"
#include "engine/services/run_control.h"
#include "engine/services/run_facts.h"
#include "engine/store/project_records.h"
#include "engine/vi/advi_observer.h"

namespace variate::services {

struct RunStarted {
  store::Id run_id = -1;  ///< in the project, or -1 without one
  /// Stan CSV names of a draw's outputs ("theta.1"): the values of a DrawObserver's rows.
  std::vector<std::string> columns;
  std::vector<std::string> bracketed;  ///< the same as summaries name them ("theta[1]")
  int parameter_columns = 0;  ///< the leading columns that are parameters
  RunFacts facts;
  /// A sampler's variables as sampled, as the setting reparam writes them: "none", or the
  /// centerings ("theta=0.05,...").
  std::string reparam = "none";
  /// A training continued from its checkpoint after this step (-1: none), for this many
  /// epochs in all.
  int64_t resumed_step = -1;
  int epochs = 0;
};

using Rows = std::vector<std::vector<double>>;

/// A NUTS run's draws as a front end sees them: each batch with its rows of output values
/// (parameters, derived quantities, with --predict the predictive columns), computed once
/// per draw for every observer, the project and the summary. Called on the chains'
/// threads, concurrently.
class DrawObserver {
 public:
  virtual ~DrawObserver() = default;
  virtual void on_draws(const DrawBatch& batch, const Rows& rows) = 0;
  virtual void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) {}
  virtual void on_chain_finished(const ChainResult& result) {}
  /// Whether it keeps a copy of every row, warmup included (the memory check counts it).
  virtual bool keeps_rows() const { return false; }
  /// Whether it reads the output values of warmup rows: when nothing does, they are not
  /// computed (on_draws gets those rows empty).
  virtual bool reads_warmup_rows() const { return true; }
};

struct RunObservers {
  /// A note for the user ("the density runs on LibTorch: ..."): `variate` prints it after
  /// "note: ".
  std::function<void(const std::string&)> note;
  /// Progress the user reads as it comes ("running on 2 processes ...", auto-stop's rounds).
  std::function<void(const std::string&)> info;
  /// Once the run has its record, before its first draw.
  std::function<void(const RunStarted&)> started;
  DrawObserver* draws = nullptr;
  AdviObserver* elbo = nullptr;
  deep::AmortizedFitObserver* training = nullptr;
  /// Auto-stop: after each round, the draws per chain the next one makes (0: the end).
  std::function<void(int next_draws)> round;
  std::function<void(const LbfgsIterate&)> lbfgs;
  PathfinderObserver paths;
  /// A run on a worker: its connection ("connected", "reconnecting", "worker gone").
  std::function<void(const std::string&)> link;
  /// A job followed again was found held paused on its worker: the front end shows the
  /// run paused (its control's pause, released, resumes the job).
  std::function<void()> found_paused;
  /// Stop, pause, detach; none: the run goes to its end.
  const RunControl* control = nullptr;

  void tell_note(const std::string& text) const {
    if (note) note(text);
  }
  void tell(const std::string& text) const {
    if (info) info(text);
  }
  const std::atomic<bool>* stop_flag() const { return control ? control->stop_flag() : nullptr; }
  bool stop_requested() const { return control && control->stop_requested(); }
  void wait_while_paused() const {
    if (control) control->wait_while_paused();
  }
};

}  // namespace variate::services
