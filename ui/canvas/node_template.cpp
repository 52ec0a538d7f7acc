#include "ui/canvas/node_template.h"

#include "ui/modeling/distribution_catalog.h"

namespace variate::ui {

QString NodeTemplate::encode() const {
  switch (kind) {
    case Kind::RealData: return "data:real";
    case Kind::IntData: return "data:int";
    case Kind::Expression: return "expression";
    case Kind::Function:
      return "function";
    case Kind::Random: return "random:" + family;
  }
  return {};
}

bool NodeTemplate::decode(const QString& text, NodeTemplate* result) {
  if (text == "data:real") {
    *result = {Kind::RealData, {}};
  } else if (text == "data:int") {
    *result = {Kind::IntData, {}};
  } else if (text == "expression") {
    *result = {Kind::Expression, {}};
  } else if (text == "function") {
    *result = {Kind::Function, {}};
  } else if (text.startsWith("random:") && catalog::find(text.mid(7))) {
    *result = {Kind::Random, text.mid(7)};
  } else {
    return false;
  }
  return true;
}

}  // namespace variate::ui
