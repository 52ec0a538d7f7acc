// libFuzzer target comparing the two backends on generated models: the bytes choose a
// well-typed model (latent parameters of every support, observed variables of the
// families the tape has kernels for, whose arguments are expressions of the parameters
// and the data through the language's functions, valid or not at a given point), its data
// (in each family's support), and points on the unconstrained scale. At each point the
// tape and LibTorch must agree: both -inf, or both finite with log densities and gradients
// within 1e-8 relative (with and without the Jacobian), and both must reject the point
// (an argument outside its domain) or neither. A disagreement prints the model and the
// point and aborts: a finding.

#include <fuzzer/FuzzedDataProvider.h>

#include <ATen/ATen.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/select_target.h"

namespace {

// What an observed family's data must be.
enum class DataKind { real, positive, unit, count, binary, category };

struct Family {
  const char* name;
  int arguments;
  DataKind data;
};

const Family kObserved[] = {
    {"Normal", 2, DataKind::real},       {"StudentT", 3, DataKind::real},    {"Cauchy", 2, DataKind::real},
    {"Laplace", 2, DataKind::real},      {"Logistic", 2, DataKind::real},    {"LogNormal", 2, DataKind::positive},
    {"Exponential", 1, DataKind::positive}, {"Gamma", 2, DataKind::positive}, {"InvGamma", 2, DataKind::positive},
    {"Weibull", 2, DataKind::positive},  {"HalfNormal", 1, DataKind::positive}, {"HalfCauchy", 1, DataKind::positive},
    {"Beta", 2, DataKind::unit},         {"Poisson", 1, DataKind::count},    {"NegBinomial2", 2, DataKind::count},
    {"Bernoulli", 1, DataKind::binary},  {"Uniform", 2, DataKind::real},    {"Categorical", 1, DataKind::category},
};

// Categorical's probabilities: a simplex always, or one only where 0.5 - w >= 0.
std::string probabilities(FuzzedDataProvider& bytes, int parameters) {
  const std::string p = "p" + std::to_string(bytes.ConsumeIntegralInRange(1, parameters));
  switch (bytes.ConsumeIntegralInRange(0, 2)) {
    case 0: return "softmax([" + p + ", 0.3, -" + p + "])";
    case 1: return "[inv_logit(" + p + "), 0.5, 0.5 - inv_logit(" + p + ")]";
    default: return "[0.2, 0.3, 0.5]";
  }
}

// Latent parameters: a prior for each support, with constant arguments.
const char* const kPriors[] = {"Normal(0, 1)", "StudentT(3, 0, 2)", "Logistic(0, 1)", "Exponential(1)",
                               "Gamma(2, 1)",  "HalfNormal(1)",     "LogNormal(0, 1)", "Beta(2, 2)",
                               "Uniform(-1, 2)"};

// An argument: a constant, or an expression of a parameter (and the data x).
std::string argument(FuzzedDataProvider& bytes, int parameters) {
  const std::string p = "p" + std::to_string(bytes.ConsumeIntegralInRange(1, parameters));
  switch (bytes.ConsumeIntegralInRange(0, 11)) {
    case 0: return "0.7";
    case 1: return "2.5";
    case 2: return p;
    case 3: return "exp(" + p + ")";
    case 4: return "square(" + p + ") + 0.5";
    case 5: return "1 - " + p;
    case 6: return "softplus(" + p + ")";
    case 7: return "inv_logit(" + p + ")";
    case 8: return p + " * x + 1";
    case 9: return "sqrt(abs(" + p + ")) + 0.1";
    case 10: return "log1p(exp(" + p + " * 2))";
    default: return "tanh(" + p + ")";
  }
}

std::string data_values(FuzzedDataProvider& bytes, DataKind kind, int n) {
  std::string values;
  for (int i = 0; i < n; ++i) {
    const double u = bytes.ConsumeProbability<double>();
    double v = 0;
    switch (kind) {
      case DataKind::real: v = 6 * u - 3; break;
      case DataKind::positive: v = 0.05 + 4 * u; break;
      case DataKind::unit: v = 0.02 + 0.96 * u; break;
      case DataKind::count: v = std::floor(8 * u); break;
      case DataKind::binary: v = u < 0.5 ? 0 : 1; break;
      case DataKind::category: v = 1 + std::floor(2.999 * u); break;
    }
    char text[32];
    const bool integer = kind == DataKind::count || kind == DataKind::binary || kind == DataKind::category;
    std::snprintf(text, sizeof text, integer ? "%.0f" : "%.6g", v);
    values += (i ? ", " : "") + std::string(text);
  }
  return "[" + values + "]";
}

// What the comparisons covered, printed at exit when VARIATE_FUZZ_STATS is set: a run that
// compares nothing (every model falling back to LibTorch) would pass without a finding.
struct Coverage {
  long models = 0, fallbacks = 0, refused = 0, finite = 0, infinite = 0, rejected = 0;
  ~Coverage() {
    if (!std::getenv("VARIATE_FUZZ_STATS")) return;
    std::fprintf(stderr, "models compared %ld, on LibTorch only %ld, refused %ld; points finite %ld, -inf %ld (rejected %ld)\n",
                 models, fallbacks, refused, finite, infinite, rejected);
  }
};
Coverage coverage;

bool close(double a, double b) { return std::abs(a - b) <= 1e-8 * std::max({1.0, std::abs(a), std::abs(b)}); }

[[noreturn]] void finding(const std::string& model, const std::string& data, const std::vector<double>& point,
                          const std::string& what) {
  std::fprintf(stderr, "backends disagree: %s\nmodel:\n%s\ndata: %s\npoint:", what.c_str(), model.c_str(), data.c_str());
  for (double q : point) std::fprintf(stderr, " %.17g", q);
  std::fprintf(stderr, "\n");
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t size) {
  FuzzedDataProvider bytes(input, size);
  constexpr int n = 3;
  const int parameters = bytes.ConsumeIntegralInRange(1, 3);
  std::string model = "data N: int\ndata x: real[N]\n";
  std::string data = "{\"N\": 3, \"x\": " + data_values(bytes, DataKind::real, n);
  for (int k = 1; k <= parameters; ++k) {
    model += "p" + std::to_string(k) + " ~ " + bytes.PickValueInArray(kPriors) + "\n";
  }
  const int observed = bytes.ConsumeIntegralInRange(1, 3);
  for (int k = 1; k <= observed; ++k) {
    const Family& family = bytes.PickValueInArray(kObserved);
    const std::string y = "y" + std::to_string(k);
    const bool integer = family.data == DataKind::count || family.data == DataKind::binary || family.data == DataKind::category;
    model += "data " + y + ": " + (integer ? "int" : "real") + "[N]\n";
    std::string call = std::string(family.name) + "(";
    for (int a = 0; a < family.arguments; ++a) {
      call += (a ? ", " : "") + (family.data == DataKind::category ? probabilities(bytes, parameters) : argument(bytes, parameters));
    }
    model += y + " ~ " + call + ")\n";
    data += ", \"" + y + "\": " + data_values(bytes, family.data, n);
  }
  data += "}";

  std::optional<variate::model::CompiledModel> compiled;
  try {
    const variate::Data bound = variate::io::parse_json_data(data, "data.json");
    auto result = variate::model::compile_model(variate::model::Source("generated.vmod", model), &bound);
    if (!result.model) return ++coverage.refused, 0;  // refused when bound (data outside a support): not a comparison
    compiled = std::move(*result.model);
  } catch (const variate::ArgumentError&) {
    return ++coverage.refused, 0;  // refused with a message, as a user would see it
  }
  const auto tape = variate::tape::select_target(*compiled, variate::tape::Backend::automatic);
  if (!tape.fallback_reason.empty()) return ++coverage.fallbacks, 0;  // the tape does not run it
  ++coverage.models;
  const variate::UnconstrainedTarget torch = compiled->target();
  const int64_t d = torch.dimension();
  // The first point is fixed (the input may end with the model); the others are the input's.
  for (int point = 0; point < 3 && (point == 0 || bytes.remaining_bytes() > 0); ++point) {
    std::vector<double> q(static_cast<size_t>(d));
    for (size_t i = 0; i < q.size(); ++i) {
      q[i] = point == 0 ? 0.8 * std::sin(1.7 * static_cast<double>(i) + 0.4) : bytes.ConsumeFloatingPointInRange<double>(-4, 4);
    }
    const at::Tensor theta = at::tensor(q, at::kDouble);
    for (const bool jacobian : {true, false}) {
      const int64_t torch_before = torch.argument_rejections().count;
      const int64_t tape_before = tape.target.argument_rejections().count;
      std::pair<at::Tensor, at::Tensor> a, b;
      try {
        a = torch.log_density_and_gradient(theta, jacobian);
        b = tape.target.log_density_and_gradient(theta, jacobian);
      } catch (const variate::ArgumentError& e) {
        finding(model, data, q, std::string("an evaluation threw: ") + e.what());
      }
      const bool torch_rejected = torch.argument_rejections().count > torch_before;
      const bool tape_rejected = tape.target.argument_rejections().count > tape_before;
      if (torch_rejected != tape_rejected) {
        finding(model, data, q, torch_rejected ? "LibTorch rejected the point, the tape did not"
                                               : "the tape rejected the point, LibTorch did not");
      }
      const double lp_torch = a.first.item<double>(), lp_tape = b.first.item<double>();
      const bool finite_torch = std::isfinite(lp_torch), finite_tape = std::isfinite(lp_tape);
      if (finite_torch != finite_tape) {
        finding(model, data, q, "log density " + std::to_string(lp_torch) + " (LibTorch) vs " + std::to_string(lp_tape) +
                                    " (tape)");
      }
      if (!finite_torch) {
        ++coverage.infinite;
        coverage.rejected += torch_rejected;
        continue;
      }
      ++coverage.finite;
      if (!close(lp_torch, lp_tape)) {
        finding(model, data, q, "log density " + std::to_string(lp_torch) + " vs " + std::to_string(lp_tape));
      }
      const at::Tensor ga = a.second.contiguous(), gb = b.second.contiguous();
      for (int64_t i = 0; i < d; ++i) {
        const double u = ga[i].item<double>(), v = gb[i].item<double>();
        if (std::isfinite(u) && std::isfinite(v) && !close(u, v)) {
          finding(model, data, q, "gradient " + std::to_string(i) + ": " + std::to_string(u) + " vs " + std::to_string(v));
        }
      }
    }
  }
  return 0;
}
