#pragma once
/// CmdStan JSON data text to keep apart from its file, as a project keeps a data set: an
/// IDX file named by a path relative to the JSON file (`{"x": {"idx_images":
/// "train.gz"}}`) is named by its absolute path instead, so that the stored text reads
/// the same files from any working folder.

#include <string>

namespace variate::io {

/// `text` (the content of `file_path`) with relative IDX paths made absolute; the text
/// itself when it names none (or is not a JSON object: its reader reports that).
std::string portable_json_data(const std::string& text, const std::string& file_path);

}  // namespace variate::io
