#include "engine/model/distribution_table.h"

#include <map>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/distributions/bernoulli.h"
#include "engine/distributions/beta.h"
#include "engine/distributions/binomial.h"
#include "engine/distributions/categorical.h"
#include "engine/distributions/cauchy.h"
#include "engine/distributions/dirichlet.h"
#include "engine/distributions/exponential.h"
#include "engine/distributions/flat.h"
#include "engine/distributions/gamma.h"
#include "engine/distributions/half_cauchy.h"
#include "engine/distributions/half_flat.h"
#include "engine/distributions/half_normal.h"
#include "engine/distributions/half_student_t.h"
#include "engine/distributions/inv_gamma.h"
#include "engine/distributions/laplace.h"
#include "engine/distributions/lkj_corr_cholesky.h"
#include "engine/distributions/log_normal.h"
#include "engine/distributions/logistic.h"
#include "engine/distributions/mixture.h"
#include "engine/distributions/multi_normal.h"
#include "engine/distributions/neg_binomial_2.h"
#include "engine/distributions/normal.h"
#include "engine/distributions/poisson.h"
#include "engine/distributions/student_t.h"
#include "engine/distributions/uniform.h"
#include "engine/distributions/weibull.h"

namespace variate::model {
namespace {

namespace d = variate::distributions;
using Args = DistributionArguments;

// A family with one parameterization of N tensor arguments.
template <class Family, size_t N>
DistributionSignature one(std::string name, std::vector<ParameterSpec> parameters) {
  DistributionSignature s{std::move(name), {std::move(parameters)}, 0, nullptr};
  s.build = [](size_t, const Args& a) -> DistributionPtr {
    if constexpr (N == 0) {
      return std::make_shared<Family>();
    } else if constexpr (N == 1) {
      return std::make_shared<Family>(a.tensors[0]);
    } else if constexpr (N == 2) {
      return std::make_shared<Family>(a.tensors[0], a.tensors[1]);
    } else {
      return std::make_shared<Family>(a.tensors[0], a.tensors[1], a.tensors[2]);
    }
  };
  return s;
}

std::map<std::string, DistributionSignature> make_table() {
  std::vector<DistributionSignature> all = {
      one<d::Normal, 2>("Normal", {{"mu"}, {"sigma"}}),
      one<d::HalfNormal, 1>("HalfNormal", {{"sigma"}}),
      one<d::Cauchy, 2>("Cauchy", {{"mu"}, {"sigma"}}),
      one<d::HalfCauchy, 1>("HalfCauchy", {{"sigma"}}),
      one<d::StudentT, 3>("StudentT", {{"nu"}, {"mu"}, {"sigma"}}),
      one<d::HalfStudentT, 2>("HalfStudentT", {{"nu"}, {"sigma"}}),
      one<d::Laplace, 2>("Laplace", {{"mu"}, {"sigma"}}),
      one<d::Logistic, 2>("Logistic", {{"mu"}, {"sigma"}}),
      one<d::Exponential, 1>("Exponential", {{"rate", 0, false, "beta"}}),
      one<d::Gamma, 2>("Gamma", {{"shape", 0, false, "alpha"}, {"rate", 0, false, "beta"}}),
      one<d::InvGamma, 2>("InvGamma", {{"shape", 0, false, "alpha"}, {"scale", 0, false, "beta"}}),
      one<d::LogNormal, 2>("LogNormal", {{"mu"}, {"sigma"}}),
      one<d::Beta, 2>("Beta", {{"a", 0, false, "alpha"}, {"b", 0, false, "beta"}}),
      one<d::Uniform, 2>("Uniform", {{"lo", 0, false, "alpha"}, {"hi", 0, false, "beta"}}),
      one<d::Weibull, 2>("Weibull", {{"shape", 0, false, "alpha"}, {"scale", 0, false, "sigma"}}),
      one<d::NegBinomial2, 2>("NegBinomial2", {{"mu"}, {"phi"}}),
      one<d::Flat, 0>("Flat", {}),
      one<d::HalfFlat, 0>("HalfFlat", {}),
  };

  DistributionSignature bernoulli{"Bernoulli", {{{"p", 0, false, "theta"}}, {{"logits"}}}, 0, nullptr};
  bernoulli.build = [](size_t which, const Args& a) -> DistributionPtr {
    if (which == 0) return std::make_shared<d::Bernoulli>(a.tensors[0]);
    return std::make_shared<d::Bernoulli>(Logits{a.tensors[0]});
  };
  all.push_back(bernoulli);

  DistributionSignature binomial{
      "Binomial", {{{"n", 0, false, "N"}, {"p", 0, false, "theta"}}, {{"n", 0, false, "N"}, {"logits"}}}, 0, nullptr};
  binomial.build = [](size_t which, const Args& a) -> DistributionPtr {
    if (which == 0) return std::make_shared<d::Binomial>(a.tensors[0], a.tensors[1]);
    return std::make_shared<d::Binomial>(a.tensors[0], Logits{a.tensors[1]});
  };
  all.push_back(binomial);

  DistributionSignature poisson{"Poisson", {{{"rate", 0, false, "lambda"}}, {{"log_rate"}}}, 0, nullptr};
  poisson.build = [](size_t which, const Args& a) -> DistributionPtr {
    if (which == 0) return std::make_shared<d::Poisson>(a.tensors[0]);
    return std::make_shared<d::Poisson>(LogRate{a.tensors[0]});
  };
  all.push_back(poisson);

  DistributionSignature categorical{
      "Categorical", {{{"p", 1, false, "theta"}}, {{"logits", 1}}}, 0, nullptr};
  categorical.build = [](size_t which, const Args& a) -> DistributionPtr {
    if (which == 0) return std::make_shared<d::Categorical>(a.tensors[0]);
    return std::make_shared<d::Categorical>(Logits{a.tensors[0]});
  };
  all.push_back(categorical);

  DistributionSignature dirichlet{"Dirichlet", {{{"alpha", 1}}}, 1, nullptr};
  dirichlet.build = [](size_t, const Args& a) -> DistributionPtr {
    return std::make_shared<d::Dirichlet>(a.tensors[0]);
  };
  all.push_back(dirichlet);

  DistributionSignature multi_normal{
      "MultiNormal", {{{"mu", 1}, {"Sigma", 2}}, {{"mu", 1}, {"scale_tril", 2}}}, 1, nullptr};
  multi_normal.build = [](size_t which, const Args& a) -> DistributionPtr {
    if (which == 0) return std::make_shared<d::MultiNormal>(a.tensors[0], a.tensors[1]);
    return std::make_shared<d::MultiNormal>(a.tensors[0], ScaleTril{a.tensors[1]});
  };
  all.push_back(multi_normal);

  DistributionSignature lkj{"LKJCorrCholesky", {{{"eta"}}}, 2, nullptr};
  lkj.build = [](size_t, const Args& a) -> DistributionPtr {
    const Shape& shape = a.declared_shape;
    if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2]) {
      throw ArgumentError("LKJCorrCholesky: the variable must be declared cholesky_corr[K]");
    }
    return std::make_shared<d::LKJCorrCholesky>(shape.back(), a.tensors[0]);
  };
  all.push_back(lkj);

