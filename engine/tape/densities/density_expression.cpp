#include "engine/tape/densities/density_expression.h"

#include <array>
#include <cmath>
#include <tuple>
#include <utility>

#include "engine/tape/densities/density_sink.h"
#include "engine/tape/densities/pointwise_families.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// Operands as a sink's: 0 the point (stride 1), 1 + k argument k read at i * stride[1 + k].
// The forward sweep writes each element's log density; the reverse sweep evaluates the
// element again for its partials (no scratch memory, and the forward sweep stays as cheap
// as log_lik's).
template <class Family, size_t... K>
void log_prob_elements(const Instruction& op, Sweep& s, bool reverse, std::index_sequence<K...>) {
  using Joint = detail::JointTraits<Family>;
  const double* x = s.values + op.in[0];
  const double* out_adjoint = s.adjoints + op.out;
  double* out = s.values + op.out;
  [[maybe_unused]] const std::array<bool, sizeof...(K)> vector{{(op.stride[1 + K] != 0)...}};
  [[maybe_unused]] const std::array<bool, sizeof...(K)> varies{{(reverse && op.varying[1 + K])...}};
  [[maybe_unused]] const bool any_vector = (false || ... || vector[K]);
  [[maybe_unused]] const bool any_varies = (false || ... || varies[K]);
  typename Family::Arguments arguments;
  [[maybe_unused]] typename Joint::type joint;
  ((vector[K] ? void() : std::get<K>(arguments).load(s.values[op.in[1 + K]], varies[K])), ...);
  if constexpr (Joint::exists) {
    if (!any_vector) joint.load(any_varies, std::get<K>(arguments)...);
  }
  for (int64_t i = 0; i < op.n; ++i) {
    ((vector[K] ? std::get<K>(arguments).load(s.values[op.in[1 + K] + i], varies[K]) : void()), ...);
    Element e;
    if constexpr (Joint::exists) {
      if (any_vector) joint.load(any_varies, std::get<K>(arguments)...);
      e = Family::at(x[i], std::get<K>(arguments)..., joint);
    } else {
      e = Family::at(x[i], std::get<K>(arguments)...);
    }
    if (!reverse) {
      out[i] = e.lp;
      continue;
    }
    const double g = out_adjoint[i];
    if (g == 0 || !std::isfinite(e.lp)) continue;  // outside the support: no partials, as the sinks
    if (op.varying[0]) s.adjoints[op.in[0] + i] += g * e.dx;
    ((varies[K] ? void(s.adjoints[op.in[1 + K] + i * op.stride[1 + K]] += g * e.da[K]) : void()), ...);
  }
}

template <class Family>
void log_prob_forward(const Instruction& op, Sweep& s) {
  log_prob_elements<Family>(op, s, false, std::make_index_sequence<std::tuple_size_v<typename Family::Arguments>>{});
}

template <class Family>
void log_prob_backward(const Instruction& op, Sweep& s) {
  log_prob_elements<Family>(op, s, true, std::make_index_sequence<std::tuple_size_v<typename Family::Arguments>>{});
}

template <class Family>
Slot emit_log_prob_of(ProgramBuilder& builder, const DensityTerm& term) {
  const Slot out = builder.varying(term.value.shape);
  Instruction op = elementwise_operands(term, std::tuple_size_v<typename Family::Arguments>, "log_prob");
  op.forward = log_prob_forward<Family>;
  op.backward = log_prob_backward<Family>;
  op.out = out.offset;
  builder.append(op);
  return out;
}

}  // namespace

Slot emit_log_prob(ProgramBuilder& builder, const DensityTerm& term) {
  Slot out;
  const bool emitted = with_pointwise_family(term.family, term.parameterization, [&](auto tag) {
    out = emit_log_prob_of<typename decltype(tag)::type>(builder, term);
  });
  if (!emitted) throw Unsupported("the tape has no " + term.family + ".log_prob in an expression");
  return out;
}

}  // namespace variate::tape
