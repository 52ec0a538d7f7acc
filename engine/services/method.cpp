#include "engine/services/method.h"

namespace variate::services {

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods = {Method::nuts,       Method::advi, Method::optimize,
                                              Method::pathfinder, Method::sbc,  Method::amortized};
  return methods;
}

const char* method_label(Method method) {
  switch (method) {
    case Method::nuts: return "NUTS";
    case Method::advi: return "ADVI";
    case Method::optimize: return "Optimize (L-BFGS)";
    case Method::pathfinder: return "Pathfinder";
    case Method::sbc:
      return "SBC";
    case Method::amortized: return "Amortized VI";
  }
  return "NUTS";
}

const char* method_command(Method method) {
  switch (method) {
    case Method::nuts: return "sample";
    case Method::advi: return "fit";
    case Method::optimize: return "optimize";
    case Method::pathfinder: return "pathfinder";
    case Method::sbc:
      return "sbc";
    case Method::amortized: return "fit";
  }
  return "sample";
}

bool draws_are_independent(Method method) {
  return method == Method::advi || method == Method::optimize || method == Method::pathfinder;
}

Methods::Methods(std::initializer_list<Method> methods) {
  for (const Method method : methods) bits_ |= bit(method);
}

Methods Methods::all() {
  Methods methods;
  for (const Method method : all_methods()) methods.bits_ |= bit(method);
  return methods;
}

}  // namespace variate::services
