// What checking the arguments a model computes from its parameters costs on the tape: the
// time of one log density and gradient with the checks (as every run has them) beside the
// same program without them, measured alternately in one run, and their ratio.
//
//   variate-bench-argument-checks [--evaluations N]

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/model_compiler.h"

namespace {

struct Case {
  const char* name;
  const char* model;
  const char* data;
};

// Models whose scales, rates or simplexes depend on parameters, so that they carry checks.
const Case kCases[] = {
    {"eight schools, centered (tau)",
     "data J: int\ndata y: real[J]\ndata sigma: real[J]\nmu ~ Normal(0, 5)\ntau ~ HalfCauchy(5)\n"
     "theta[J] ~ Normal(mu, tau)\ny ~ Normal(theta, sigma)\n",
     R"({"J": 8, "y": [28, 8, -3, 7, -1, 1, 18, 12], "sigma": [15, 10, 16, 11, 9, 11, 10, 18]})"},
    {"hierarchical scales (100 groups)",
     "data N: int\ndata y: real[N]\nlog_s[N] ~ Normal(0, 1)\nmu ~ Normal(0, 1)\ny ~ Normal(mu, exp(log_s))\n",
     nullptr},
    {"Beta with a parameter shape (100 rows)",
     "data N: int\ndata u: real[N]\na ~ Gamma(2, 1)\nb ~ Gamma(2, 1)\nu ~ Beta(a, b)\n", nullptr},
};

std::string generated_data(int n) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0.05, 0.95);
  std::string y, u;
  for (int i = 0; i < n; ++i) {
    const double v = unit(random);
    y += (i ? ", " : "") + std::to_string(4 * v - 2);
    u += (i ? ", " : "") + std::to_string(v);
  }
  return "{\"N\": " + std::to_string(n) + ", \"y\": [" + y + "], \"u\": [" + u + "]}";
}

// Nanoseconds per evaluation of `program` over `points`, `rounds` times through them.
double time_program(const variate::tape::Program& program, const std::vector<std::vector<double>>& points, int rounds) {
  variate::tape::Work work = program.make_work();
  std::vector<double> gradient(static_cast<size_t>(program.dimension()));
  double sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r) {
    for (const auto& q : points) sink += program.log_density(q.data(), gradient.data(), work);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (sink == 12345.678) std::puts("");  // keeps the loop
  return 1e9 * seconds / (static_cast<double>(rounds) * static_cast<double>(points.size()));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The cost of the tape's argument checks: log density and gradient with and without them"};
  int evaluations = 400000;
  app.add_option("--evaluations", evaluations, "Evaluations per measurement");
  CLI11_PARSE(app, argc, argv);

  std::printf("%-40s %14s %14s %8s\n", "model", "checked (ns)", "unchecked (ns)", "ratio");
  for (const Case& c : kCases) {
    const std::string data_text = c.data ? c.data : generated_data(100);
    const variate::Data data = variate::io::parse_json_data(data_text, "data.json");
    const auto compiled = variate::model::compile_model(variate::model::Source("model.vmod", c.model), &data);
    if (!compiled.ok()) {
      std::fprintf(stderr, "%s", compiled.report().c_str());
      return 1;
    }
    const variate::tape::Program checked = variate::tape::compile_model(*compiled.model);
    const variate::tape::Program unchecked = checked.without_argument_checks();
    std::mt19937 random(11);
    std::normal_distribution<double> normal(0, 0.5);
    std::vector<std::vector<double>> points(64, std::vector<double>(static_cast<size_t>(checked.dimension())));
    for (auto& q : points) {
      for (double& x : q) x = normal(random);
    }
    const int rounds = std::max(1, evaluations / static_cast<int>(points.size()) / 4);
    double with = 0, without = 0;
    for (int repeat = 0; repeat < 4; ++repeat) {  // alternated, so drift affects both alike
      with += time_program(checked, points, rounds);
      without += time_program(unchecked, points, rounds);
    }
    std::printf("%-40s %14.1f %14.1f %8.3f\n", c.name, with / 4, without / 4, with / without);
  }
  return 0;
}
