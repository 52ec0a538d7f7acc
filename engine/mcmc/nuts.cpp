#include "engine/mcmc/nuts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/checks.h"
#include "engine/mcmc/sampler_columns.h"

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

// x . (a + b), the sum formed element by element.
double dot_sum(const std::vector<double>& x, const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) s += x[i] * (a[i] + b[i]);
  return s;
}

PhasePoint sized_point(size_t d) {
  PhasePoint point;
  point.q.resize(d);
  point.p.resize(d);
  point.gradient.resize(d);
  return point;
}

}  // namespace

// Shared by the whole trajectory of one transition.
struct Nuts::Trajectory {
  double initial_energy;
  int leapfrog_steps = 0;
  double sum_metropolis = 0;
  bool divergent = false;
};

Nuts::Subtree::Subtree(size_t dimension)
    : p_begin(dimension), p_end(dimension), p_sharp_begin(dimension), p_sharp_end(dimension),
      rho(dimension, 0.0), log_sum_weight(-kInfinity) {}

Nuts::Nuts(const Hamiltonian& hamiltonian, int max_tree_depth, double max_energy_error)
    : hamiltonian_(hamiltonian), max_tree_depth_(max_tree_depth),
      max_energy_error_(max_energy_error) {
  if (max_tree_depth < 1 || max_tree_depth > 30) {
    throw ArgumentError("NUTS: argument 'max_tree_depth' must be between 1 and 30, got " +
                        std::to_string(max_tree_depth));
  }
}

Nuts::Level::Level(size_t dimension)
    : first(dimension), second(dimension), proposal_second(sized_point(dimension)) {}

bool Nuts::criterion(const std::vector<double>& p_sharp_minus, const std::vector<double>& p_sharp_plus,
                     const std::vector<double>& a, const std::vector<double>& b) const {
  return dot_sum(p_sharp_plus, a, b) > 0 && dot_sum(p_sharp_minus, a, b) > 0;
}

NutsResult Nuts::one_step(PhasePoint& point, double step_size, RandomStream& random) const {
  const EuclideanMetric& metric = hamiltonian_.metric();
  const size_t d = point.q.size();
  if (levels_.empty() || levels_.front().first.rho.size() != d) {
    levels_.assign(static_cast<size_t>(max_tree_depth_), Level(d));
    parts_.assign(2, Subtree(d));
    rho_.resize(d);
  }
  metric.sample_momentum(point.p, random);
  // The end being extended, the two ends, the sample and a subtree's proposal.
  PhasePoint& z = z_;
  PhasePoint &forward = forward_, &backward = backward_, &sample = sample_, &proposal = proposal_;
  z = point;
  forward = point;
  backward = point;
  sample = point;
  proposal = point;

  // The trajectory as two parts, each reduced to what the criteria need: the one grown
  // forwards in time (from the start outwards) and the one grown backwards. Before the
  // first doubling both are the initial point.
  std::vector<double>& p_sharp = p_sharp_;
  metric.velocity(point.p, p_sharp);
  Subtree& forward_part = parts_[0];
  Subtree& backward_part = parts_[1];
  for (Subtree* part : {&forward_part, &backward_part}) {
    part->p_begin = part->p_end = point.p;
    part->p_sharp_begin = part->p_sharp_end = p_sharp;
  }
  std::vector<double>& rho = rho_;
  rho = point.p;

  Trajectory t;
  t.initial_energy = hamiltonian_.energy(point);
  double log_sum_weight = 0;  // log of the initial point's weight exp(-H0 + H0)
  int depth = 0;
  while (depth < max_tree_depth_) {
    const bool go_forward = random.uniform() > 0.5;
    Subtree& grown = go_forward ? forward_part : backward_part;
    Subtree& other = go_forward ? backward_part : forward_part;
    // The other part stands for the whole old trajectory, joined to the new subtree where
    // the grown part began (Stan's base_nuts).
    other.rho = rho;
    other.p_begin = grown.p_begin;
    other.p_sharp_begin = grown.p_sharp_begin;
    std::fill(grown.rho.begin(), grown.rho.end(), 0.0);
    grown.log_sum_weight = -kInfinity;
    z = go_forward ? forward : backward;
    const bool valid = build_tree(depth, z, proposal, grown, t, go_forward ? step_size : -step_size, random);
    (go_forward ? forward : backward) = z;
    if (!valid) break;
    ++depth;
    // Biased progressive sampling: prefer the new subtree.
    if (grown.log_sum_weight > log_sum_weight) {
      sample = proposal;
    } else if (random.uniform() < std::exp(grown.log_sum_weight - log_sum_weight)) {
      sample = proposal;
    }
    log_sum_weight = log_sum_exp(log_sum_weight, grown.log_sum_weight);
    for (size_t i = 0; i < d; ++i) rho[i] = backward_part.rho[i] + forward_part.rho[i];
    // No U-turn across the whole trajectory, and across each merged pair of subtrees.
    bool persist = criterion(backward_part.p_sharp_end, forward_part.p_sharp_end,
                             backward_part.rho, forward_part.rho);
    persist = persist && criterion(backward_part.p_sharp_end, forward_part.p_sharp_begin,
                                   backward_part.rho, forward_part.p_begin);
    persist = persist && criterion(backward_part.p_sharp_begin, forward_part.p_sharp_end,
                                   forward_part.rho, backward_part.p_begin);
    if (!persist) break;
  }

  NutsResult result;
  result.step_size = step_size;
  result.tree_depth = depth;
  result.leapfrog_steps = t.leapfrog_steps;
  result.has_divergence = t.divergent;
  result.reached_max_depth = variate::reached_max_depth(depth, max_tree_depth_);
  result.accept_stat = t.leapfrog_steps > 0 ? t.sum_metropolis / t.leapfrog_steps : 0;
  point = sample;
  result.log_density = point.log_density;
  result.energy = hamiltonian_.energy(point);
  return result;
}

