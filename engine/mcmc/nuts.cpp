#include "variate/mcmc/nuts.h"

#include <cmath>
#include <limits>

#include "variate/core/checks.h"

namespace variate {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double log_sum_exp(double a, double b) {
  if (a == -kInfinity) return b;
  if (b == -kInfinity) return a;
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

void add(std::vector<double>& into, const std::vector<double>& x) {
  for (size_t i = 0; i < into.size(); ++i) into[i] += x[i];
}

std::vector<double> sum(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> s(a);
  add(s, b);
  return s;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

// Shared by the whole trajectory of one transition.
struct Nuts::Trajectory {
  double initial_energy;
  int leapfrog_steps = 0;
  double sum_metropolis = 0;
  bool divergent = false;
};

Nuts::Nuts(const Hamiltonian& hamiltonian, int max_tree_depth, double max_energy_error)
    : hamiltonian_(hamiltonian), max_tree_depth_(max_tree_depth),
      max_energy_error_(max_energy_error) {
  if (max_tree_depth < 1 || max_tree_depth > 30) {
    throw ArgumentError("NUTS: argument 'max_tree_depth' must be between 1 and 30, got " +
                        std::to_string(max_tree_depth));
  }
}

bool Nuts::criterion(const std::vector<double>& p_sharp_minus,
                     const std::vector<double>& p_sharp_plus, const std::vector<double>& rho) const {
  return dot(p_sharp_plus, rho) > 0 && dot(p_sharp_minus, rho) > 0;
}

NutsResult Nuts::bootstrap_results(const PhasePoint& point, double step_size) const {
  NutsResult result;
  result.step_size = step_size;
  result.log_density = point.log_density;
  result.energy = hamiltonian_.energy(point);
  return result;
}

NutsResult Nuts::one_step(PhasePoint& point, double step_size, RandomStream& random) const {
  const EuclideanMetric& metric = hamiltonian_.metric();
  metric.sample_momentum(point.p, random);
  PhasePoint z = point;  // the end being extended
  PhasePoint forward = point, backward = point, sample = point, proposal = point;

  std::vector<double> p_sharp;
  metric.velocity(point.p, p_sharp);
  std::vector<double> p_fwd_fwd = point.p, p_sharp_fwd_fwd = p_sharp;
  std::vector<double> p_fwd_bck = point.p, p_sharp_fwd_bck = p_sharp;
  std::vector<double> p_bck_fwd = point.p, p_sharp_bck_fwd = p_sharp;
  std::vector<double> p_bck_bck = point.p, p_sharp_bck_bck = p_sharp;
  std::vector<double> rho = point.p;
  const size_t d = point.q.size();

  Trajectory t;
  t.initial_energy = hamiltonian_.energy(point);
  double log_sum_weight = 0;  // log of the initial point's weight exp(-H0 + H0)
  int depth = 0;
  while (depth < max_tree_depth_) {
    std::vector<double> rho_fwd(d, 0.0), rho_bck(d, 0.0);
    double log_sum_weight_subtree = -kInfinity;
    bool valid;
    if (random.uniform() > 0.5) {
      z = forward;
      rho_bck = rho;
      p_bck_fwd = p_fwd_bck;
      p_sharp_bck_fwd = p_sharp_fwd_bck;
      valid = build_tree(depth, z, proposal, t, p_sharp_fwd_bck, p_sharp_fwd_fwd, rho_fwd,
                         p_fwd_bck, p_fwd_fwd, log_sum_weight_subtree, step_size, random);
      forward = z;
    } else {
      z = backward;
      rho_fwd = rho;
      p_fwd_bck = p_bck_fwd;
      p_sharp_fwd_bck = p_sharp_bck_fwd;
      valid = build_tree(depth, z, proposal, t, p_sharp_bck_fwd, p_sharp_bck_bck, rho_bck,
                         p_bck_fwd, p_bck_bck, log_sum_weight_subtree, -step_size, random);
      backward = z;
    }
    if (!valid) break;
    ++depth;
    // Biased progressive sampling: prefer the new subtree.
    if (log_sum_weight_subtree > log_sum_weight) {
      sample = proposal;
    } else if (random.uniform() < std::exp(log_sum_weight_subtree - log_sum_weight)) {
      sample = proposal;
    }
    log_sum_weight = log_sum_exp(log_sum_weight, log_sum_weight_subtree);
    rho = sum(rho_bck, rho_fwd);
    // No U-turn across the whole trajectory, and across each merged pair of subtrees.
    bool persist = criterion(p_sharp_bck_bck, p_sharp_fwd_fwd, rho);
    persist = persist && criterion(p_sharp_bck_bck, p_sharp_fwd_bck, sum(rho_bck, p_fwd_bck));
    persist = persist && criterion(p_sharp_bck_fwd, p_sharp_fwd_fwd, sum(rho_fwd, p_bck_fwd));
    if (!persist) break;
  }

  NutsResult result;
  result.step_size = step_size;
  result.tree_depth = depth;
  result.leapfrog_steps = t.leapfrog_steps;
  result.has_divergence = t.divergent;
  result.reached_max_depth = depth >= max_tree_depth_;
  result.accept_stat = t.leapfrog_steps > 0 ? t.sum_metropolis / t.leapfrog_steps : 0;
  point = sample;
  result.log_density = point.log_density;
  result.energy = hamiltonian_.energy(point);
  return result;
}

bool Nuts::build_tree(int depth, PhasePoint& z, PhasePoint& proposal, Trajectory& t,
                      std::vector<double>& p_sharp_begin, std::vector<double>& p_sharp_end,
                      std::vector<double>& rho, std::vector<double>& p_begin,
                      std::vector<double>& p_end, double& log_sum_weight, double step,
                      RandomStream& random) const {
  const EuclideanMetric& metric = hamiltonian_.metric();
  if (depth == 0) {
    hamiltonian_.leapfrog(z, step);
    ++t.leapfrog_steps;
    double h = hamiltonian_.energy(z);
    if (std::isnan(h)) h = kInfinity;
    if (h - t.initial_energy > max_energy_error_) t.divergent = true;
    log_sum_weight = log_sum_exp(log_sum_weight, t.initial_energy - h);
    t.sum_metropolis += t.initial_energy - h > 0 ? 1.0 : std::exp(t.initial_energy - h);
    proposal = z;
    metric.velocity(z.p, p_sharp_begin);
    p_sharp_end = p_sharp_begin;
    add(rho, z.p);
    p_begin = z.p;
    p_end = p_begin;
    return !t.divergent;
  }
  const size_t d = z.q.size();
  // The first half.
  double log_sum_weight_init = -kInfinity;
  std::vector<double> p_init_end(d), p_sharp_init_end(d), rho_init(d, 0.0);
  if (!build_tree(depth - 1, z, proposal, t, p_sharp_begin, p_sharp_init_end, rho_init, p_begin,
                  p_init_end, log_sum_weight_init, step, random)) {
    return false;
  }
  // The second half, continuing from where the first ended.
  PhasePoint proposal_final = z;
  double log_sum_weight_final = -kInfinity;
  std::vector<double> p_final_begin(d), p_sharp_final_begin(d), rho_final(d, 0.0);
  if (!build_tree(depth - 1, z, proposal_final, t, p_sharp_final_begin, p_sharp_end, rho_final,
                  p_final_begin, p_end, log_sum_weight_final, step, random)) {
    return false;
  }
  // Uniform progressive sampling between the halves.
  const double log_sum_weight_subtree = log_sum_exp(log_sum_weight_init, log_sum_weight_final);
  log_sum_weight = log_sum_exp(log_sum_weight, log_sum_weight_subtree);
  if (log_sum_weight_final > log_sum_weight_subtree) {
    proposal = proposal_final;
  } else if (random.uniform() < std::exp(log_sum_weight_final - log_sum_weight_subtree)) {
    proposal = proposal_final;
  }
  const std::vector<double> rho_subtree = sum(rho_init, rho_final);
  add(rho, rho_subtree);
  bool persist = criterion(p_sharp_begin, p_sharp_end, rho_subtree);
  persist = persist && criterion(p_sharp_begin, p_sharp_final_begin, sum(rho_init, p_final_begin));
  persist = persist && criterion(p_sharp_init_end, p_sharp_end, sum(rho_final, p_init_end));
  return persist;
}

}  // namespace variate
