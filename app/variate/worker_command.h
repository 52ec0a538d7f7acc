#pragma once
/// `variate worker --listen HOST:PORT --token-file F [--tls-cert C --tls-key K]
/// [--jobs-dir D] [--max-jobs N] [--max-ranks N] [--max-data-bytes B] [--heartbeat-seconds S]`:
/// serves the worker protocol until SIGINT or SIGTERM. Prints "listening on HOST:PORT"
/// (the port the system chose for port 0) once it serves.

#include <CLI/CLI.hpp>

namespace variate::app {

void add_worker_command(CLI::App& app, int& exit_code);

}  // namespace variate::app
