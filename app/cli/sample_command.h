#pragma once
// `variate sample MODEL.vmod --data D.json [--chains 4 --warmup 1000 --draws 1000 --seed N
// --output DIR --summary-json S.json --threads N --device cpu]`: NUTS with Stan's warmup.

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_sample_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
