#include "variate/export/main_source.h"

namespace variate::codegen {

// The part of main.cpp that fits a variational approximation (`fit`), as `variate fit`.
const char* fit_source() {
  return R"variate(// Statistics of independent draws from the approximation (R-hat and ESS do not apply:
// ess = S, mcse = sd / sqrt(S), r_hat = null), as `variate fit` reports them.
std::vector<vt::io::SummaryRow> summarize_draws(const std::vector<std::vector<double>>& rows,
                                                const std::vector<std::string>& names) {
  std::vector<vt::io::SummaryRow> summary;
  const double s = static_cast<double>(rows.size());
  for (size_t k = 0; k < names.size(); ++k) {
    std::vector<double> column;
    for (const auto& row : rows) column.push_back(row[k]);
    double mean = 0, squares = 0;
    for (const double x : column) mean += x / s;
    for (const double x : column) squares += (x - mean) * (x - mean);
    const double sd = rows.size() > 1 ? std::sqrt(squares / (s - 1)) : NAN;
    const auto q = vt::diagnostics::quantiles(column, {0.05, 0.5, 0.95});
    summary.push_back({names[k], mean, sd / std::sqrt(s), sd, q[0], q[1], q[2], s, s, NAN});
  }
  return summary;
}

// Mean, sd and quantiles, three significant digits, in aligned columns.
std::string format_table(const std::vector<vt::io::SummaryRow>& rows) {
  const auto number = [](double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", x);
    return std::string(text);
  };
  std::vector<std::vector<std::string>> table = {{"", "Mean", "StdDev", "5%", "50%", "95%"}};
  for (const auto& r : rows) {
    table.push_back({r.name, number(r.mean), number(r.sd), number(r.q5), number(r.q50), number(r.q95)});
  }
  std::vector<size_t> widths(table.front().size(), 0);
  for (const auto& line : table) {
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  }
  std::string text;
  for (const auto& line : table) {
    text += line[0] + std::string(widths[0] - line[0].size(), ' ');
    for (size_t c = 1; c < line.size(); ++c) text += std::string(2 + widths[c] - line[c].size(), ' ') + line[c];
    text += '\n';
  }
  return text;
}

int run_fit(Arguments& arguments) {
  const auto data_file = arguments.text("--data");
  const std::string method = arguments.text("--method", "meanfield");
  const uint64_t seed = parse_seed(arguments.text("--seed"));
  const auto output = arguments.text("--output");
  const auto summary_json = arguments.text("--summary-json");
  const auto eta = arguments.text("--eta");
  vt::AdviOptions options = vt::AdviOptions()
                                .method(vt::advi_method_from_string(method))
                                .seed(seed)
                                .iter(static_cast<int>(arguments.integer("--iter", 10000)))
                                .tol_rel_obj(arguments.real("--tol-rel-obj", 0.01))
                                .adapt_iter(static_cast<int>(arguments.integer("--adapt-iter", 50)))
                                .grad_samples(static_cast<int>(arguments.integer("--grad-samples", 1)))
                                .elbo_samples(static_cast<int>(arguments.integer("--elbo-samples", 100)))
                                .eval_elbo(static_cast<int>(arguments.integer("--eval-elbo", 100)));
  if (eta) options.eta(arguments.real("--eta", 1.0)).adapt_engaged(false);
  const int output_draws = static_cast<int>(arguments.integer("--output-draws", 1000));
  arguments.flag("--quiet");  // the fit prints no trace here
  arguments.check_all_used();

  const BoundModel model = bind(data_file);
  // ADVI evaluates batches of points; the model's C++ is written for one point.
  const vt::UnconstrainedTarget target(vt::pointwise_log_joint(model.log_joint, model.layout), model.layout);
  const vt::AdviFit fit = vt::advi(target, options);
  const vt::AdviResult& result = fit.result;
  if (result.status == vt::AdviStatus::adaptation_failed || result.status == vt::AdviStatus::diverged) {
    std::cerr << "error: ADVI " << vt::to_string(result.status) << " (eta = " << result.eta
              << "); give a smaller --eta or check the model\n";
    return 1;
  }
  // Output draws have their own stream, apart from the optimization's.
  at::Generator generator =
      at::make_generator<at::CPUGeneratorImpl>(vt::RandomStream::for_chain(seed, 1).next());
  const vt::ApproximationDraws draws = vt::sample_approximation(target, *fit.family, output_draws, generator);
  const vt::DrawColumns columns(model.log_joint, model.layout);
  const auto to_rows = [](const at::Tensor& points) {
    std::vector<std::vector<double>> rows(points.size(0));
    const at::Tensor p = points.contiguous();
    for (int64_t i = 0; i < p.size(0); ++i) rows[i].assign(p[i].data_ptr<double>(), p[i].data_ptr<double>() + p.size(1));
    return rows;
  };
  const auto rows = columns.rows(to_rows(draws.unconstrained));
  if (output) {
    std::filesystem::create_directories(*output);
    vt::io::VariationalCsvInfo info;
    info.run.model = "@NAME@ (exported from @FILE@)";
    info.run.data_file = data_file.value_or("");
    info.run.seed = seed;
    info.run.variate_version = "@VERSION@";
    info.algorithm = method;
    info.iter = options.iter();
    info.grad_samples = options.grad_samples();
    info.elbo_samples = options.elbo_samples();
    info.eta = options.eta();
    info.adapt_engaged = options.adapt_engaged();
    info.adapt_iter = options.adapt_iter();
    info.tol_rel_obj = options.tol_rel_obj();
    info.eval_elbo = options.eval_elbo();
    info.output_samples = output_draws;
    vt::io::VariationalCsvWriter writer((std::filesystem::path(*output) / "variational.csv").string(), info,
                                        columns.names(vt::NameStyle::StanCsv));
    if (result.eta_adapted) writer.write_eta(result.eta);
    writer.write_mean(columns.rows(to_rows(draws.mean.unsqueeze(0))).front());
    for (size_t i = 0; i < rows.size(); ++i) {
      writer.write_draw(draws.log_p[i].item<double>(), draws.log_g[i].item<double>(), rows[i]);
    }
    writer.finish();
  }
  const auto summary = summarize_draws(rows, columns.names(vt::NameStyle::Bracketed));
  std::cout << "Inference for @NAME@: ADVI (" << method << "), " << output_draws
            << " draws from the approximation; seed " << seed << "\neta = " << result.eta
            << (result.eta_adapted ? " (adapted)" : "") << "; " << vt::to_string(result.status)
            << " after " << result.iterations << " iterations; ELBO " << result.elbo << "\n\n";
  std::cout << format_table(summary)
            << "\nDraws are independent draws from the approximation: R-hat and ESS do not apply.\n";
  if (summary_json) vt::io::write_summary_json(*summary_json, summary, std::nullopt);
  return 0;
}

)variate";
}

}  // namespace variate::codegen
