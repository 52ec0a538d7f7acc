#include "models_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "report.h"

namespace variate::bench {
namespace {

constexpr int kLabel = 40;
constexpr int kCell = 12;

// About three significant digits: 0.071, 4.32, 153.2, 2144.
std::string figure(double value) {
  if (std::isnan(value)) return "n/a";
  const double magnitude = std::abs(value);
  return number(value, magnitude < 1 ? 3 : magnitude < 100 ? 2 : magnitude < 1000 ? 1 : 0);
}

std::string times(double value) { return std::isnan(value) ? "n/a" : figure(value) + "x"; }

std::string count(int64_t value) { return std::to_string(value); }

std::string percent(double value, int digits = 0) {
  return std::isnan(value) ? "n/a" : number(100 * value, digits) + "%";
}

void line(const std::string& label, const std::vector<std::string>& cells) {
  row(label, cells, kLabel, kCell);
}

}  // namespace

void print_summary_table(const std::vector<ModelFigures>& models,
                         const ModelBenchOptions& options) {
  const int cores = options.threads;
  std::printf(
      "Summary: gradients on one thread; NUTS %d chains x (%d warmup + %d draws) on %d cores; "
      "Variate's ESS/s through `variate sample` (its chains' CSV timing blocks)\n",
      options.chains, options.warmup, options.draws, cores);
  line("", {"tape", "torch", "torch/", "Variate", "Stan", "Variate/", "sampler/", "sampler/", "Stan",
            "Variate"});
  line("model", {"us/grad", "us/grad", "tape", "ESS/s", "ESS/s", "Stan", "Stan", "Stan (CPU)",
                 "us/leapfrog", "us/leapfrog"});
  std::vector<double> torch_ratios, ess_ratios, sampler_ratios, cpu_ratios;
  for (const ModelFigures& m : models) {
    const double ess_ratio = m.ess_per_s(cores) / m.stan_ess_per_s(cores);
    const double sampler_ratio = m.sampler_ess_per_s(cores) / m.stan_ess_per_s(cores);
    const double cpu_ratio = m.ess_per_cpu_s(cores) / m.stan_ess_per_s(cores);
    torch_ratios.push_back(m.torch_over_tape());
    ess_ratios.push_back(ess_ratio);
    sampler_ratios.push_back(sampler_ratio);
    cpu_ratios.push_back(cpu_ratio);
    line(m.name, {figure(m.tape_us), figure(m.torch_us), times(m.torch_over_tape()),
                  figure(m.ess_per_s(cores)), figure(m.stan_ess_per_s(cores)), times(ess_ratio),
                  times(sampler_ratio), times(cpu_ratio), figure(m.stan_us_per_leapfrog()),
                  figure(m.us_per_leapfrog())});
  }
  line("median", {"", "", times(median_of(torch_ratios)), "", "", times(median_of(ess_ratios)),
                  times(median_of(sampler_ratios)), times(median_of(cpu_ratios)), "", ""});
  std::printf("\n");
}

void print_cli_table(const std::vector<ModelFigures>& models) {
  std::printf(
      "Through `variate sample`: the same chains with CSV output; its chains' elapsed times "
      "summed against the sampler alone's, and the share outside NUTS (each draw's values, "
      "derived quantities, writing)\n");
  line("", {"sampler", "variate", "outside", "process", "same"});
  line("model", {"chain s", "chain s", "NUTS", "wall s", "draws"});
  std::vector<double> shares;
  double worst = kNotAvailable;
  std::string worst_model;
  for (const ModelFigures& m : models) {
    const double share = m.outside_nuts_share();
    shares.push_back(share);
    if (std::isfinite(share) && !(share <= worst)) {
      worst = share;
      worst_model = m.name;
    }
    line(m.name, {figure(m.chain_s), figure(m.cli.chain_s), percent(share, 1), figure(m.cli.wall_s),
                  m.cli_same_draws() ? "yes" : "no"});
  }
  line("median", {"", "", percent(median_of(shares), 1), "", ""});
  if (!worst_model.empty()) {
    std::printf("  largest share outside NUTS: %s, %s\n", percent(worst, 1).c_str(), worst_model.c_str());
  }
  std::printf("\n");
}

void print_sampling_table(const std::vector<ModelFigures>& models,
                          const ModelBenchOptions& options) {
  const int cores = options.threads;
  std::printf(
      "Sampling: min bulk-ESS over the parameters (and which one); seconds summed over "
      "chains / %d cores\n",
      cores);
  const char* format = "  %-38s %9s %-15s %9s %9s %9s %9s | %9s %-15s %9s %9s %10s\n";
  std::printf(format, "", "Variate", "", "chain s", "CPU s", "ESS per", "", "Stan", "", "Stan s",
              "", "Stan");
  std::printf(format, "model", "min ESS", "worst", "/ cores", "/ cores", "CPU s", "divergent",
              "min ESS", "worst", "/ cores", "divergent", "leapfrogs");
  for (const ModelFigures& m : models) {
    std::printf(format, m.name.c_str(), figure(m.ess.ess).c_str(), m.ess.parameter.c_str(),
                figure(m.chain_s / cores).c_str(), figure(m.cpu_s / cores).c_str(),
                figure(m.ess_per_cpu_s(cores)).c_str(), count(m.divergent).c_str(),
                figure(m.stan_ess.ess).c_str(), m.stan_ess.parameter.c_str(),
                figure(m.stan_s / cores).c_str(), count(m.stan_divergent).c_str(),
                count(m.stan_leapfrog).c_str());
  }
  std::printf("\n");
}

void print_leapfrog_table(const std::vector<ModelFigures>& models) {
  std::printf("Variate per leapfrog: the chains' CPU time, and the gradient's share of it\n");
  line("", {"", "gradient", "CPU us /", "gradient us", "NUTS us", "gradient", "tape vs"});
  line("model",
       {"leapfrogs", "evaluations", "leapfrog", "/ leapfrog", "/ leapfrog", "share", "torch"});
  for (const ModelFigures& m : models) {
    const double gradient = m.gradient_us_per_leapfrog();
    line(m.name, {count(m.leapfrog), count(m.gradients), figure(m.us_per_leapfrog()),
                  figure(gradient), figure(m.us_per_leapfrog() - gradient),
                  percent(gradient / m.us_per_leapfrog()), scientific(m.max_difference)});
  }
  std::printf("\n");
}

void print_notes(const std::vector<ModelFigures>& models) {
  bool any = false;
  for (const ModelFigures& m : models) {
    for (const std::string& note : m.notes) {
      if (!any) std::printf("notes\n");
      any = true;
      std::printf("  %s: %s\n", m.name.c_str(), note.c_str());
    }
  }
}

}  // namespace variate::bench
