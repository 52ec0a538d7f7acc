#pragma once
/// "Did you mean ...?": the closest of some names to one that matches none of them.

#include <string>
#include <vector>

namespace variate::model {

/// The closest of `candidates` to `name` within a small edit distance (case aside), or "".
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace variate::model
