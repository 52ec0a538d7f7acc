#include "engine/codegen/cpp_names.h"

#include <cctype>
#include <set>

namespace variate::codegen {
namespace {

const std::set<std::string>& reserved() {
  static const std::set<std::string> names = {
      // C++17 keywords and alternative tokens.
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr",
      "const_cast", "continue", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
      "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
      "protected", "public", "register", "reinterpret_cast", "return", "short", "signed",
      "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
      "xor_eq", "char8_t", "concept", "consteval", "constinit", "co_await", "co_return",
      "co_yield", "requires",
      // Names the generated code uses: arguments, namespaces, macros of the C library.
      "d", "given", "vt", "at", "c10", "std", "torch", "main", "assert", "errno", "NAN",
      "INFINITY", "EOF", "NULL", "stdin", "stdout", "stderr", "int64_t",
  };
  return names;
}

}  // namespace

std::string cpp_identifier(const std::string& model_name) {
  // Names starting with '_' and a capital, or containing "__", are reserved in C++.
  const bool reserved_form = (model_name.size() > 1 && model_name[0] == '_' &&
                              std::isupper(static_cast<unsigned char>(model_name[1]))) ||
                             model_name.find("__") != std::string::npos;
  if (reserved().count(model_name) || reserved_form) return model_name + "_";
  return model_name;
}

std::string identifier_from(const std::string& text) {
  std::string id;
  for (char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (!ok && !id.empty() && id.back() == '_') continue;  // one '_' per run of others
    id += ok ? c : '_';
  }
  while (!id.empty() && id.back() == '_') id.pop_back();
  if (id.empty()) return "model";
  if (std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  return cpp_identifier(id);
}

std::string string_literal(const std::string& text) {
  std::string literal = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') literal += '\\';
    literal += c;
  }
  return literal + "\"";
}

}  // namespace variate::codegen
