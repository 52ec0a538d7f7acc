#include "engine/model/compiled_model.h"

#include <atomic>
#include <set>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/distribution.h"
#include "engine/core/tracing.h"
#include "engine/distributions/truncated.h"
#include "engine/kernels/glm_likelihood.h"
#include "engine/model/data_binding.h"
#include "engine/model/distribution_table.h"
#include "engine/model/evaluator.h"
#include "engine/model/fused_likelihood.h"
#include "engine/model/log_density_term.h"
#include "engine/model/model_error.h"
#include "engine/model/printer.h"
#include "engine/model/reparameterize.h"
#include "engine/target/point_supports.h"

namespace variate::model {

// What the checking run learns about each `~` statement.
struct VariableInfo {
  Shape shape;         // one point's value
  Shape sample_shape;  // iid copies beyond the distribution's batch shape
  int64_t batch_rank = 0;
};

struct CompiledModel::State {
  std::shared_ptr<const CheckedModel> checked;
  CompileOptions options;
  BoundData data;
  // Values of observed variables in a floating dtype, converted once here rather than by
  // the distribution at every evaluation (counts are int64 in `data` for indexing).
  std::map<std::string, at::Tensor> observed;
  ConstantCache constants;
  std::map<size_t, VariableInfo> variables;  // by statement
  std::map<std::string, Shape> shapes;
  std::vector<std::string> derived_names;
  ParameterLayout layout;
  std::map<size_t, FusedLikelihood> fused;  // by statement, found while checking
  std::set<std::string> scored;  // deterministic nodes that some distribution reads
  std::atomic<long> fused_evaluations{0};
  bool checking = true;  // only during construction, on one thread
};

namespace {

Support constraint_support(Constraint constraint) {
  switch (constraint) {
    case Constraint::ordered: return Support::ordered();
    case Constraint::positive_ordered: return Support::positive_ordered();
    case Constraint::simplex: return Support::simplex();
    case Constraint::cholesky_corr: return Support::cholesky_corr();
    case Constraint::none: break;
  }
  return Support::real();
}

int64_t size_of(const Expr& dim, Evaluator& evaluator, const std::string& owner) {
  const Value v = evaluator.evaluate(dim);
  if (!v.integer || v.rank() != 0 || v.tensor.item<int64_t>() < 0) {
    throw ModelError(dim.span, "the size '" + to_string(dim) + "' of '" + owner +
                                   "' must be a non-negative integer");
  }
  return v.tensor.item<int64_t>();
}

// The shape a `~` statement declares through its sizes or constraint, if any.
std::optional<Shape> declared_shape(const RandomStmt& random, Evaluator& evaluator) {
  if (random.constraint != Constraint::none) {
    const int64_t k = size_of(random.constraint_dims[0], evaluator, random.name);
    if (random.constraint == Constraint::cholesky_corr) return Shape{k, k};
    return Shape{k};
  }
  if (random.dims.empty()) return std::nullopt;
  Shape shape;
  for (const auto& dim : random.dims) shape.push_back(size_of(dim, evaluator, random.name));
  return shape;
}

bool is_suffix(const Shape& suffix, const Shape& shape) {
  if (suffix.size() > shape.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), shape.rbegin());
}

bool scores(const CompiledModel::State& state, size_t statement) {
  return !state.options.part || state.options.part->scored_statements.count(statement) > 0;
}

// Rows [first, second) of a data value's first axis, in the same memory layout (a design
// matrix stays column-major).
at::Tensor cut_rows(const at::Tensor& value, std::pair<int64_t, int64_t> rows, const std::string& name) {
  if (value.dim() == 0 || rows.first < 0 || rows.second < rows.first || rows.second > value.size(0)) {
    throw ArgumentError("CompiledModel: rows [" + std::to_string(rows.first) + ", " +
                        std::to_string(rows.second) + ") of '" + name + "', which has shape " +
                        variate::to_string(value.sizes()));
  }
  const at::Tensor cut = value.narrow(0, rows.first, rows.second - rows.first);
  const bool column_major = value.dim() == 2 && value.size(0) > 1 && value.stride(0) == 1;
  return column_major ? cut.t().contiguous().t() : cut.contiguous();
}

// Networks and guides are trained by amortized variational inference (engine/deep); a
// density over every parameter has no place for them.
void reject_deep(const CheckedModel& model) {
  const auto deep = model.first_deep_node();
  if (!deep) return;
  const bool guide = model.find(deep->first)->guide.has_value();
  throw ModelError(model.program.statements[deep->second].name_span(),
                   "'" + deep->first + "' is a " + (guide ? "guide" : "network") +
                       ": a model with networks or guides is fit with `variate fit` (amortized "
                       "variational inference), not sampled");
}

// What a run of the program is for.
enum class RunMode {
  checking,  // the first run: validates, learns shapes, finds fused likelihoods
  density,   // under a tracer that scores it (log_joint)
  derived,   // only the values of deterministic nodes: observed statements are skipped
};

class Run {
 public:
  // `environment` receives the values of parameters and deterministic nodes; data is
  // read from the bound data directly.
  Run(CompiledModel::State& state, RunMode mode, std::map<std::string, Value>& environment)
      : state_(state), mode_(mode), checking_(mode == RunMode::checking), environment_(environment),
        evaluator_(environment_, state.data.names, state.constants, checking_, &state.data.values) {}

