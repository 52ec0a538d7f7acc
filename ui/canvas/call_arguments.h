#pragma once
/// A distribution call's arguments by parameter, as the engine binds them (positional
/// arguments fill the first parameters in order, named ones pick theirs; see
/// distribution_table.h), and calls rebuilt for another family or parameterization.

#include <optional>
#include <vector>

#include "engine/model/ast.h"

namespace variate::ui {

struct FamilyInfo;

namespace calls {

/// Which parameterization a call uses, and for each of its parameters the index of the
/// call argument that gives it.
struct Binding {
  int parameterization = -1;
  std::vector<int> argumentOf;
};

/// nullopt when no parameterization of `family` fits the call.
std::optional<Binding> bind(const FamilyInfo& family, const model::Expr& call);

/// The call of one parameterization with these argument values (in its parameters'
/// order): parameters in the first parameterization's places are positional, the others
/// named, as in Binomial(n, logits = x).
model::Expr makeCall(const FamilyInfo& family, int parameterization, std::vector<model::Expr> values);

/// A call of `family` in `parameterization` that keeps `old`'s arguments for parameters of
/// the same name and gives the others their defaults (changing Normal to StudentT keeps mu
/// and sigma).
model::Expr rebuildCall(const FamilyInfo& family, int parameterization, const model::Expr& old);

}  // namespace calls

}  // namespace variate::ui
