#pragma once
/// How a command names its model: `variate`'s first argument, MODEL.vmod, or the model
/// an exported program was compiled with (cpp_model_source.h). A command declares its
/// options, asks the argument to add what names the model, and runs on the model source
/// the argument makes once the command line is parsed.

#include <memory>
#include <set>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/services/model_source.h"

namespace variate::cli {

class ModelArgument {
 public:
  virtual ~ModelArgument() = default;
  /// Declares the arguments that name the model on `command`.
  virtual void add_to(CLI::App& command) = 0;
  /// The model, once the command line is parsed. @throws ArgumentError when it cannot be
  /// read.
  virtual std::shared_ptr<const services::ModelSource> source() const = 0;
  /// Whether the model has text (a project records it, a worker or another rank is given
  /// it): the options that need it are offered only then.
  virtual bool has_text() const = 0;
  /// The settings this kind of model does not take (a C++ model is not compiled here).
  virtual std::set<std::string> settings_left_out() const { return {}; }
};

/// MODEL.vmod, the command's first argument.
class VmodArgument : public ModelArgument {
 public:
  void add_to(CLI::App& command) override;
  std::shared_ptr<const services::ModelSource> source() const override;
  bool has_text() const override { return true; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace variate::cli
