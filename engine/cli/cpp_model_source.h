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
/// for one point is not batch-polymorphic.
///
/// model.h also keeps the text it was generated from. Where `variate sample` would run that
/// text on the tape (`--backend auto` or `tape`), the program does, once the text and the C++
/// give the same columns, density, gradient and draw values at a few points
/// (text_agreement.h): it then draws what `variate sample` draws. Otherwise, and with
/// `--backend torch`, it runs the C++, as `variate sample --backend torch` runs the text. The
/// other options that compile a text or hand it on (--dtype, --device, --nproc, --project,
/// --run-name) are not offered.

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
  std::string text;                        ///< NAME_vmod: the text the C++ was generated from; empty if none
};

/// The model's density and columns, as a hand-written program would make them.
class CppModelSource : public services::ModelSource {
 public:
  explicit CppModelSource(CppModel model);

  /// "eight_schools (exported from model.vmod)".
  std::string name() const override;
  /// The C++, or its text on the tape as the class comment says; dtype and device are the
  /// defaults. @throws ArgumentError for `--backend tape` when the text cannot run there or
  /// disagrees with the C++.
  services::BoundModel bind(const services::DataInput& data, const services::CompileChoice& choice) const override;
  bool has_text() const { return !model_.text.empty(); }

 private:
  services::BoundModel bind_cpp(const services::DataInput& data) const;

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
    std::set<std::string> left_out = {"dtype", "device", "nproc", "dist_timeout", "shard", "row_blocks"};
    if (!source_->has_text()) left_out.insert("backend");
    return left_out;
  }

 private:
  std::shared_ptr<const CppModelSource> source_;
};

}  // namespace variate::cli
