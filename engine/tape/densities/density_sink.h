#pragma once
/// What the density sinks of event-rank-0 families share: the sink instruction of a term
/// (operand 0 the value, operand 1 + k argument k, read at i * stride with stride 0 for
/// one value and 1 for the value's shape), a sum in a fixed order with four partial sums,
/// and the element loop of the families without a kernel of their own.
///
/// A family for family_sink is a pointwise family (pointwise_family.h): its Arguments and
/// `at`, and, when some work depends on several arguments (Beta's lgamma(a + b)), a `Joint`
/// with `void load(bool varying, const Kind&...)`, passed to `at` last. family_sink loads a
/// stride-0 argument and the Joint of stride-0 arguments once, outside the element loop.

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "engine/tape/densities/log_density_ops.h"
#include "engine/tape/densities/pointwise_family.h"

namespace variate::tape {

/// An instruction of `term`'s operands (0 the value, 1 + k argument k with stride 0 or 1),
/// varying flags, n and name, of any parameterization; the caller sets the rest.
/// @throws Unsupported for another number of arguments than `arity`, or an argument of a
/// size other than 1 and n.
Instruction elementwise_operands(const DensityTerm& term, size_t arity, const char* name);

/// The sink of `term` with its operands, strides, varying flags, n and name set; the
/// caller sets `forward`.
/// @throws Unsupported when the term has another parameterization than the first, another
/// number of arguments than `arity`, or an argument of a size other than 1 and n.
Instruction density_sink(const DensityTerm& term, size_t arity, const char* name);

/// sum_i body(i) for K sums at once: `body(i, sums)` adds element i's terms into sums[K].
/// Four partial sums, combined in a fixed order: without -ffast-math a single accumulator
/// keeps every addition in sequence, so its latency bounds the loop.
template <size_t K, class Body>
std::array<double, K> sum_in_four(int64_t n, Body&& body) {
  double lanes[4][K] = {};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    body(i, lanes[0]);
    body(i + 1, lanes[1]);
    body(i + 2, lanes[2]);
    body(i + 3, lanes[3]);
  }
  for (; i < n; ++i) body(i, lanes[0]);
  std::array<double, K> total{};
  for (size_t k = 0; k < K; ++k)
    total[k] = (lanes[0][k] + lanes[1][k]) + (lanes[2][k] + lanes[3][k]);
  return total;
}

namespace detail {

template <class Family, class = void>
struct JointTraits {
  struct None {};
  using type = None;
  static constexpr bool exists = false;
};
template <class Family>
struct JointTraits<Family, std::void_t<typename Family::Joint>> {
  using type = typename Family::Joint;
  static constexpr bool exists = true;
};

template <class Family, size_t... K>
void family_sink(const Instruction& op, Sweep& s, std::index_sequence<K...>) {
  constexpr size_t kArity = sizeof...(K);
  using Joint = JointTraits<Family>;
  const int64_t n = op.n;
  if (n == 0) return;
  const double* x = s.values + op.in[0];
  double* x_adjoint = s.adjoints + op.in[0];
  const bool x_varies = op.varying[0];
  [[maybe_unused]] const std::array<const double*, kArity> a{{(s.values + op.in[1 + K])...}};
  [[maybe_unused]] const std::array<double*, kArity> a_adjoint{{(s.adjoints + op.in[1 + K])...}};
  [[maybe_unused]] const std::array<bool, kArity> vector{{(op.stride[1 + K] != 0)...}};
  [[maybe_unused]] const std::array<bool, kArity> varies{{op.varying[1 + K]...}};
  const bool any_vector = (false || ... || vector[K]);
  [[maybe_unused]] const bool any_varies = (false || ... || varies[K]);

  typename Family::Arguments arguments;
  typename Joint::type joint;
  ((vector[K] ? void() : std::get<K>(arguments).load(a[K][0], varies[K])), ...);
  if constexpr (Joint::exists) {
    if (!any_vector) joint.load(any_varies, std::get<K>(arguments)...);
  }
  // sums[0] is the log density, sums[1 + k] the partial of a stride-0 argument k.
  const auto sums = sum_in_four<1 + kArity>(n, [&](int64_t i, double* sum) {
    ((vector[K] ? std::get<K>(arguments).load(a[K][i], varies[K]) : void()), ...);
    Element e;
    if constexpr (Joint::exists) {
      if (any_vector) joint.load(any_varies, std::get<K>(arguments)...);
      e = Family::at(x[i], std::get<K>(arguments)..., joint);
    } else {
      e = Family::at(x[i], std::get<K>(arguments)...);
    }
    sum[0] += e.lp;
    if (x_varies) x_adjoint[i] += e.dx;
    ((varies[K] ? (vector[K] ? void(a_adjoint[K][i] += e.da[K]) : void(sum[1 + K] += e.da[K]))
                : void()),
     ...);
  });
  s.lp += sums[0];
  ((varies[K] && !vector[K] ? void(a_adjoint[K][0] += sums[1 + K]) : void()), ...);
}

}  // namespace detail

/// The sink kernel of a family (see the top of this file), with runtime strides and
/// varying flags read once per evaluation.
template <class Family>
void family_sink(const Instruction& op, Sweep& s) {
  detail::family_sink<Family>(
      op, s, std::make_index_sequence<std::tuple_size_v<typename Family::Arguments>>{});
}

/// Emits the sink of `term` for Family when the term is of `family`; false otherwise.
template <class Family>
bool emit_family_sink(ProgramBuilder& builder, const DensityTerm& term, const char* family,
                      const char* name) {
  if (term.family != family) return false;
  Instruction op = density_sink(term, std::tuple_size_v<typename Family::Arguments>, name);
  op.forward = family_sink<Family>;
  builder.append(op);
  return true;
}

}  // namespace variate::tape
