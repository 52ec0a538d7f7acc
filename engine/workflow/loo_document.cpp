#include "engine/workflow/loo_document.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/core/argument_error.h"

namespace variate::workflow {
namespace {

using Json = nlohmann::ordered_json;

// JSON has no NaN or infinity: a k-hat that is one is written as null or "Inf".
Json k_hat(double k) {
  if (std::isnan(k)) return nullptr;
  if (std::isinf(k)) return "Inf";
  return k;
}

double k_hat_of(const Json& value) {
  if (value.is_null()) return std::nan("");
  if (value.is_string()) return std::numeric_limits<double>::infinity();
  return value.get<double>();
}

}  // namespace

std::string loo_document(const diagnostics::LooResult& loo, size_t draws) {
  Json pareto_k = Json::array();
  for (const double k : loo.pareto_k) pareto_k.push_back(k_hat(k));
  const Json document = {{"elpd_loo", loo.elpd_loo},
                         {"se_elpd_loo", loo.se_elpd_loo},
                         {"p_loo", loo.p_loo},
                         {"se_p_loo", loo.se_p_loo},
                         {"looic", loo.looic},
                         {"se_looic", loo.se_looic},
                         {"observations", loo.pareto_k.size()},
                         {"draws", draws},
                         {"pareto_k", pareto_k},
                         {"r_eff", loo.r_eff},
                         {"pointwise_elpd", loo.pointwise_elpd},
                         {"pointwise_p", loo.pointwise_p}};
  return document.dump();
}

diagnostics::LooResult loo_from_document(const std::string& json) {
  try {
    const Json document = Json::parse(json);
    diagnostics::LooResult loo;
    loo.elpd_loo = document.at("elpd_loo").get<double>();
    loo.se_elpd_loo = document.at("se_elpd_loo").get<double>();
    loo.p_loo = document.at("p_loo").get<double>();
    loo.se_p_loo = document.at("se_p_loo").get<double>();
    loo.looic = document.at("looic").get<double>();
    loo.se_looic = document.at("se_looic").get<double>();
    loo.pointwise_elpd = document.at("pointwise_elpd").get<std::vector<double>>();
    loo.pointwise_p = document.value("pointwise_p", std::vector<double>{});
    loo.r_eff = document.at("r_eff").get<std::vector<double>>();
    for (const auto& k : document.at("pareto_k")) loo.pareto_k.push_back(k_hat_of(k));
    return loo;
  } catch (const nlohmann::json::exception& e) {
    throw ArgumentError(std::string("loo_from_document: not a LOO document: ") + e.what());
  }
}

size_t loo_document_draws(const std::string& json) {
  try {
    return Json::parse(json).at("draws").get<size_t>();
  } catch (const nlohmann::json::exception& e) {
    throw ArgumentError(std::string("loo_document_draws: not a LOO document: ") + e.what());
  }
}

}  // namespace variate::workflow