  void statements() {
    const CheckedModel& model = *state_.checked;
    for (size_t s : model.evaluation_order) {
      const Statement& statement = model.program.statements[s];
      const Node& node = *model.find(statement.name());
      if (const auto* assignment = statement.as<Deterministic>()) {
        if (node.is_data_valued()) continue;  // computed when the data was bound
        // A density needs only the deterministic nodes some distribution reads.
        if (mode_ == RunMode::density && !state_.scored.count(assignment->name)) continue;
        environment_[assignment->name] = evaluator_.evaluate(assignment->value);
        if (checking_) state_.shapes[assignment->name] = environment_[assignment->name].point_shape();
      } else if (const auto* element = statement.as<ElementDefinition>()) {
        // The step evaluates the whole recurrence, its initial elements included.
        if (!element->loop || node.is_data_valued()) continue;
        if (mode_ == RunMode::density && !state_.scored.count(element->name)) continue;
        environment_[element->name] = evaluator_.evaluate_recurrence(model.elements_of(element->name));
        if (checking_) state_.shapes[element->name] = environment_[element->name].point_shape();
      } else if (const auto* increment = statement.as<TargetIncrement>()) {
        if (mode_ != RunMode::derived && scores(state_, s)) add_term(*increment);
      } else if (const auto* random = statement.as<RandomStmt>()) {
        variable(s, *random, node);
      }
    }
  }

 private:
  // In a batch a scalar variable's value is [B, 1] (LogJointTracer), so what its
  // distribution is built from is lifted to at least one point dimension: [B] would
  // broadcast against it to [B, B].
  static int64_t lifted_rank(int64_t rank) { return std::max<int64_t>(rank, 1); }

  // Builds the distribution of a call; batched parameters are lifted so that their point
  // dimensions line up with the variable's (`extra_rank` is 1 inside a Mixture, whose
  // components add a trailing component axis).
  DistributionPtr distribution(const Expr& call, int64_t batch_rank, int64_t extra_rank,
                               const Shape& declared) {
    const DistributionSignature& signature = *find_distribution(call.name);
    const BoundArguments bound = *bind_arguments(signature, call);
    const auto& parameters = signature.parameterizations[bound.parameterization];
    DistributionArguments arguments;
    arguments.declared_shape = declared;
    bool constant = true;
    for (size_t p = 0; p < parameters.size(); ++p) {
      const Expr& argument = call.arguments[bound.argument_of_parameter[p]].value;
      if (parameters[p].is_distribution) {
        arguments.component = distribution(argument, batch_rank, extra_rank + 1, declared);
        constant = false;
        continue;
      }
      const Value v = evaluator_.evaluate(argument);
      constant = constant && !v.batched && is_constant(argument);
      arguments.tensors.push_back(lift(v, lifted_rank(batch_rank + extra_rank + parameters[p].event_rank)));
    }
    // While checking, arguments that depend on parameters are only at a reference point,
    // so their values are not validated; data-only ones are. At a sampler's point those
    // that depend on parameters are (argument_checks_enabled).
    ValidationGuard validation(checking_ ? constant : validation_enabled() || (argument_checks_enabled() && !constant));
    try {
      return signature.build(bound.parameterization, arguments);
    } catch (const ModelError&) {
      throw;
    } catch (const DomainError& e) {
      throw ModelError(call.span, model_message(e, parameters));
    } catch (const ArgumentError& e) {
      throw ModelError(call.span, e.what());
    } catch (const c10::Error& e) {
      throw ModelError(call.span, call.name + ": " + e.what_without_backtrace());
    }
  }

