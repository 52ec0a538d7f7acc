#pragma once
/// `variate sbc MODEL --data DATA --replications N`: simulation-based calibration of the
/// model's fits (services/sbc.h): the ranks (ranks.csv in --output), per quantity the
/// ECDF's simultaneous band and the chi-square of binned ranks with a verdict, and the
/// replications whose fits had problems.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/command_run.h"
#include "engine/cli/model_argument.h"

namespace variate::cli {

void add_sbc_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program);

}  // namespace variate::cli
