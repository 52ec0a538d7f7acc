#pragma once
// The data readers read a file in pieces (JSON in chunks, CSV by lines) and text whole:
// both must give the same data, or the same error. Writes the text to a file of this
// process's own (in a folder of its own, so that an IDX path relative to it names
// nothing) and aborts, a finding, where the two disagree.

#include <functional>
#include <string>

#include "engine/core/data.h"

namespace variate::fuzz {

/// Calls `read_file` on a file holding `text` (named input.EXTENSION) and `read_text`
/// with that file's path, to read `text` itself under the same name.
void expect_same_as_file(const std::string& text, const std::string& extension,
                         const std::function<Data(const std::string& path)>& read_file,
                         const std::function<Data(const std::string& path)>& read_text);

}  // namespace variate::fuzz
