#include "engine/cli/text_agreement.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <ATen/ATen.h>

namespace variate::cli {
namespace {

// The centre of the unconstrained space and two seeded points around it, as a compiled
// model's values meet them in warmup.
std::vector<at::Tensor> points(int64_t dimension) {
  std::vector<at::Tensor> result{at::zeros({dimension}, at::kDouble)};
  at::Generator generator = at::detail::createCPUGenerator(20240);
  for (int k = 0; k < 2; ++k) result.push_back(at::rand({dimension}, generator, at::kDouble) * 3 - 1.5);
  return result;
}

bool agree(double a, double b, double scale) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-8 * std::max({1.0, scale, std::abs(a), std::abs(b)});
}

std::string differ(const std::string& what, size_t point, double cpp, double text) {
  std::ostringstream out;
  out.precision(17);
  out << what << " at point " << point + 1 << ": " << cpp << " (C++) vs " << text << " (text)";
  return out.str();
}

}  // namespace

std::string text_disagreement(const services::BoundModel& cpp, const services::BoundModel& text) {
  const std::vector<std::string> names = cpp.columns.names(NameStyle::StanCsv);
  if (names != text.columns.names(NameStyle::StanCsv) || cpp.target.dimension() != text.target.dimension()) {
    return "their parameters or derived quantities differ";
  }
  const std::vector<at::Tensor> at_points = points(cpp.target.dimension());
  for (size_t p = 0; p < at_points.size(); ++p) {
    const auto [lp_cpp, grad_cpp] = cpp.target.log_density_and_gradient(at_points[p]);
    const auto [lp_text, grad_text] = text.target.log_density_and_gradient(at_points[p]);
    const double a = lp_cpp.item<double>(), b = lp_text.item<double>();
    if (!agree(a, b, 0)) return differ("the log density", p, a, b);
    if (!std::isfinite(a)) continue;
    const at::Tensor g = grad_cpp.contiguous(), h = grad_text.contiguous();
    const double scale = g.numel() ? g.abs().max().item<double>() : 0.0;
    for (int64_t i = 0; i < g.numel(); ++i) {
      const double x = g.data_ptr<double>()[i], y = h.data_ptr<double>()[i];
      if (!agree(x, y, scale)) return differ("the gradient's element " + std::to_string(i + 1), p, x, y);
    }
    const at::Tensor q = at_points[p];
    const std::vector<double> position(q.data_ptr<double>(), q.data_ptr<double>() + q.numel());
    const std::vector<double> row_cpp = cpp.columns.rows({position})[0], row_text = text.columns.rows({position})[0];
    for (size_t k = 0; k < row_cpp.size(); ++k) {
      if (!agree(row_cpp[k], row_text[k], 0)) return differ(names[k], p, row_cpp[k], row_text[k]);
    }
  }
  return "";
}

}  // namespace variate::cli
