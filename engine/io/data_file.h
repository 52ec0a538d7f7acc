#pragma once
/// Reading data files: CmdStan JSON and CSV tables, into named tensors.

#include <string>

#include "engine/core/data.h"
#include "engine/io/text_file.h"  // read_text_file, which the data files are read with

namespace variate::io {

/// CmdStan JSON: `{"N": 3, "y": [1.5, 2, 3], "X": [[1, 2], [3, 4]]}`. Matrices are lists of
/// rows; nested lists must be rectangular. A value whose numbers are all integers becomes
/// an int64 tensor, otherwise float64. "NaN", "Inf", "-Inf", "Infinity" and "-Infinity"
/// strings are accepted as reals. An object names an IDX file (MNIST's format):
/// `{"idx_images": "t10k-images-idx3-ubyte.gz", "limit": 1000}` gives images [n, rows * cols]
/// in [0, 1], `{"idx_labels": ...}` labels [n]; paths are relative to the JSON file.
/// Other keys that are not numeric data (strings, other objects) are an
/// error naming the key.
/// @throws ArgumentError "file:line:column: ..." for malformed JSON, or naming the variable.
Data parse_json_data(const std::string& text, const std::string& file_name);

/// A CSV table with a header row of names and one column per variable (each becomes a
/// vector with one entry per row). Blank lines are skipped; fields may be quoted.
/// @throws ArgumentError "file:line:column: ..." for malformed rows or non-numeric fields.
Data parse_csv_data(const std::string& text, const std::string& file_name);

/// parse_json_data of a file, read in chunks: its numbers cost their tensors (8 bytes
/// each) and the reader a constant, so a file of several GB needs no more memory than
/// its values. @throws ArgumentError as parse_json_data, naming the path.
Data read_json_data_file(const std::string& path);

/// parse_csv_data of a file, read a line at a time.
Data read_csv_data_file(const std::string& path);

/// Reads a data file, choosing the format by extension (.json or .csv).
/// @throws ArgumentError if the file cannot be read or is malformed.
Data read_data_file(const std::string& path);

}  // namespace variate::io