bool Nuts::build_tree(int depth, PhasePoint& z, PhasePoint& proposal, Subtree& tree, Trajectory& t,
                      double step, RandomStream& random) const {
  const EuclideanMetric& metric = hamiltonian_.metric();
  if (depth == 0) {
    hamiltonian_.leapfrog(z, step);
    ++t.leapfrog_steps;
    double h = hamiltonian_.energy(z);
    if (std::isnan(h)) h = kInfinity;
    if (h - t.initial_energy > max_energy_error_) t.divergent = true;
    tree.log_sum_weight = log_sum_exp(tree.log_sum_weight, t.initial_energy - h);
    t.sum_metropolis += t.initial_energy - h > 0 ? 1.0 : std::exp(t.initial_energy - h);
    proposal = z;
    metric.velocity(z.p, tree.p_sharp_begin);
    tree.p_sharp_end = tree.p_sharp_begin;
    add(tree.rho, z.p);
    tree.p_begin = z.p;
    tree.p_end = tree.p_begin;
    return !t.divergent;
  }
  // The first half, then the second, continuing from where the first ended.
  Level& level = levels_[static_cast<size_t>(depth)];
  Subtree& first = level.first;
  Subtree& second = level.second;
  for (Subtree* half : {&first, &second}) {
    std::fill(half->rho.begin(), half->rho.end(), 0.0);
    half->log_sum_weight = -kInfinity;
  }
  if (!build_tree(depth - 1, z, proposal, first, t, step, random)) return false;
  PhasePoint& proposal_second = level.proposal_second;
  proposal_second = z;
  if (!build_tree(depth - 1, z, proposal_second, second, t, step, random)) return false;
  // Uniform progressive sampling between the halves.
  const double log_sum_weight_subtree = log_sum_exp(first.log_sum_weight, second.log_sum_weight);
  tree.log_sum_weight = log_sum_exp(tree.log_sum_weight, log_sum_weight_subtree);
  if (second.log_sum_weight > log_sum_weight_subtree) {
    proposal = proposal_second;
  } else if (random.uniform() < std::exp(second.log_sum_weight - log_sum_weight_subtree)) {
    proposal = proposal_second;
  }
  for (size_t i = 0; i < tree.rho.size(); ++i) tree.rho[i] += first.rho[i] + second.rho[i];
  bool persist = criterion(first.p_sharp_begin, second.p_sharp_end, first.rho, second.rho);
  persist = persist && criterion(first.p_sharp_begin, second.p_sharp_begin, first.rho, second.p_begin);
  persist = persist && criterion(first.p_sharp_end, second.p_sharp_end, second.rho, first.p_end);
  tree.p_begin = first.p_begin;
  tree.p_sharp_begin = first.p_sharp_begin;
  tree.p_end = second.p_end;
  tree.p_sharp_end = second.p_sharp_end;
  return persist;
}

}  // namespace variate
