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

#include "engine/cli/model_argument.h"
#include "engine/services/model_source.h"

namespace variate::cli {

/// A model written in C++, with what its program is called.
struct CppModel {
  std::string name;    ///< the C++ name of the model and the program: "eight_schools"
  std::string origin;  ///< the file it was exported from: "model.vmod"
  std::function<Data(const Data&)> data;   ///< NAME_data: the data file's values -> the model's data
  std::function<void(const Data&)> model;  ///< NAME: the model program
};

/// The model's density and columns, as a hand-written program would make them.
class CppModelSource : public services::ModelSource {
 public:
  explicit CppModelSource(CppModel model);

  /// "eight_schools (exported from model.vmod)".
  std::string name() const override;
  /// Compiled as C++: the backend, dtype and device settings do not apply.
  services::BoundModel bind(const services::DataInput& data, const services::CompileChoice& choice) const override;

 private:
  CppModel model_;
};

/// The model an exported program was compiled with: no argument names it, and the
/// settings that compile a model's text are left out (the help's footer says so).
class CppModelArgument : public ModelArgument {
 public:
  explicit CppModelArgument(CppModel model) : source_(std::make_shared<CppModelSource>(std::move(model))) {}
  void add_to(CLI::App& command) override;
  std::shared_ptr<const services::ModelSource> source() const override { return source_; }
  bool has_text() const override { return false; }
  std::set<std::string> settings_left_out() const override {
    return {"backend", "dtype", "device", "nproc", "dist_timeout", "shard", "row_blocks"};
  }

 private:
  std::shared_ptr<const CppModelSource> source_;
};

}  // namespace variate::cli
