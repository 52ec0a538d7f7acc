#pragma once
/// The model of an exported program: a model written in C++, as the model.h that
/// `variate export` writes defines it — a data function and a model function:
///
///   vt::Data eight_schools_data(const vt::Data& given);   // inputs, checked; transformed data
///   vt::RandomVariable eight_schools(const vt::Data& d);  // creates the random variables
///
/// Bound to data, it is what a hand-written program would make of it: the log joint of
/// make_log_joint, the layout of ParameterLayout::from_model, DrawColumns(log_joint,
/// layout); batches are evaluated point by point (pointwise_log_joint), since C++ written
/// for one point is not batch-polymorphic. Its text is not in the program, so the options
/// of `variate sample` that need it (--dtype, --project, --run-name) are not offered.

#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "engine/core/data.h"

#include "engine/cli/model_source.h"

namespace variate::cli {

/// A model written in C++, with what its program is called.
struct CppModel {
  std::string name;    ///< the C++ name of the model and the program: "eight_schools"
  std::string origin;  ///< the file it was exported from: "model.vmod"
  std::function<Data(const Data&)> data;   ///< NAME_data: the data file's values -> the model's data
  std::function<void(const Data&)> model;  ///< NAME: the model program
};

class CppModelSource : public ModelSource {
 public:
  explicit CppModelSource(CppModel model);

  /// No argument names the model; `sample --help` says which options are left out.
  void add_arguments(CLI::App& command, ModelCommand which) override;
  /// "eight_schools (exported from model.vmod)".
  std::string name() const override;
  std::optional<std::string> model_file() const override { return std::nullopt; }
  std::optional<BoundModel> bind(const std::optional<std::string>& data_path,
                                 std::ostream& errors) const override;

 private:
  CppModel model_;
};

}  // namespace variate::cli