  DistributionSignature mixture{"Mixture", {{{"weights", 1}, {"component", 1, true}}}, 0, nullptr};
  mixture.build = [](size_t, const Args& a) -> DistributionPtr {
    return std::make_shared<d::Mixture>(a.tensors[0], a.component);
  };
  all.push_back(mixture);

  std::map<std::string, DistributionSignature> table;
  for (auto& s : all) table.emplace(s.name, std::move(s));
  return table;
}

const std::map<std::string, DistributionSignature>& table() {
  static const auto instance = make_table();
  return instance;
}

}  // namespace

std::optional<BoundArguments> bind_arguments(const DistributionSignature& signature,
                                             const Expr& call) {
  for (size_t which = 0; which < signature.parameterizations.size(); ++which) {
    const auto& parameters = signature.parameterizations[which];
    if (call.arguments.size() != parameters.size()) continue;
    BoundArguments bound{which, std::vector<size_t>(parameters.size(), call.arguments.size())};
    bool fits = true;
    for (size_t i = 0; i < call.arguments.size() && fits; ++i) {
      const auto& argument = call.arguments[i];
      if (!argument.is_named()) {
        bound.argument_of_parameter[i] = i;  // the parser puts positional arguments first
        continue;
      }
      fits = false;
      for (size_t p = 0; p < parameters.size(); ++p) {
        if (argument.name == parameters[p].name &&
            bound.argument_of_parameter[p] == call.arguments.size()) {
          bound.argument_of_parameter[p] = i;
          fits = true;
        }
      }
    }
    if (fits) return bound;
  }
  return std::nullopt;
}

const DistributionSignature* find_distribution(const std::string& name) {
  const auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> distribution_names() {
  std::vector<std::string> names;
  for (const auto& entry : table()) names.push_back(entry.first);
  return names;
}

std::string describe(const DistributionSignature& signature) {
  std::string text = signature.name + "(";
  for (size_t i = 0; i < signature.parameterizations.size(); ++i) {
    const auto& parameters = signature.parameterizations[i];
    if (i > 0) {
      text += " | ";
      // Alternatives list only the names that differ from the positional form.
      bool first = true;
      for (const auto& p : parameters) {
        bool shared = false;
        for (const auto& q : signature.parameterizations[0]) shared |= std::string(p.name) == q.name;
        if (shared) continue;
        text += (first ? "" : ", ") + std::string(p.name) + " =";
        first = false;
      }
      continue;
    }
    for (size_t j = 0; j < parameters.size(); ++j) text += (j ? ", " : "") + std::string(parameters[j].name);
  }
  return text + ")";
}

// A distribution's domain error as the model text words it: its arguments by the language's
// names (Gamma's `rate`, the engine's beta) and indices counted from 1.
std::string model_message(const DomainError& e, const std::vector<ParameterSpec>& parameters) {
  std::string argument = e.argument();
  std::string requirement = e.requirement();
  for (const ParameterSpec& p : parameters) {
    if (!p.engine_name) continue;
    if (argument == p.engine_name) argument = p.name;
    const std::string quoted = std::string("'") + p.engine_name + "'";  // Uniform's "less than 'beta'"
    if (const auto at = requirement.find(quoted); at != std::string::npos) {
      requirement.replace(at, quoted.size(), std::string("'") + p.name + "'");
    }
  }
  return e.message(1, argument, requirement);
}

}  // namespace variate::model
