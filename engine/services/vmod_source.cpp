#include "engine/services/vmod_source.h"

#include <ATen/ATen.h>

#include "engine/distributed/sharded_target.h"
#include "engine/io/data_file.h"
#include "engine/model/invalid_argument.h"
#include "engine/model/model_error.h"
#include "engine/model/reparameterize.h"
#include "engine/services/predictive_columns.h"
#include "engine/services/reparam_choice.h"
#include "engine/services/run_error.h"
#include "engine/tape/compiler/select_target.h"
#include "engine/tape/compiler/tape_draw_columns.h"
#include "engine/tape/program/unsupported.h"

namespace variate::services {
namespace {

// The located report of the model's first invalid argument, for a failed initialization.
std::function<std::string()> invalid_argument_report(const model::CompiledModel& model,
                                                     std::shared_ptr<const model::Source> source) {
  return [model, source] { return model::report_invalid_argument(model, *source); };
}

tape::Backend backend_of(const CompileChoice& choice) {
  const auto backend = tape::parse_backend(choice.backend);
  if (!backend) throw ArgumentError("--backend: expected auto, tape or torch, got '" + choice.backend + "'");
  return *backend;
}

// The located argument outside its domain at a point the tape rejected, found by one
// evaluation with validation on.
std::function<std::string(const std::vector<double>&)> rejection_report(const model::CompiledModel& model,
                                                                         std::shared_ptr<const model::Source> source) {
  return [model, source](const std::vector<double>& point) {
    const at::Tensor q = at::tensor(point, at::kDouble).to(model.options().device);
    const auto invalid = model::find_invalid_argument(model, q);
    if (!invalid) return std::string();
    const model::Location at = source->location(invalid->span().begin);
    return source->name() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + invalid->what();
  };
}

// Each draw's values from the tape where columns_on_tape says (one forward sweep per
// draw), whatever evaluates the density. The tape may lack a derived quantity's kernel:
// LibTorch then.
DrawColumns draw_columns(const model::CompiledModel& model, const CompileChoice& choice) {
  if (!columns_on_tape(choice)) return model.draw_columns();
  try {
    return tape::tape_draw_columns(model);
  } catch (const tape::Unsupported&) {
    return model.draw_columns();
  }
}

BoundModel bound(const model::CompiledModel& model, const UnconstrainedTarget& target, const CompileChoice& choice,
                 std::string note, std::shared_ptr<const model::Source> source) {
  BoundModel result{model.log_joint(),        target, target, draw_columns(model, choice), model.derived_names(),
                    std::move(note)};
  result.explain_no_initial_point = invalid_argument_report(model, source);
  result.explain_rejection = rejection_report(model, std::move(source));
  result.parameter_columns = parameter_columns(model.layout());
  result.predictive = [model, tape = columns_on_tape(choice)] {
    return std::make_shared<const PredictiveColumns>(model, tape);
  };
  return result;
}

// The centerings `reparam` asks of `model`: the non-centered form of every location-scale
// variable for auto (what its pilot samples) and noncentered.
model::Centering centering_of(const std::string& reparam, const model::CheckedModel& model) {
  const ReparamChoice choice = parse_reparam(reparam);
  if (choice.kind == ReparamChoice::Kind::none) return {};
  if (choice.kind == ReparamChoice::Kind::given) return choice.given;
  model::Centering centering;
  for (const std::string& name : model::location_scale_variables(model)) centering[name] = {0.0};
  return centering;
}

}  // namespace

bool columns_on_tape(const CompileChoice& choice) {
  return backend_of(choice) != tape::Backend::torch && choice.device == "cpu" && choice.dtype != "float32";
}

model::CompileOptions compile_options(const CompileChoice& choice) {
  model::CompileOptions options;
  options.dtype = choice.dtype == "float32" ? at::kFloat : at::kDouble;
  if (choice.device != "cpu") {
    if (!at::hasCUDA()) {
      throw ArgumentError("--device " + choice.device + ": this LibTorch build runs on the CPU only (no CUDA)");
    }
    try {
      options.device = at::Device(choice.device);
    } catch (const c10::Error&) {
      throw ArgumentError("--device " + choice.device + ": expected cpu, cuda or cuda:N");
    }
  }
  return options;
}

VmodSource VmodSource::from_file(const std::string& path) { return VmodSource(io::read_text_file(path), path, path); }

VmodSource::VmodSource(std::string text, std::string name, std::optional<std::string> file)
    : text_(std::move(text)), name_(std::move(name)), file_(std::move(file)) {}

model::CompileResult VmodSource::compile(const Data* data, const model::CompileOptions& options) const {
  model::CompileResult result = model::compile_model(model::Source(name_, text_), data, options);
  if (!result.ok()) {
    const size_t count = result.diagnostics.error_count();
    throw ReportedError(result.report() + std::to_string(count) + (count == 1 ? " error" : " errors") + " in " +
                        name_ + "\n");
  }
  return result;
}

BoundModel VmodSource::bind(const DataInput& data, const CompileChoice& choice) const {
  model::CompileOptions options = compile_options(choice);
  const Data values = data.read();
  const Data* given = data.given() ? &values : nullptr;
  const model::CompileResult compiled = compile(given, options);
  if (!compiled.model) throw ArgumentError(name_ + " declares data: give it with --data");
  const model::CompiledModel& model = *compiled.model;
  options.centering = centering_of(choice.reparam, *compiled.checked);
  if (options.centering.empty()) {
    const tape::SelectedTarget selected = tape::select_target(model, backend_of(choice));
    return bound(model, selected.target, choice, selected.fallback_reason, compiled.source);
  }
  const model::CompileResult rewritten = compile(given, options);
  const tape::SelectedTarget selected = tape::select_target(*rewritten.model, backend_of(choice));
  BoundModel result = bound(*rewritten.model, selected.target, choice, selected.fallback_reason, compiled.source);
  result.centering = options.centering;
  result.log_joint = model.log_joint();
  result.derived_names = model.derived_names();
  result.predictive = [model, tape = columns_on_tape(choice)] {
    return std::make_shared<const PredictiveColumns>(model, tape);
  };
  return result;
}

BoundModel VmodSource::bind_sharded(const DataInput& data, const CompileChoice& choice, const RowSplit& split) const {
  if (!data.given()) throw ArgumentError("splitting the likelihood's rows between processes needs its data (--data)");
  const Data values = data.read();
  model::CompileOptions options = compile_options(choice);
  if (options.device.is_cuda() && !options.device.has_index()) {  // one GPU per process of a host
    options.device = at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(split.local_rank));
  }
  // Checked without data (nothing is bound) to find the variables, then bound once.
  options.centering = centering_of(choice.reparam, *compile(nullptr, options).checked);
  const model::CompileResult compiled = compile(&values, options);
  try {
    const distributed::ShardedModel sharded =
        distributed::compile_sharded(compiled, values, backend_of(choice), split.communicator, split.row_blocks);
    BoundModel result = bound(sharded.whole, sharded.target, choice, sharded.fallback_reason, compiled.source);
    result.centering = options.centering;
    return result;
  } catch (const model::ModelError& e) {
    throw ReportedError(model::format(*compiled.source,
                                      {model::Severity::error, e.span(),
                                       std::string("cannot split the rows between processes: ") + e.what()}));
  }
}

}  // namespace variate::services
