#pragma once
/// The chainable, validating setters of the options classes (NutsOptions, AdviOptions):
///
///   class NutsOptions {
///    public:
///     VARIATE_CHECKED_OPTION(NutsOptions, int, chains, 4, value >= 1)
///   };
///
/// declares `NutsOptions& chains(int value)`, which throws ArgumentError("NutsOptions:
/// argument 'chains' must satisfy value >= 1, got 0") when `check` fails, the getter
/// `int chains() const`, and the member `chains_` (default 4).

#include <string>

#include "engine/core/argument_error.h"

#define VARIATE_CHECKED_OPTION(Owner, type, name, default_value, check)                 \
 public:                                                                                \
  Owner& name(type value) {                                                             \
    if (!(check)) {                                                                     \
      throw ArgumentError(#Owner ": argument '" #name "' must satisfy " #check ", got " + \
                          std::to_string(value));                                       \
    }                                                                                   \
    name##_ = value;                                                                    \
    return *this;                                                                       \
  }                                                                                     \
  type name() const { return name##_; }                                                 \
                                                                                        \
 private:                                                                               \
  type name##_ = default_value;
