#include "engine/services/approximation_draws.h"

#include <cmath>

#include <ATen/ATen.h>

#include "engine/diagnostics/psis.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/vi/variational_draws.h"

namespace variate::services {

Rows tensor_rows(const at::Tensor& points) {
  const at::Tensor p = points.to(at::kDouble).contiguous();
  Rows rows(p.size(0));
  for (int64_t i = 0; i < p.size(0); ++i) rows[i].assign(p[i].data_ptr<double>(), p[i].data_ptr<double>() + p.size(1));
  return rows;
}

std::vector<io::SummaryRow> summarize_draws(const Rows& rows, const std::vector<std::string>& names) {
  std::vector<io::SummaryRow> summary;
  const double s = static_cast<double>(rows.size());
  for (size_t k = 0; k < names.size(); ++k) {
    std::vector<double> column;
    for (const auto& row : rows) column.push_back(row[k]);
    double mean = 0, squares = 0;
    for (const double x : column) mean += x / s;
    for (const double x : column) squares += (x - mean) * (x - mean);
    const double sd = rows.size() > 1 ? std::sqrt(squares / (s - 1)) : NAN;
    const auto q = diagnostics::quantiles(column, {0.05, 0.5, 0.95});
    summary.push_back({names[k], mean, sd / std::sqrt(s), sd, q[0], q[1], q[2], s, s, NAN});
  }
  return summary;
}

double importance_k_hat(const at::Tensor& log_p, const at::Tensor& log_q) {
  const at::Tensor ratios = (log_p.to(at::kDouble) - log_q.to(at::kDouble)).contiguous();
  return diagnostics::importance_k_hat(
      std::vector<double>(ratios.data_ptr<double>(), ratios.data_ptr<double>() + ratios.numel()));
}

nlohmann::ordered_json k_hat_json(double k_hat) {
  if (std::isnan(k_hat)) return nullptr;
  if (std::isinf(k_hat)) return "Inf";
  return k_hat;
}

nlohmann::ordered_json finite_json(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

std::vector<std::string> approximation_columns(const std::vector<std::string>& outputs) {
  std::vector<std::string> columns = variational_column_names();
  columns.insert(columns.end(), outputs.begin(), outputs.end());
  return columns;
}

void record_approximation_draws(store::Project& project, store::Id run, const Rows& rows, const at::Tensor& log_p,
                                const at::Tensor& log_q, const std::vector<double>& last_position, bool stopped_early) {
  const at::Tensor p = log_p.to(at::kDouble).contiguous(), q = log_q.to(at::kDouble).contiguous();
  const int width = static_cast<int>(variational_column_names().size() + (rows.empty() ? 0 : rows.front().size()));
  store::DrawBlock block{0, 0, static_cast<int>(rows.size()), width, {}};
  block.values.reserve(rows.size() * static_cast<size_t>(width));
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto index = static_cast<int64_t>(i);
    block.values.insert(block.values.end(), {0.0, p[index].item<double>(), q[index].item<double>()});
    block.values.insert(block.values.end(), rows[i].begin(), rows[i].end());
  }
  store::RunUpdate update;
  store::ChainRecord chain;
  chain.ended = true;
  chain.stopped_early = stopped_early;
  chain.last_position = last_position;
  update.chains.push_back(chain);
  update.blocks.push_back(std::move(block));
  project.write(run, update);
}

}  // namespace variate::services
