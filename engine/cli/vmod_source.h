#pragma once
/// The model of `variate sample|fit|logp MODEL.vmod`: the file named by the command's first
/// argument, compiled with its data (model_input.h reports every problem as a compiler
/// does). `sample` also takes --dtype, and all three --backend: how the model is compiled.

#include <optional>
#include <ostream>
#include <string>

#include "engine/model/compiled_model.h"

#include "engine/cli/model_source.h"

namespace variate::cli {

class VmodSource : public ModelSource {
 public:
  /// @throws ArgumentError for a device this LibTorch cannot use ("--device cuda: ...").
  model::CompileOptions compile_options() const;
  void add_arguments(CLI::App& command, ModelCommand which) override;
  std::string name() const override { return name_.empty() ? path_ : name_; }
  std::string device() const override { return device_; }
  std::optional<std::string> model_file() const override { return path_; }
  std::optional<BoundModel> bind(const std::optional<std::string>& data_path,
                                 std::ostream& errors) const override;
  std::optional<BoundModel> bind_here(const std::optional<std::string>& data_path,
                                      std::ostream& errors) const override;
  std::optional<BoundModel> bind_distributed(const std::optional<std::string>& data_path, std::ostream& errors,
                                             const DistributedRun& run) const override;

 private:
  std::optional<BoundModel> bind_on(const model::CompileOptions& options, const std::optional<std::string>& data_path,
                                    std::ostream& errors) const;

  std::string path_;
  std::string name_;  // how outputs name the model, when not by its path (a worker's job)
  std::string dtype_ = "float64";
  std::string backend_ = "auto";
  std::string device_ = "cpu";
};

}  // namespace variate::cli
