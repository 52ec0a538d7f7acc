#pragma once
// Parameter values in CmdStan JSON, checked against a model's parameters: the file of
// `variate logp --params P.json` and of `variate sample --init P.json` (as CmdStan's init).

#include <string>
#include <vector>

#include "engine/core/log_joint.h"
#include "engine/target/parameter_layout.h"

namespace variate::io {

/// The value of every parameter of `layout` (float64), from the JSON `text` of the file
/// `path`. Names in `derived_names` (the model's derived quantities) may appear and are
/// ignored.
/// @throws ArgumentError "P.json: 'x' is not a parameter of the model", "no value for
/// parameter 'mu'", "parameter 'theta' has shape [7], expected [8]", "parameter 'tau' is
/// outside its support (...)", or for malformed JSON.
ValueMap parse_parameters(const std::string& text, const std::string& path, const ParameterLayout& layout,
                          const std::vector<std::string>& derived_names);

}  // namespace variate::io