  // `target += expr`: the sum of expr over one point's elements, scored as an observed
  // variable's density (LogDensityTerm).
  void add_term(const TargetIncrement& increment) {
    const Value v = evaluator_.evaluate(increment.value);
    at::Tensor term = v.tensor.to(at::kDouble);
    if (v.rank() > 0) {
      std::vector<int64_t> dims;
      for (int64_t d = 0; d < v.rank(); ++d) dims.push_back(tensor_dim(v, d));
      term = term.sum(dims);
    }
    make_random_variable({increment.name, std::make_shared<LogDensityTerm>(term), {}, at::zeros({}, at::kDouble),
                          std::nullopt});
  }

  // The distribution of a `~` statement, truncated to its `T[lo, hi]` if it has one.
  DistributionPtr variable_distribution(const RandomStmt& random, int64_t batch_rank, const Shape& declared) {
    DistributionPtr d = distribution(random.distribution, batch_rank, 0, declared);
    if (!random.truncation) return d;
    const auto bound = [&](const std::optional<Expr>& e) {
      if (!e) return at::Tensor();
      const Value v = evaluator_.evaluate(*e);
      if (checking_ && v.rank() > static_cast<int64_t>(d->batch_shape().size())) {
        throw ModelError(e->span, "the truncation bound '" + to_string(*e) + "' has shape " +
                                      variate::to_string(v.point_shape()) + ", more dimensions than the arguments of " +
                                      random.distribution.name + " (shape " + variate::to_string(d->batch_shape()) + ")");
      }
      return lift({at::isFloatingType(v.tensor.scalar_type()) ? v.tensor : v.tensor.to(at::kDouble), v.batched, false},
                  lifted_rank(batch_rank));
    };
    const at::Tensor lo = bound(random.truncation->lo);
    const at::Tensor hi = bound(random.truncation->hi);
    if (checking_ && lo.defined() && hi.defined() && !(lo < hi).all().item<bool>()) {
      throw ModelError(random.truncation->span, "the truncation's lower bound must be below its upper bound");
    }
    try {
      return std::make_shared<distributions::Truncated>(d, lo, hi);
    } catch (const DomainError& e) {
      throw ModelError(random.truncation->span, e.message(1));  // indices from 1, as the text counts
    } catch (const ArgumentError& e) {
      throw ModelError(random.truncation->span, e.what());
    }
  }

  // The support of `NAME: real<lower=L, upper=U>`, its bounds computed here (from data or
  // earlier parameters), lifted as the variable's value is in a batch.
  Support declared_support(const RandomStmt& random, const VariableInfo& info) {
    const DeclaredBounds& declared = *random.bounds;
    const int64_t rank = lifted_rank(static_cast<int64_t>(info.shape.size()));
    const auto bound = [&](const std::optional<Expr>& e) {
      if (!e) return at::Tensor();
      const Value v = evaluator_.evaluate(*e);
      if (checking_ && broadcast_shapes(v.point_shape(), info.shape) != info.shape) {
        throw ModelError(e->span, "the bound '" + to_string(*e) + "' has shape " + variate::to_string(v.point_shape()) +
                                      ", which does not fit '" + random.name + "' of shape " +
                                      variate::to_string(info.shape) + "; give '" + random.name + "' sizes, as in " +
                                      random.name + ": real<...>[K]");
      }
      const at::Tensor t = at::isFloatingType(v.tensor.scalar_type()) ? v.tensor : v.tensor.to(at::kDouble);
      return lift({t, v.batched, false}, rank);
    };
    const at::Tensor lo = bound(declared.lower);
    const at::Tensor hi = bound(declared.upper);
    // While checking, parameters' central values require a gradient: bounds that do not
    // come from the data alone and are validated here.
    const bool from_data = !(lo.defined() && lo.requires_grad()) && !(hi.defined() && hi.requires_grad());
    if (checking_ && from_data && lo.defined() && hi.defined() && !(lo < hi).all().item<bool>()) {
      throw ModelError(declared.span, "the lower bound of '" + random.name + "' must be below its upper bound");
    }
    if (lo.defined() && hi.defined()) return Support::interval(lo, hi);
    if (lo.defined()) return Support::lower_bounded(lo);
    if (hi.defined()) return Support::upper_bounded(hi);
    return Support::real();
  }

