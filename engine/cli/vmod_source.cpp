#include "engine/cli/vmod_source.h"

#include <ATen/Context.h>

#include "engine/core/argument_error.h"
#include "engine/distributed/sharded_target.h"
#include "engine/io/data_file.h"
#include "engine/model/invalid_argument.h"
#include "engine/model/model_error.h"
#include "engine/tape/compiler/select_target.h"

#include "engine/cli/model_input.h"

namespace variate::cli {
namespace {

// The located report of the model's first invalid argument, for a failed initialization.
std::function<std::string()> invalid_argument_report(const model::CompiledModel& model,
                                                     std::shared_ptr<const model::Source> source) {
  return [model, source] { return model::report_invalid_argument(model, *source); };
}

}  // namespace

void VmodSource::add_arguments(CLI::App& command, ModelCommand which) {
  command.add_option("model", path_, "The model (.vmod)")->required();
  command.add_option("--model-name", name_, "How the outputs name the model (default: its path)")->group("");
  command.add_option("--backend", backend_, "What evaluates the density: auto (the tape on the CPU in float64 when every op of the model has a kernel, else LibTorch), tape, or torch")
      ->capture_default_str()->check(CLI::IsMember({"auto", "tape", "torch"}));
  if (which != ModelCommand::logp) {
    command.add_option("--device", device_, "cpu, or cuda (cuda:N) with a CUDA build of LibTorch: where the data lives and the model computes (on LibTorch; several processes on one host take one GPU each)")
        ->capture_default_str();
  }
  if (which != ModelCommand::sample) return;
  command.add_option("--dtype", dtype_, "float64, or float32 for data and model arithmetic (faster on large data; the log density is summed in float64)")
      ->capture_default_str()->check(CLI::IsMember({"float64", "float32"}));
}

model::CompileOptions VmodSource::compile_options() const {
  model::CompileOptions options;
  options.dtype = dtype_ == "float32" ? at::kFloat : at::kDouble;
  if (device_ != "cpu") {
    if (!at::hasCUDA()) throw ArgumentError("--device " + device_ + ": this LibTorch build runs on the CPU only (no CUDA)");
    try {
      options.device = at::Device(device_);
    } catch (const c10::Error&) {
      throw ArgumentError("--device " + device_ + ": expected cpu, cuda or cuda:N");
    }
  }
  return options;
}

std::optional<BoundModel> VmodSource::bind(const std::optional<std::string>& data_path,
                                           std::ostream& errors) const {
  model::CompileOptions options;
  try {
    options = compile_options();
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
  return bind_on(options, data_path, errors);
}

std::optional<BoundModel> VmodSource::bind_here(const std::optional<std::string>& data_path,
                                                std::ostream& errors) const {
  model::CompileOptions options;  // on the CPU, whatever --device says
  options.dtype = dtype_ == "float32" ? at::kFloat : at::kDouble;
  return bind_on(options, data_path, errors);
}

std::optional<BoundModel> VmodSource::bind_on(const model::CompileOptions& options,
                                              const std::optional<std::string>& data_path,
                                              std::ostream& errors) const {
  const auto compiled = load_model(path_, data_path, errors, options);
  if (!compiled) return std::nullopt;
  if (!compiled->model) {
    errors << "error: " << path_ << " declares data: give it with --data\n";
    return std::nullopt;
  }
  const model::CompiledModel& model = *compiled->model;
  try {
    // The compiled program is batch-polymorphic: one target serves single points and batches.
    const tape::SelectedTarget selected = tape::select_target(model, *tape::parse_backend(backend_));
    BoundModel bound{model.log_joint(), selected.target, selected.target, model.draw_columns(),
                     model.derived_names(), selected.fallback_reason};
    bound.explain_no_initial_point = invalid_argument_report(model, compiled->source);
    return bound;
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace variate::cli

namespace variate::cli {

std::optional<BoundModel> ModelSource::bind_distributed(const std::optional<std::string>& data_path,
                                                        std::ostream& errors, const DistributedRun& run) const {
  if (!run.split_rows()) return bind(data_path, errors);
  errors << "error: a model written in C++ runs on several processes whole only (--shard none)\n";
  return std::nullopt;
}

std::optional<BoundModel> VmodSource::bind_distributed(const std::optional<std::string>& data_path,
                                                       std::ostream& errors, const DistributedRun& run) const {
  if (!run.split_rows()) return bind(data_path, errors);
  if (!data_path) {
    errors << "error: splitting the likelihood's rows between processes needs its data (--data)\n";
    return std::nullopt;
  }
  std::optional<Data> data;
  try {
    data = io::read_data_file(*data_path);
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
  model::CompileOptions options;
  try {
    options = compile_options();
    // One GPU per process of a host.
    if (options.device.is_cuda() && !options.device.has_index()) {
      options.device = at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(run.local_rank()));
    }
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
  const auto compiled = load_model(path_, *data, errors, options);
  if (!compiled) return std::nullopt;
  try {
    const distributed::ShardedModel sharded = distributed::compile_sharded(
        *compiled, *data, *tape::parse_backend(backend_), run.communicator(), run.row_blocks());
    const model::CompiledModel& whole = sharded.whole;
    BoundModel bound{whole.log_joint(), sharded.target, sharded.target, whole.draw_columns(),
                     whole.derived_names(), sharded.fallback_reason};
    bound.explain_no_initial_point = invalid_argument_report(whole, compiled->source);
    return bound;
  } catch (const model::ModelError& e) {
    errors << model::format(*compiled->source,
                            {model::Severity::error, e.span(),
                             std::string("cannot split the rows between processes: ") + e.what()});
    return std::nullopt;
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace variate::cli
