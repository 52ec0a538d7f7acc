#pragma once
/// C++ names for the names of a model: unchanged where C++ allows them, with a trailing
/// '_' where a model name is a C++ keyword or a name the generated code itself uses.

#include <string>

namespace variate::codegen {

/// "theta" -> "theta"; "new" -> "new_"; "d" (the data argument) -> "d_".
std::string cpp_identifier(const std::string& model_name);

/// A valid C++ identifier made from free text such as a file name: other characters
/// become '_', a leading digit gets a '_' before it. "eight-schools" -> "eight_schools".
std::string identifier_from(const std::string& text);

/// A C++ string literal: "\"theta\"", with quotes and backslashes escaped.
std::string string_literal(const std::string& text);

}  // namespace variate::codegen
