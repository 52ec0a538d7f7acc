// libFuzzer target comparing the two backends on generated models: the bytes choose a
// well-typed model (latent scalars of every support, some with bounds computed from the
// others; vectors of every constraint; derived values through the language's functions,
// comparisons, `?:`, vector literals and recurrences; observed variables of every family
// the tape has kernels for, a Mixture, a MultiNormal and truncation among them, whose
// arguments are expressions of the parameters and the data, valid or not at a given
// point; `target +=`), its data
// (in each family's support), and points on the unconstrained scale. At each point the
// tape and LibTorch must agree: both -inf, or both finite with log densities and gradients
// within 1e-8 relative (with and without the Jacobian), and both must reject the point
// (an argument outside its domain) or neither. A disagreement prints the model and the
// point and aborts: a finding; unless LibTorch's own result moves as much when the point
// moves by a part in 10^13 (an ill-conditioned point, counted apart). At each finite point
// the values a draw records (parameters, derived quantities) must agree too: the tape's
// forward sweep against LibTorch's tensors, within 1e-8 relative, NaN where the other is.

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
#include "engine/tape/compiler/tape_draw_columns.h"
#include "engine/tape/program/unsupported.h"

namespace {

// What an observed family's data must be.
enum class DataKind { real, positive, unit, count, binary, category, simplex, rows };

struct Family {
  const char* name;
  int arguments;
  DataKind data;
};

// Families of one argument list of expressions; Mixture, MultiNormal, Binomial, Dirichlet
// and truncation are written by `observed_call`.
const Family kObserved[] = {
    {"Normal", 2, DataKind::real},       {"StudentT", 3, DataKind::real},    {"Cauchy", 2, DataKind::real},
    {"Laplace", 2, DataKind::real},      {"Logistic", 2, DataKind::real},    {"LogNormal", 2, DataKind::positive},
    {"Exponential", 1, DataKind::positive}, {"Gamma", 2, DataKind::positive}, {"InvGamma", 2, DataKind::positive},
    {"Weibull", 2, DataKind::positive},  {"HalfNormal", 1, DataKind::positive}, {"HalfCauchy", 1, DataKind::positive},
    {"HalfStudentT", 2, DataKind::positive}, {"Beta", 2, DataKind::unit},   {"Poisson", 1, DataKind::count},
    {"NegBinomial2", 2, DataKind::count}, {"Bernoulli", 1, DataKind::binary}, {"Uniform", 2, DataKind::real},
    {"Categorical", 1, DataKind::category},
};

// The values an expression may read: scalar parameters and derived scalars, and vectors
// of N = 3 elements (vector parameters of every constraint, a recurrence, derived vectors).
struct Pool {
  std::vector<std::string> scalars;
  std::vector<std::string> vectors;
  std::string simplex;   // a simplex[3] parameter, when there is one
  std::string cholesky;  // a cholesky_corr[3] parameter, when there is one
};

std::string pick(FuzzedDataProvider& bytes, const std::vector<std::string>& names) {
  return names[bytes.ConsumeIntegralInRange<size_t>(0, names.size() - 1)];
}

// An argument: a constant, or an expression of a scalar (and the data x), or where the
// variable is a vector (`vector_ok`) one of a vector.
std::string argument(FuzzedDataProvider& bytes, const Pool& pool, bool vector_ok = false) {
  const std::string p = pick(bytes, pool.scalars);
  if (vector_ok && !pool.vectors.empty() && bytes.ConsumeIntegralInRange(0, 3) == 0) {
    const std::string v = pick(bytes, pool.vectors);
    switch (bytes.ConsumeIntegralInRange(0, 2)) {
      case 0: return v;
      case 1: return "exp(" + v + " * 0.5)";
      default: return v + " * x + " + p;
    }
  }
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

// Categorical's probabilities: a simplex always, or one only where 0.5 - w >= 0.
std::string probabilities(FuzzedDataProvider& bytes, const Pool& pool) {
  const std::string p = pick(bytes, pool.scalars);
  switch (bytes.ConsumeIntegralInRange(0, 3)) {
    case 0: return "softmax([" + p + ", 0.3, -" + p + "])";
    case 1: return "[inv_logit(" + p + "), 0.5, 0.5 - inv_logit(" + p + ")]";
    case 2: return pool.simplex.empty() ? "[0.2, 0.3, 0.5]" : pool.simplex;
    default: return "[0.2, 0.3, 0.5]";
  }
}

// Latent scalar parameters: a prior for each support (improper ones too: only densities
// are compared), with constant arguments.
const char* const kPriors[] = {"Normal(0, 1)",   "StudentT(3, 0, 2)", "Logistic(0, 1)", "Exponential(1)",
                               "Gamma(2, 1)",    "HalfNormal(1)",     "LogNormal(0, 1)", "Beta(2, 2)",
                               "Uniform(-1, 2)", "Cauchy(0, 2)",      "HalfCauchy(1)",   "Laplace(0, 1)",
                               "Weibull(2, 1)",  "InvGamma(2, 1)",    "HalfStudentT(3, 1)", "Flat()",
                               "HalfFlat()"};

// A latent parameter whose bounds are expressions of the parameters before it (transformed
// at each point, with bounds that may cross there): a Uniform's, a truncation's or declared.
std::string bounded_parameter(FuzzedDataProvider& bytes, const std::string& name, const Pool& earlier) {
  const std::string lo = argument(bytes, earlier);
  const std::string hi = argument(bytes, earlier);
  switch (bytes.ConsumeIntegralInRange(0, 5)) {
    case 0: return name + " ~ Uniform(" + lo + ", " + hi + " + 2)";  // constants in order; expressions may cross
    case 1: return name + " ~ Uniform(" + lo + ", " + lo + " + 1.5)";
    case 2: return name + ": real<lower=" + lo + ", upper=" + hi + ">";
    case 3: return name + ": real<lower=" + lo + ">";
    case 4: return name + ": real<upper=" + hi + ">";
    // A truncation's bound within a few sds: far in the tail (z in the thousands, as
    // exp(exp(p)) gives) the normalizer's gradient is ill-conditioned on both backends, and
    // they part by rounding, each about 1e-4 from the exact value.
    default: return name + " ~ Normal(0, 2) T[3 * tanh(" + lo + "), ]";
  }
}

// A vector parameter of N = 3 elements, of each constraint.
std::string vector_parameter(FuzzedDataProvider& bytes, const std::string& name, Pool& pool) {
  switch (bytes.ConsumeIntegralInRange(0, 3)) {
    case 0: return name + "[N] ~ Normal(0, 2)";
    case 1: return name + ": ordered[N] ~ Normal(0, 2)";
    case 2: return name + ": positive_ordered[N] ~ Exponential(1)";
    default:
      pool.simplex = name;
      return name + ": simplex[N] ~ Dirichlet([1, 2, 1.5])";
  }
}

// A derived value through the language's functions and constructs: added to the pool.
std::string derived(FuzzedDataProvider& bytes, const std::string& name, Pool& pool) {
  const std::string a = pick(bytes, pool.scalars);
  const std::string b = pick(bytes, pool.scalars);
  switch (bytes.ConsumeIntegralInRange(0, 13)) {
    case 13: {  // an ODE from the data, with parameters passed to its right-hand side
      pool.vectors.push_back(name);
      const std::string solver = bytes.ConsumeBool() ? "ode_rk45" : "ode_bdf";
      return "function g_" + name + "(t: real, y: vector, k: real, r: real): vector = -k * y + r * tanh(t)\n" + name +
             " = " + solver + "(g_" + name + ", x, 0, [0.5, 1, 2], 0.5 + softplus(" + a + "), tanh(" + b + "))[3]";
    }
    case 12:  // a user function, inlined where it is called
      pool.vectors.push_back(name);
      return "function f_" + name + "(u: real, v: vector): vector = u * v + softplus(v)\n" + name + " = f_" + name +
             "(" + a + ", x * " + b + ")";
    // Densities in expressions, of the parameters at the data and at the parameters.
    case 9:
      pool.vectors.push_back(name);
      return name + " = Normal(" + a + ", exp(" + b + ")).log_prob(x)";
    case 10:
      pool.scalars.push_back(name);
      return name + " = Gamma(exp(" + a + "), 1.5).log_prob(exp(" + b + "))";
    case 11:
      pool.vectors.push_back(name);
      return name + " = Logistic(" + a + ", 1).log_cdf(x * " + b + ")";
    case 0: pool.scalars.push_back(name); return name + " = log_sum_exp([" + a + ", " + b + ", 0.5])";
    case 1: pool.scalars.push_back(name); return name + " = softmax([" + a + ", 0.2, " + b + "])[2]";
    case 2: pool.scalars.push_back(name); return name + " = " + a + " > 0.3 ? " + a + " : square(" + b + ")";
    case 3: pool.scalars.push_back(name); return name + " = dot(x, [" + a + ", " + b + ", 1]) / N";
    case 4: pool.scalars.push_back(name); return name + " = (" + a + " < " + b + " && " + a + " > -1) ? 1 : " + b;
    case 5: pool.vectors.push_back(name); return name + " = cumulative_sum(x * " + a + ")";
    case 6: pool.vectors.push_back(name); return name + " = softmax(x * " + a + ")";
    case 7:  // a recurrence over the parameters
      pool.vectors.push_back(name);
      return name + "[1] = " + a + "\n" + name + "[t] = " + name + "[t - 1] * 0.5 + " + b + " * x[t] for t in 2:N";
    default: pool.vectors.push_back(name); return name + " = log_sum_exp_rows([x * " + a + ", x, x * " + b + "])";
  }
}

std::string data_values(FuzzedDataProvider& bytes, DataKind kind, int n);

// An observed variable `y` of N = 3 values (or rows): its declaration and statement, and
// its data appended to `data`.
std::string observed(FuzzedDataProvider& bytes, const std::string& y, const Pool& pool, std::string& data) {
  std::string statement;
  DataKind kind = DataKind::real;
  std::string type = "real[N]";
  switch (bytes.ConsumeIntegralInRange(0, 9)) {  // a plain family when the input runs out
    case 5:  // a Mixture of Normals over two components
      statement = y + " ~ Mixture(softmax([" + pick(bytes, pool.scalars) + ", 0.1]), Normal([" + argument(bytes, pool) +
                  ", -1], " + argument(bytes, pool) + "))";
      break;
    case 6: {  // rows of a MultiNormal, its covariance or its Cholesky factor from the parameters
      kind = DataKind::rows;
      type = "real[N, N]";
      const std::string p = pick(bytes, pool.scalars);
      const std::string mu = pool.vectors.empty() ? "x * " + p : pick(bytes, pool.vectors);
      const std::string factor = pool.cholesky.empty() ? "cholesky(S)" : pool.cholesky;
      statement = bytes.ConsumeBool() ? y + " ~ MultiNormal(" + mu + ", S * exp(" + p + "))"
                                      : y + " ~ MultiNormal(" + mu + ", scale_tril = " + factor + " * softplus(" + p + "))";
      break;
    }
    case 7:  // Binomial of 8 trials
      kind = DataKind::count;
      type = "int[N]";
      statement = y + " ~ Binomial(8, inv_logit(" + argument(bytes, pool, true) + "))";
      break;
    case 8:  // Dirichlet rows
      kind = DataKind::simplex;
      type = "real[N, N]";
      statement = y + " ~ Dirichlet(exp([" + pick(bytes, pool.scalars) + ", 0.2, -" + pick(bytes, pool.scalars) + "]))";
      break;
    case 9:  // truncated, at bounds that may read the parameters
      statement = y + " ~ Normal(" + argument(bytes, pool, true) + ", " + argument(bytes, pool) + ") T[" +
                  (bytes.ConsumeBool() ? std::string("-3.5") : argument(bytes, pool) + " - 4") + ", 3.5]";
      break;
    default: {
      const Family& family = bytes.PickValueInArray(kObserved);
      kind = family.data;
      const bool integer = kind == DataKind::count || kind == DataKind::binary || kind == DataKind::category;
      type = integer ? "int[N]" : "real[N]";
      statement = std::string(family.name) + "(";
      for (int a = 0; a < family.arguments; ++a) {
        statement += (a ? ", " : "") + (kind == DataKind::category ? probabilities(bytes, pool) : argument(bytes, pool, true));
        // Uniform's bounds around the data (in (-3, 3)) when constant; expressions may cross it.
        if (family.name == std::string("Uniform")) statement += a == 0 ? " - 4" : " + 4";
      }
      statement = y + " ~ " + statement + ")";
    }
  }
  data += ", \"" + y + "\": " + data_values(bytes, kind, 3);
  return "data " + y + ": " + type + "\n" + statement + "\n";
}

std::string number(double v, bool integer) {
  char text[32];
  std::snprintf(text, sizeof text, integer ? "%.0f" : "%.6g", v);
  return text;
}

std::string data_values(FuzzedDataProvider& bytes, DataKind kind, int n) {
  std::string values;
  for (int i = 0; i < n; ++i) {
    if (kind == DataKind::rows || kind == DataKind::simplex) {  // n rows of n
      std::vector<double> row;
      double total = 0;
      for (int j = 0; j < n; ++j) {
        const double u = bytes.ConsumeProbability<double>();
        row.push_back(kind == DataKind::rows ? 6 * u - 3 : 0.05 + u);
        total += row.back();
      }
      std::string text;
      for (int j = 0; j < n; ++j) {
        char value[32];  // a simplex's entries to the last digit, so that they sum to 1
        std::snprintf(value, sizeof value, "%.17g", kind == DataKind::rows ? row[j] : row[j] / total);
        text += (j ? ", " : "") + std::string(value);
      }
      values += (i ? ", [" : "[") + text + "]";
      continue;
    }
    const double u = bytes.ConsumeProbability<double>();
    double v = 0;
    switch (kind) {
      case DataKind::real: v = 6 * u - 3; break;
      case DataKind::positive: v = 0.05 + 4 * u; break;
      case DataKind::unit: v = 0.02 + 0.96 * u; break;
      case DataKind::count: v = std::floor(8 * u); break;
      case DataKind::binary: v = u < 0.5 ? 0 : 1; break;
      case DataKind::category: v = 1 + std::floor(2.999 * u); break;
      default: break;
    }
    const bool integer = kind == DataKind::count || kind == DataKind::binary || kind == DataKind::category;
    values += (i ? ", " : "") + number(v, integer);
  }
  return "[" + values + "]";
}

// What the comparisons covered, printed at exit when VARIATE_FUZZ_STATS is set: a run that
// compares nothing (every model falling back to LibTorch) would pass without a finding.
struct Coverage {
  long models = 0, fallbacks = 0, refused = 0, finite = 0, infinite = 0, rejected = 0, ill_conditioned = 0;
  long rows = 0, rows_skipped = 0;  // draw rows compared; models whose LibTorch columns could not be made
  ~Coverage() {
    if (!std::getenv("VARIATE_FUZZ_STATS")) return;
    std::fprintf(stderr,
                 "models compared %ld, on LibTorch only %ld, refused %ld; points finite %ld (ill-conditioned, not "
                 "compared: %ld), -inf %ld (rejected %ld); draw rows compared %ld (models without LibTorch's "
                 "columns: %ld)\n",
                 models, fallbacks, refused, finite, ill_conditioned, infinite, rejected, rows, rows_skipped);
  }
};
Coverage coverage;

bool close(double a, double b) { return std::abs(a - b) <= 1e-8 * std::max({1.0, std::abs(a), std::abs(b)}); }

// Whether LibTorch's own result moves by more than the comparison's tolerance when the
// point moves by a part in 10^13 (catastrophic cancellation, as in an upper bound minus a
// nearly equal exp(y); a far tail): there the backends' roundings part by as much, and no
// comparison at 1e-8 holds. Such points are counted, not findings.
bool ill_conditioned(const variate::UnconstrainedTarget& torch, const at::Tensor& theta, bool jacobian,
                     const std::pair<at::Tensor, at::Tensor>& at_theta) {
  for (const double step : {1e-13, -1e-13}) {
    const at::Tensor moved = theta + step * (at::abs(theta) + 1e-3);
    const auto [lp, gradient] = torch.log_density_and_gradient(moved, jacobian);
    if (!close(lp.item<double>(), at_theta.first.item<double>())) return true;
    const at::Tensor g = gradient.contiguous(), g0 = at_theta.second.contiguous();
    for (int64_t i = 0; i < g.numel(); ++i) {
      if (!close(g[i].item<double>(), g0[i].item<double>())) return true;
    }
  }
  return false;
}

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
  const int priors = bytes.ConsumeIntegralInRange(1, 3);
  const int parameters = priors + bytes.ConsumeIntegralInRange(0, 2);
  std::string model = "data N: int\ndata x: real[N]\ndata S: real[N, N]\n";
  std::string data = "{\"N\": 3, \"S\": [[1, 0.3, 0], [0.3, 1, 0.2], [0, 0.2, 1]], \"x\": " +
                     data_values(bytes, DataKind::real, n);
  Pool pool;
  for (int k = 1; k <= parameters; ++k) {
    const std::string name = "p" + std::to_string(k);
    model += (k <= priors ? name + " ~ " + bytes.PickValueInArray(kPriors) : bounded_parameter(bytes, name, pool)) + "\n";
    pool.scalars.push_back(name);
  }
  if (bytes.ConsumeBool()) {
    model += vector_parameter(bytes, "v", pool) + "\n";
    pool.vectors.push_back("v");
  }
  if (bytes.ConsumeBool()) {
    model += "L: cholesky_corr[N] ~ LKJCorrCholesky(2)\n";
    pool.cholesky = "L";
  }
  const int derived_values = bytes.ConsumeIntegralInRange(0, 2);
  for (int k = 1; k <= derived_values; ++k) model += derived(bytes, "d" + std::to_string(k), pool) + "\n";
  if (bytes.ConsumeBool()) model += "target += -square(" + argument(bytes, pool) + " - 1)\n";
  const int observed_variables = bytes.ConsumeIntegralInRange(1, 3);
  for (int k = 1; k <= observed_variables; ++k) model += observed(bytes, "y" + std::to_string(k), pool, data);
  data += "}";

  if (std::getenv("VARIATE_FUZZ_MODELS")) std::fprintf(stderr, "model:\n%s", model.c_str());
  std::optional<variate::model::CompiledModel> compiled;
  try {
    const variate::Data bound = variate::io::parse_json_data(data, "data.json");
    auto result = variate::model::compile_model(variate::model::Source("generated.vmod", model), &bound);
    if (!result.model) {  // refused when bound (data outside a support): not a comparison
      if (std::getenv("VARIATE_FUZZ_REFUSALS")) std::fprintf(stderr, "refused:\n%s%s\n", model.c_str(), result.report().c_str());
      return ++coverage.refused, 0;
    }
    compiled = std::move(*result.model);
  } catch (const variate::ArgumentError& e) {
    if (std::getenv("VARIATE_FUZZ_REFUSALS")) std::fprintf(stderr, "refused:\n%s%s\n", model.c_str(), e.what());
    return ++coverage.refused, 0;  // refused with a message, as a user would see it
  }
  const auto tape = variate::tape::select_target(*compiled, variate::tape::Backend::automatic);
  if (!tape.fallback_reason.empty()) return ++coverage.fallbacks, 0;  // the tape does not run it
  ++coverage.models;
  const variate::UnconstrainedTarget torch = compiled->target();
  const int64_t d = torch.dimension();
  std::optional<variate::DrawColumns> tape_columns;
  try {
    tape_columns = variate::tape::tape_draw_columns(*compiled);
  } catch (const variate::tape::Unsupported&) {
    // LibTorch records this model's draws (its density may still run on the tape)
  }
  // LibTorch's columns learn their shapes at the unconstrained zero vector, which a model
  // whose bounds are computed from parameters may put outside its support: then nothing
  // to compare them with.
  std::optional<variate::DrawColumns> torch_columns;
  try {
    if (tape_columns) torch_columns = compiled->draw_columns();
  } catch (const std::exception&) {
    ++coverage.rows_skipped;
  }
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
      if (jacobian && tape_columns && torch_columns) {
        const std::vector<double> want = torch_columns->rows({q})[0], got = tape_columns->rows({q})[0];
        const auto names = torch_columns->names(variate::NameStyle::Bracketed);
        for (size_t c = 0; c < want.size(); ++c) {
          const bool agree = (std::isnan(want[c]) && std::isnan(got[c])) || want[c] == got[c] || close(want[c], got[c]);
          if (!agree) {
            finding(model, data, q, "draw column " + names[c] + ": " + std::to_string(want[c]) + " (LibTorch) vs " +
                                        std::to_string(got[c]) + " (tape)");
          }
        }
        ++coverage.rows;
      }
      std::string difference;
      if (!close(lp_torch, lp_tape)) difference = "log density " + std::to_string(lp_torch) + " vs " + std::to_string(lp_tape);
      const at::Tensor ga = a.second.contiguous(), gb = b.second.contiguous();
      for (int64_t i = 0; i < d && difference.empty(); ++i) {
        const double u = ga[i].item<double>(), v = gb[i].item<double>();
        if (std::isfinite(u) && std::isfinite(v) && !close(u, v)) {
          difference = "gradient " + std::to_string(i) + ": " + std::to_string(u) + " vs " + std::to_string(v);
        }
      }
      if (difference.empty()) continue;
      if (ill_conditioned(torch, theta, jacobian, a)) {
        ++coverage.ill_conditioned;
        continue;
      }
      finding(model, data, q, difference);
    }
  }
  return 0;
}
