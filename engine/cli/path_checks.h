#pragma once
/// Checks of the paths a command writes, made when its options are read: a run of an hour
/// must not end in "cannot write the summary".

#include <CLI/CLI.hpp>

namespace variate::cli {

/// A file written when the command ends (--summary-json): its folder exists and can be
/// written, and so can the file if it exists.
CLI::Validator writable_file_check();

/// A folder the command writes into (--output): created now if absent, with the reason
/// when it cannot be.
CLI::Validator output_folder_check();

}  // namespace variate::cli
