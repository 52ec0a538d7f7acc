#include "engine/model/argument_domain.h"

#include <set>

namespace variate::model {

ArgumentDomain argument_domain(const std::string& family, const std::string& parameter) {
  using D = ArgumentDomain;
  if (parameter == "sigma" || parameter == "nu" || parameter == "shape" || parameter == "scale" ||
      parameter == "a" || parameter == "b" || parameter == "phi" || parameter == "eta") {
    return D::positive;
  }
  if (parameter == "rate") return family == "Poisson" ? D::nonnegative : D::positive;
  if (parameter == "mu") return family == "NegBinomial2" ? D::positive : D::any;
  if (parameter == "alpha") return family == "Dirichlet" ? D::positive : D::any;
  if (parameter == "p") return family == "Categorical" ? D::simplex : D::probability;
  if (parameter == "weights") return D::simplex;
  return D::any;
}

bool must_be_finite(const std::string& family, const std::string& parameter) {
  static const std::set<std::string> finite = {"mu", "logits", "log_rate", "nu",  "a",     "b",     "n",
                                               "alpha", "eta", "lo",      "hi", "phi", "Sigma", "scale_tril"};
  return finite.count(parameter) > 0 || (parameter == "rate" && family == "Poisson");
}

const char* describe(ArgumentDomain domain) {
  switch (domain) {
    case ArgumentDomain::positive: return "positive";
    case ArgumentDomain::nonnegative: return "non-negative";
    case ArgumentDomain::probability: return "a probability";
    case ArgumentDomain::simplex: return "a simplex";
    case ArgumentDomain::any: break;
  }
  return "any value";
}

}  // namespace variate::model
