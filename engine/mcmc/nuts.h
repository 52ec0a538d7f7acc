#pragma once
/// The No-U-Turn Sampler with multinomial sampling of the trajectory: Hoffman & Gelman
/// (2014), Alg. 6, as revised by Betancourt (2017), App. A — biased-progressive sampling
/// between the old and new halves at the top level, uniform-progressive inside subtrees,
/// the generalized no-U-turn criterion on momentum sums, with the extra checks across
/// merged subtrees — following Stan's base_nuts. What a subtree hands the tree it joins is
/// one named record, as TFP's TreeDoublingState. Every buffer a transition needs is
/// allocated when the sampler is made (one set per tree depth), so a transition allocates
/// nothing: one Nuts per chain.

#include <vector>

#include "engine/mcmc/hamiltonian.h"
#include "engine/core/random_stream.h"

namespace variate {

/// What one transition did: Stan's sampler statistics.
struct NutsResult {
  double accept_stat = 0;     // mean Metropolis acceptance over the trajectory
  double step_size = 0;
  int tree_depth = 0;
  int leapfrog_steps = 0;
  bool has_divergence = false;
  bool reached_max_depth = false;
  double energy = 0;          // H at the new point
  double log_density = 0;     // log p at the new point
};

class Nuts {
 public:
  /// @throws ArgumentError unless 1 <= max_tree_depth <= 30.
  Nuts(const Hamiltonian& hamiltonian, int max_tree_depth = 10, double max_energy_error = 1000);

  /// One transition from `point` (a position with its log density and gradient); the
  /// momentum is resampled. `point` becomes the new state.
  NutsResult one_step(PhasePoint& point, double step_size, RandomStream& random) const;

 private:
  /// A subtree as the tree it joins sees it: the momenta p and velocities p# = M^-1 p at
  /// its first and last points (in the order they were integrated), the sum rho of its
  /// points' momenta, and the log of its points' total weight exp(H0 - H).
  struct Subtree {
    explicit Subtree(size_t dimension);
    std::vector<double> p_begin, p_end;
    std::vector<double> p_sharp_begin, p_sharp_end;
    std::vector<double> rho;
    double log_sum_weight;
  };
  struct Trajectory;
  /// Extends `z` by 2^depth leapfrog steps of size `step` (negative: backwards in time),
  /// adding the new points to `tree` (its rho and log weight accumulate) and leaving
  /// `proposal` at the point sampled among them. False when the new points diverged or
  /// made a U-turn.
  bool build_tree(int depth, PhasePoint& z, PhasePoint& proposal, Subtree& tree, Trajectory& t,
                  double step, RandomStream& random) const;
  /// The generalized no-U-turn criterion for momentum sum rho = a + b.
  bool criterion(const std::vector<double>& p_sharp_minus, const std::vector<double>& p_sharp_plus,
                 const std::vector<double>& a, const std::vector<double>& b) const;

  const Hamiltonian& hamiltonian_;
  int max_tree_depth_;
  double max_energy_error_;

  /// Scratch space of build_tree at each depth (its two halves and the second half's
  /// proposal) and of one_step; sized on the first transition.
  struct Level {
    explicit Level(size_t dimension);
    Subtree first, second;
    PhasePoint proposal_second;
  };
  mutable std::vector<Level> levels_;
  mutable PhasePoint z_, forward_, backward_, sample_, proposal_;
  mutable std::vector<double> p_sharp_, rho_;
  mutable std::vector<Subtree> parts_;  // the forward and backward parts
};

}  // namespace variate