  bool is_constant(const Expr& expr) const { return state_.constants.count(&expr) > 0 || expr.kind == ExprKind::number; }

  void variable(size_t s, const RandomStmt& random, const Node& node) {
    const bool observed = node.kind == NodeKind::observed;
    if (observed && mode_ == RunMode::derived) return;  // no deterministic node reads its density
    if (observed && !scores(state_, s)) return;  // another part's likelihood
    if (checking_) learn_shape(s, random, node);
    if (observed && !checking_ && fused_variable(s, random)) return;
    const VariableInfo& info = state_.variables.at(s);
    RandomVariableSpec spec{random.name, variable_distribution(random, info.batch_rank, info.shape),
                            info.sample_shape, std::nullopt, std::nullopt};
    if (random.constraint != Constraint::none) spec.support = constraint_support(random.constraint);
    if (random.bounds) spec.support = declared_support(random, info);
    if (observed) spec.value = state_.observed.at(random.name);
    if (checking_ && observed) check_support(random, *spec.distribution, *spec.value);
    const RandomVariable rv = make_random_variable(std::move(spec));
    if (checking_ && observed && state_.options.fuse_likelihoods && state_.options.device.is_cpu() &&
        !random.truncation) {
      find_fused(s, random);
    }
    if (observed) return;
    at::Tensor value = rv.value();
    const bool batched = value.dim() > static_cast<int64_t>(info.shape.size());
    if (batched) value = value.reshape(concat({value.size(0)}, info.shape));
    // Parameters enter the model's computations in its dtype; their priors and the
    // transforms stay float64.
    if (value.scalar_type() != state_.options.dtype) value = value.to(state_.options.dtype);
    environment_[random.name] = Value{value, batched, false};
  }

  void find_fused(size_t s, const RandomStmt& random) {
    const ExpressionProbe probe{[this](const Expr& e) { return evaluator_.evaluate(e); },
                                [this](const Expr& e) { return is_constant(e); }};
    auto fused = recognize_fused_likelihood(random, state_.observed.at(random.name),
                                            state_.options.dtype, probe);
    if (fused) state_.fused.emplace(s, std::move(*fused));
  }

