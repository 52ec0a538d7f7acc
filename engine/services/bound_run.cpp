#include "engine/services/bound_run.h"

#include <random>

#include "engine/core/argument_error.h"
#include "engine/services/init_files.h"
#include "engine/services/setting_table.h"

namespace variate::services {

CompileChoice compile_choice(const Settings& settings) {
  return {settings.get(setting::backend), settings.get(setting::dtype), settings.get(setting::device)};
}

void bind_run(const RunSpec& spec, RankFiles& files, const RunObservers& observers, BoundRun& bound) {
  bound.ranks = DistributedRun::start(rank_plan(spec, files), [&](const std::string& line) { observers.tell(line); });
  bound.root = !bound.ranks || bound.ranks->root();
  bind_model(spec, bound);
  const std::optional<uint64_t> seed = spec.settings.get(setting::seed);
  bound.seed = bound.ranks ? bound.ranks->agree_on_seed(seed) : seed.value_or(std::random_device{}());
}

void bind_model(const RunSpec& spec, BoundRun& bound) {
  CompileChoice choice = compile_choice(spec.settings);
  // The sampler's alone; an init file gives the values of the model's own parameters.
  if (spec.method == Method::nuts && !names_init_files(spec.settings.get(setting::init))) {
    choice.reparam = spec.settings.get(setting::reparam);
    // More draws of a run recorded before reparameterizing existed: its positions are the
    // model's own. (A run that reparameterized records what it sampled, never auto.)
    if (!spec.resume.empty() && choice.reparam == "auto") choice.reparam = "none";
  }
  DistributedRun* ranks = bound.ranks.get();
  bound.model = ranks && ranks->split_rows()
                    ? spec.model->bind_sharded(spec.data, choice,
                                               {ranks->communicator(), ranks->row_blocks(), ranks->local_rank()})
                    : spec.model->bind(spec.data, choice);
}

void require_parameters(const BoundModel& model, const std::string& method) {
  if (model.target.layout().dimension() > 0) return;
  throw ArgumentError("the model has no parameters, so " + method +
                      " has nothing to fit; `variate sample` draws its derived quantities and predictions at each "
                      "iteration (as Stan's fixed_param)");
}

namespace {

std::string with_thousands(int64_t count) {
  std::string digits = std::to_string(count);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
  return digits;
}

}  // namespace

std::string rejection_warning(const BoundModel& model, const UnconstrainedTarget& target) {
  const ArgumentRejections rejections = target.argument_rejections();
  if (rejections.count == 0) return "";
  std::string first = model.explain_rejection(rejections.first);
  if (first.empty()) first = "an argument computed from the parameters was outside its domain";
  return "Rejected " + with_thousands(rejections.count) + (rejections.count == 1 ? " point" : " points") +
         " where the density could not be evaluated: an argument of a distribution outside its domain, or an ODE "
         "solver at its step limit (their density is taken as 0, as Stan rejects such proposals); the first: " +
         first;
}

BoundModel bind_for_worker(const RunSpec& spec) {
  BoundRun here;
  RunSpec on_cpu = spec;
  on_cpu.settings.set(setting::device, std::string("cpu"));
  bind_model(on_cpu, here);
  return std::move(*here.model);
}

}  // namespace variate::services