  // The observed variable with a GlmLikelihood in place of its elementwise family; only
  // with validation off, since the general path is the one that checks arguments.
  bool fused_variable(size_t s, const RandomStmt& random) {
    const auto it = state_.fused.find(s);
    if (it == state_.fused.end() || validation_enabled()) return false;
    const FusedLikelihood& fused = it->second;
    at::Tensor alpha;
    for (const Expr* term : fused.intercept_terms) {
      const at::Tensor t = evaluator_.evaluate(*term).tensor;  // [] or [B]
      alpha = alpha.defined() ? alpha + t : t;
    }
    std::vector<at::Tensor> blocks;
    int64_t batch = 0;
    for (const auto& coefficient : fused.coefficients) {
      const Value v = evaluator_.evaluate(*coefficient.expr);
      blocks.push_back(coefficient.scalar ? v.tensor.unsqueeze(-1) : v.tensor);  // [K] or [B, K]
      if (v.batched) batch = v.tensor.size(0);
    }
    for (auto& block : blocks) {
      if (batch > 0 && block.dim() == 1) block = block.expand({batch, block.size(0)});
    }
    const at::Tensor beta = blocks.size() == 1 ? blocks[0] : at::cat(blocks, -1);
    const at::Tensor sigma = fused.sigma ? evaluator_.evaluate(*fused.sigma).tensor : at::Tensor();
    const auto likelihood = std::make_shared<kernels::GlmLikelihood>(fused.data, alpha, beta, sigma);
    make_random_variable({random.name, likelihood, {}, state_.observed.at(random.name), std::nullopt});
    state_.fused_evaluations.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  // The checking run fixes each variable's shape and how its distribution fills it.
  void learn_shape(size_t s, const RandomStmt& random, const Node& node) {
    const std::optional<Shape> declared = declared_shape(random, evaluator_);
    const DistributionSignature& signature = *find_distribution(random.distribution.name);
    const DistributionPtr d = variable_distribution(random, 0, declared.value_or(Shape{}));
    const Shape& event = d->event_shape();
    Shape shape;
    if (declared) {
      shape = random.constraint != Constraint::none ? *declared : concat(*declared, event);
    } else if (node.kind == NodeKind::observed) {
      shape = state_.data.values.at(random.name).point_shape();
    } else {
      shape = concat(d->batch_shape(), event);
    }
    const int64_t event_rank = signature.event_rank;
    if (static_cast<int64_t>(shape.size()) < event_rank ||
        !is_suffix(event, shape)) {
      throw ModelError(random.name_span, "'" + random.name + "' has shape " + variate::to_string(shape) +
                                             " but one draw of " + random.distribution.name +
                                             " has shape " + variate::to_string(event));
    }
    const Shape batch(shape.begin(), shape.end() - event_rank);
    if (!is_suffix(d->batch_shape(), batch)) {
      throw ModelError(random.distribution.span,
                       "the arguments of " + random.distribution.name + " have shape " +
                           variate::to_string(d->batch_shape()) + ", which does not fit '" + random.name +
                           "' of shape " + variate::to_string(batch) +
                           (node.kind == NodeKind::observed ? " (the shape of its data)" : ""));
    }
    const Shape sample(batch.begin(), batch.end() - d->batch_shape().size());
    state_.variables[s] = VariableInfo{shape, sample, static_cast<int64_t>(batch.size())};
    state_.shapes[random.name] = shape;
  }

  void check_support(const RandomStmt& random, const distributions::Distribution& d,
                     const at::Tensor& value) {
    const Support support = random.constraint != Constraint::none
                                ? constraint_support(random.constraint) : d.support();
    // Bounds computed from parameters (`y ~ Uniform(0, theta)`) are known only at a point,
    // where data outside them makes the density 0; here they are at the central one.
    if (depends_on_parameters(support)) return;
    const auto* truncated = dynamic_cast<const distributions::Truncated*>(&d);
    const at::Tensor inside = truncated ? truncated->contains(value.to(at::kDouble)).expand(value.sizes())
                                        : support.contains(value.to(at::kDouble));
    if (inside.all().item<bool>()) return;
    const at::Tensor flat = inside.reshape(-1).logical_not().nonzero();
    const int64_t first = flat[0][0].item<int64_t>();
    std::string where;
    if (value.dim() > 0 && support.event_rank() == 0) {
      where = " (element " + std::to_string(first + 1) + ", 1-based, counting row by row)";
    }
    throw ModelError(random.name_span,
                     "data '" + random.name + "' is outside the support of " + random.distribution.name +
                         " (" + support.to_string() + "): got " +
                         format_number(value.reshape(-1)[first].item<double>(), false) + where);
  }

  CompiledModel::State& state_;
  RunMode mode_;
  bool checking_;
  std::map<std::string, Value>& environment_;
  Evaluator evaluator_;
};

// Deterministic nodes that a scored `~` statement reads, directly or through other nodes.
std::set<std::string> find_scored_nodes(const CompiledModel::State& state) {
  const CheckedModel& model = *state.checked;
  std::set<std::string> scored;
  std::vector<const Node*> pending;
  for (const auto& node : model.nodes) {
    if (node.distribution && scores(state, *node.distribution)) pending.push_back(&node);
    if (node.increment && scores(state, *node.increment)) pending.push_back(&node);
  }
  while (!pending.empty()) {
    const Node* node = pending.back();
    pending.pop_back();
    for (const auto& name : node->dependencies) {
      const Node* dependency = model.find(name);
      if (dependency && dependency->is_deterministic() && scored.insert(name).second) pending.push_back(dependency);
    }
  }
  return scored;
}

void run(CompiledModel::State& state, RunMode mode, std::map<std::string, Value>* out) {
  std::map<std::string, Value> environment;
  Run(state, mode, environment).statements();
  if (out) *out = std::move(environment);
}

}  // namespace

CompiledModel::CompiledModel(std::shared_ptr<const CheckedModel> checked, const Data& data,
                             const CompileOptions& options)
    : state_(std::make_shared<State>()) {
  if (options.dtype != at::kDouble && options.dtype != at::kFloat) {
    throw ArgumentError("CompiledModel: option 'dtype' must be float64 or float32, got " +
                        std::string(c10::toString(options.dtype)));
  }
  state_->checked = std::move(checked);
  state_->options = options;
  reject_deep(*state_->checked);
  state_->data = bind_data(*state_->checked, data, state_->constants, options.dtype);
  if (options.part) {
    for (const auto& [name, rows] : options.part->rows) {
      Value& value = state_->data.values.at(name);
      value.tensor = cut_rows(value.tensor, rows, name);
    }
  }
  if (!options.device.is_cpu()) {
    for (auto& [name, value] : state_->data.values) value.tensor = value.tensor.to(options.device);
    for (auto& [expr, value] : state_->constants) value.tensor = value.tensor.to(options.device);
  }
  for (const auto& [name, value] : state_->data.values) state_->shapes[name] = value.point_shape();
  for (const auto& node : state_->checked->nodes) {
    if (node.kind != NodeKind::observed) continue;
    const at::Tensor& value = state_->data.values.at(node.name).tensor;
    state_->observed[node.name] = value.to(options.dtype);
  }
  for (const auto& node : state_->checked->nodes) {
    if (node.kind == NodeKind::derived) state_->derived_names.push_back(node.name);
  }
  state_->scored = find_scored_nodes(*state_);
  // The checking run: every statement once, at central values, validating as it goes.
  const std::shared_ptr<State> state = state_;
  const auto checking_program = [state] { run(*state, RunMode::checking, nullptr); };
  state_->layout = ParameterLayout::from_model(make_log_joint(checking_program));
  state_->checking = false;
  // Bounds computed from parameters are found by a run without the likelihood; held
  // weakly, since the layout lives in the state the run reads.
  const std::weak_ptr<State> weak = state_;
  state_->layout.set_support_model(make_log_joint([weak] {
    const std::shared_ptr<State> alive = weak.lock();
    if (!alive) throw ArgumentError("the model of this parameter layout no longer exists");
    run(*alive, RunMode::derived, nullptr);
  }), true);
}

const CheckedModel& CompiledModel::checked() const { return *state_->checked; }

Model CompiledModel::program() const {
  const std::shared_ptr<State> state = state_;
  return [state] { run(*state, RunMode::density, nullptr); };
}

LogJoint CompiledModel::log_joint() const {
  std::set<std::string> unscored;  // parameters whose prior another part adds
  const CheckedModel& model = *state_->checked;
  for (const auto& node : model.nodes) {
    if (node.kind != NodeKind::observed && node.distribution && !scores(*node.distribution)) {
      unscored.insert(node.name);
    }
  }
  return LogJoint(program(), {}, std::move(unscored));
}

const ParameterLayout& CompiledModel::layout() const { return state_->layout; }

UnconstrainedTarget CompiledModel::target() const {
  return UnconstrainedTarget(log_joint(), state_->layout, state_->options.device);
}

const std::vector<std::string>& CompiledModel::derived_names() const {
  return state_->derived_names;
}

ValueMap CompiledModel::derived(const ValueMap& given) const {
  std::map<std::string, Value> environment;
  bool batched = false;
  for (const auto& p : state_->layout.parameters()) {
    const auto it = given.find(p.name);
    batched = batched || (it != given.end() && it->second.dim() > static_cast<int64_t>(p.shape.size()));
  }
  const at::Device device = state_->options.device;
  ValueMap parameters = given;  // on the model's device
  if (!device.is_cpu()) {
    for (auto& [name, value] : parameters) value = value.to(device);
  }
  {
    std::optional<BatchedEvaluationScope> batch;
    if (batched) batch.emplace();
    Condition values(parameters);
    TracerScope scope(values);
    run(*state_, RunMode::derived, &environment);
  }
  ValueMap result;
  for (const auto& name : state_->derived_names) {
    const at::Tensor& value = environment.at(name).tensor;
    result[name] = device.is_cpu() ? value : value.to(at::kCPU);
  }
  return result;
}

std::vector<DrawQuantity> CompiledModel::draw_quantities() const {
  const Centering& centering = checked().centering;
  std::map<std::string, std::string> presented;  // stand-in -> the user's variable
  for (const auto& [name, lambda] : centering) presented[standardized_name(name)] = name;
  std::vector<DrawQuantity> quantities;
  for (const auto& p : layout().parameters()) {
    const auto it = presented.find(p.name);
    const std::string& name = it == presented.end() ? p.name : it->second;
    quantities.push_back({name, shape(name)});
  }
  for (const auto& name : derived_names()) {
    if (!centering.count(name)) quantities.push_back({name, shape(name)});
  }
  return quantities;
}

DrawColumns CompiledModel::draw_columns() const {
  const CompiledModel model = *this;  // a copy shares the immutable state
  // One point as a batch of one, as the sampler's batched evaluations see it; each value
  // then drops the batch dimension (left as it is when its size is wrong, for
  // DrawColumns to report).
  const auto point = [](const at::Tensor& batch, const Shape& shape) {
    return batch.numel() == numel(shape) ? batch.reshape(shape) : batch;
  };
  return DrawColumns(
      [model, point](const at::Tensor& theta) {
        const ValueMap parameters = model.layout().constrain(theta.unsqueeze(0)).values;
        const ValueMap derived =
            model.derived_names().empty() ? ValueMap{} : model.derived(parameters);
        NamedValues values;
        for (const DrawQuantity& quantity : model.draw_quantities()) {
          const auto it = parameters.find(quantity.name);
          values.emplace_back(quantity.name,
                              point(it != parameters.end() ? it->second : derived.at(quantity.name), quantity.shape));
        }
        return values;
      },
      draw_quantities(), layout().dimension());
}

const Shape& CompiledModel::shape(const std::string& name) const {
  const auto it = state_->shapes.find(name);
  if (it == state_->shapes.end()) throw ArgumentError("the model has no value named '" + name + "'");
  return it->second;
}

const std::map<std::string, Value>& CompiledModel::data_values() const {
  return state_->data.values;
}

Value CompiledModel::evaluate(const Expr& expr, const std::map<std::string, Value>& values) const {
  Evaluator evaluator(values, state_->data.names, state_->constants, false, &state_->data.values);
  return evaluator.evaluate(expr);
}

const std::set<std::string>& CompiledModel::scored_nodes() const { return state_->scored; }

bool CompiledModel::scores(size_t statement) const { return model::scores(*state_, statement); }

const CompileOptions& CompiledModel::options() const { return state_->options; }

std::vector<FusedLikelihoodInfo> CompiledModel::fused_likelihoods() const {
  std::vector<FusedLikelihoodInfo> result;
  for (const auto& [statement, fused] : state_->fused) {
    result.push_back({fused.name, kernels::glm_family_name(fused.data->family), fused.data->rows(),
                      fused.data->columns(), !fused.intercept_terms.empty()});
  }
  return result;
}

const FusedLikelihood* CompiledModel::fused_likelihood(size_t statement) const {
  const auto it = state_->fused.find(statement);
  return it == state_->fused.end() ? nullptr : &it->second;
}

long CompiledModel::fused_evaluations() const {
  return state_->fused_evaluations.load(std::memory_order_relaxed);
}

}  // namespace variate::model
