#include "engine/deep/amortized_model.h"

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/argument_error.h"
#include "engine/core/checks.h"
#include "engine/core/distribution.h"
#include "engine/core/random_stream.h"
#include "engine/deep/normal_kl.h"
#include "engine/model/data_binding.h"
#include "engine/model/distribution_table.h"
#include "engine/model/evaluator.h"
#include "engine/model/model_error.h"
#include "engine/model/network_call.h"
#include "engine/model/printer.h"

namespace variate::deep {

using model::Expr;
using model::ExprKind;
using model::ModelError;
using model::Node;
using model::NodeKind;
using model::RandomStmt;
using model::Value;

namespace {

// One data set bound to the model: the training rows or the held-out ones.
struct RowData {
  model::BoundData bound;
  int64_t rows = 0;
};

// What a pass over the statements computes.
enum class Mode {
  elbo,         // each row's ELBO from one reparameterized draw
  reconstruct,  // the likelihood's mean at the guide's mean
  prior,        // the likelihood's mean at draws from the prior
  encode,       // the guide's mean of the first latent
};

struct ObservedInfo {
  size_t statement = 0;
  std::string name;
  Shape row_shape;
};

// The names an expression reads.
void collect_names(const Expr& e, std::set<std::string>& names) {
  if (e.kind == ExprKind::name) names.insert(e.name);
  for (const auto& operand : e.operands) collect_names(operand, names);
  for (const auto& argument : e.arguments) {
    // An activation's name is a keyword, not a value.
    if (!(model::is_network_call(e) && argument.name == "activation")) collect_names(argument.value, names);
  }
}

std::string shape_text(c10::IntArrayRef shape, const std::string& row_axis) {
  std::string text = "[";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d) text += ", ";
    text += d == 0 && !row_axis.empty() ? row_axis : std::to_string(shape[d]);
  }
  return text + "]";
}

// The tensors of a distribution call's parameters, in its parameterization's order.
struct EvaluatedCall {
  const model::DistributionSignature* signature = nullptr;
  size_t parameterization = 0;
  std::vector<at::Tensor> tensors;
};

}  // namespace

struct AmortizedModel::State {
  std::shared_ptr<const model::CheckedModel> checked;
  AmortizedOptions options;
  RowData train;
  std::optional<RowData> heldout;
  std::string row_axis;
  std::set<std::string> row_data;  // inputs declared with the row axis first
  std::vector<NetworkInfo> networks;
  std::map<std::string, torch::nn::Sequential> modules;
  std::map<std::string, size_t> network_index;
  std::shared_ptr<torch::nn::Module> root = std::make_shared<torch::nn::Module>("networks");
  std::vector<LatentInfo> latents;
  std::map<std::string, size_t> latent_index;
  std::vector<ObservedInfo> observed;
  // Names the likelihood reads through priors and networks, not through guides: what a
  // draw from the prior must compute.
  std::set<std::string> generative;
  int64_t noise_width = 0;

  const std::vector<model::Statement>& statements() const { return checked->program.statements; }

  void find_structure();
  void check_data(const RowData& data) const;
  void build_networks(const RowData& data);
  at::Tensor run(const RowData& data, const at::Tensor& rows, const at::Tensor& noise, Mode mode,
                 bool checking) const;
  class Pass;
};

void AmortizedModel::State::find_structure() {
  const auto& model = *checked;
  for (const Node& n : model.nodes) {
    if (n.kind == NodeKind::latent && !n.guide) {
      const auto& random = *statements()[*n.distribution].as<RandomStmt>();
      throw ModelError(random.name_span, "'" + n.name + "' has no guide: in a model with networks every latent "
                                         "variable has one value per observation and a guide, as in "
                                         "`guide " + n.name + " ~ Normal(loc, scale)`");
    }
    if (!n.guide || n.kind != NodeKind::latent) continue;
    const auto& prior = *statements()[*n.distribution].as<RandomStmt>();
    if (prior.dims.empty() || prior.dims.front().kind != ExprKind::name ||
        !model.find(prior.dims.front().name) || !model.find(prior.dims.front().name)->declaration) {
      throw ModelError(prior.name_span, "'" + n.name + "' has a guide, so it has one value per observation: "
                                        "declare it with the number of observations first, as in `" + n.name +
                                        "[N, 20] ~ Normal(0, 1)`");
    }
    const std::string& axis = prior.dims.front().name;
    if (!row_axis.empty() && axis != row_axis) {
      throw ModelError(prior.dims.front().span, "every guided latent variable has the same row axis; '" +
                                                    latents.front().name + "' has " + row_axis);
    }
    row_axis = axis;
    latent_index[n.name] = latents.size();
    latents.push_back({n.name, {}, false});
    const auto& guide = *statements()[*n.guide].as<RandomStmt>();
    latents.back().analytic_kl = prior.distribution.name == "Normal" && guide.distribution.name == "Normal";
  }
  if (latents.empty()) {
    throw ModelError(statements().empty() ? model::Span{} : statements().front().name_span(),
                     "a model with networks needs a latent variable with a guide (amortized variational "
                     "inference), as in `z[N, 20] ~ Normal(0, 1)` and `guide z ~ Normal(...)`");
  }
  for (const auto& statement : statements()) {
    const auto* data = statement.as<model::DataDecl>();
    if (data && !data->dims.empty() && data->dims.front().kind == ExprKind::name &&
        data->dims.front().name == row_axis) {
      row_data.insert(data->name);
    }
  }
  for (size_t s : model.evaluation_order) {
    const auto* random = statements()[s].as<RandomStmt>();
    if (!random || model.find(random->name)->kind != NodeKind::observed) continue;
    if (!row_data.count(random->name)) {
      throw ModelError(random->name_span, "'" + random->name + "' is observed but has no row per observation; "
                                          "declare it with " + row_axis + " first, as in `data " + random->name +
                                          ": real[" + row_axis + ", 784]`");
    }
    observed.push_back({s, random->name, {}});
  }
  if (observed.empty()) {
    throw ModelError(statements().front().name_span(), "a model with networks needs observed data (its likelihood)");
  }
  // What the likelihood reads, walking back through priors, networks and `=` nodes.
  std::vector<std::string> pending;
  for (const auto& o : observed) {
    std::set<std::string> names;
    collect_names(statements()[o.statement].as<RandomStmt>()->distribution, names);
    pending.insert(pending.end(), names.begin(), names.end());
  }
  while (!pending.empty()) {
    const std::string name = pending.back();
    pending.pop_back();
    if (!generative.insert(name).second) continue;
    const Node* n = model.find(name);
    if (!n) continue;
    std::set<std::string> names;
    if (n->assignment) collect_names(statements()[*n->assignment].as<model::Deterministic>()->value, names);
    if (n->distribution && n->kind == NodeKind::latent) {
      collect_names(statements()[*n->distribution].as<RandomStmt>()->distribution, names);
    }
    pending.insert(pending.end(), names.begin(), names.end());
  }
}

void AmortizedModel::State::check_data(const RowData& data) const {
  for (const auto& o : observed) {
    const auto& random = *statements()[o.statement].as<RandomStmt>();
    if (random.distribution.name != "Bernoulli") continue;
    // Pixel intensities in [0, 1], as the usual VAE's binary cross-entropy reads them.
    const at::Tensor& x = data.bound.values.at(o.name).tensor;
    if (!((x >= 0) & (x <= 1)).all().item<bool>()) {
      throw ModelError(random.name_span, "'" + o.name + "' has values outside [0, 1], where a Bernoulli "
                                         "likelihood has none (intensities must be scaled to [0, 1])");
    }
  }
}

void AmortizedModel::State::build_networks(const RowData& data) {
  // The checking pass builds each network when it first sees its input's width.
  const int64_t check_rows = std::min<int64_t>(data.rows, 2);
  if (check_rows == 0) {
    throw ModelError(statements()[*checked->find(row_axis)->declaration].name_span(),
                     "the data has no rows (" + row_axis + " = 0)");
  }
  const at::Tensor rows = at::arange(check_rows, at::kLong);
  const at::Tensor noise = at::zeros({check_rows, noise_width}, at::TensorOptions(options.dtype));
  run(data, rows, noise, Mode::elbo, true);
}

namespace {

// `compute()`, its argument and LibTorch errors located at `at`.
template <class Compute>
auto located(const Expr& at, const Compute& compute) {
  try {
    return compute();
  } catch (const ModelError&) {
    throw;
  } catch (const ArgumentError& e) {
    throw ModelError(at.span, e.what());
  } catch (const c10::Error& e) {
    throw ModelError(at.span, e.what_without_backtrace());
  }
}

}  // namespace

// One pass over the statements for some rows: the values it computes by name, each row's
// ELBO, and one step per kind of statement. While checking it builds networks and learns
// shapes, reporting problems at the text that causes them.
class AmortizedModel::State::Pass {
 public:
  Pass(State& state, const RowData& data, const at::Tensor& rows, const at::Tensor& noise, Mode mode, bool checking)
      : state_(state), data_(data), noise_(noise), mode_(mode), checking_(checking),
        batch_(mode == Mode::prior ? noise.size(0) : rows.size(0)),
        evaluator_(environment_, data.bound.names, no_constants_, checking, &data.bound.values),
        elbo_(at::zeros({batch_}, at::TensorOptions(state.options.dtype))) {
    if (mode != Mode::prior) {
      for (const auto& name : state.row_data) {
        const Value& whole = data.bound.values.at(name);
        environment_[name] = Value{whole.tensor.index_select(0, rows), false, whole.integer};
      }
    }
    int64_t column = 0;
    for (const auto& latent : state.latents) {
      noise_columns_[latent.name] = column;
      column += numel(latent.row_shape);
    }
  }

  // Each row's ELBO; or what the mode asks for, where the pass ends early.
  at::Tensor run() {
    ValidationGuard validation(checking_);
    const auto& model = *state_.checked;
    for (size_t s : model.evaluation_order) {
      const auto& statement = state_.statements()[s];
      const Node& node = *model.find(statement.name());
      if (mode_ == Mode::prior && !state_.generative.count(node.name) && node.kind != NodeKind::observed) continue;
      std::optional<at::Tensor> result;
      if (const auto* assignment = statement.as<model::Deterministic>()) {
        assign(node, *assignment);
      } else if (const auto& random = *statement.as<RandomStmt>(); random.guide) {
        result = guide(random);
      } else if (node.kind == NodeKind::latent) {
        latent(random);
      } else {
        result = observed(random);
      }
      if (result) return *result;
    }
    return elbo_;
  }

 private:
  void assign(const Node& node, const model::Deterministic& assignment) {
    if (model::is_network_call(assignment.value)) return network(node, assignment);
    if (node.is_data_valued() && !state_.row_data.count(node.name) && mode_ == Mode::prior) return;
    environment_[node.name] = evaluator_.evaluate(assignment.value);
  }

  void network(const Node& node, const model::Deterministic& assignment) {
    model::Diagnostics ignored;
    const auto call = *model::read_network_call(assignment.value, ignored);
    const Value input = evaluator_.evaluate(*call.input);
    if (checking_ && (input.tensor.dim() != 2 || input.tensor.size(0) != batch_)) {
      throw ModelError(call.input->span, "a network's input is a matrix [" + state_.row_axis + ", features], one "
                                         "row per observation, but '" + model::to_string(*call.input) + "' is " +
                                         shape_text(input.tensor.sizes(), input.tensor.dim() ? state_.row_axis : ""));
    }
    if (checking_ && !state_.modules.count(node.name)) add_network(node.name, {input.tensor.size(1), call.widths,
                                                                               call.activation});
    torch::nn::Sequential module = state_.modules.at(node.name);  // a handle
    const int64_t width = state_.networks[state_.network_index.at(node.name)].spec.input_width;
    if (input.tensor.size(1) != width) {
      throw ModelError(call.input->span, "the network '" + node.name + "' takes " + std::to_string(width) +
                                             " features per row, but '" + model::to_string(*call.input) +
                                             "' has " + std::to_string(input.tensor.size(1)));
    }
    environment_[node.name] = Value{module->forward(input.tensor.to(state_.options.dtype)), false, false};
  }

  // A network made when the checking pass first sees its input's width, its weights drawn
  // from the seed and its place among the networks.
  void add_network(const std::string& name, const MlpSpec& spec) {
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(
        RandomStream::for_chain(state_.options.seed, static_cast<int>(state_.networks.size()) + 1).next());
    torch::nn::Sequential module = make_mlp(spec, generator);
    module->to(state_.options.dtype);
    state_.root->register_module(name, module);
    state_.modules.emplace(name, module);
    state_.network_index[name] = state_.networks.size();
    state_.networks.push_back({name, spec});
  }

  // A guide: the latent's reparameterized draw (its mean when reconstructing), and the
  // entropy's single-draw estimate where the KL is not in closed form.
  std::optional<at::Tensor> guide(const RandomStmt& random) {
    if (mode_ == Mode::prior) return std::nullopt;
    const LatentInfo& latent = state_.latents[state_.latent_index.at(random.name)];
    const EvaluatedCall call = evaluate_call(random.distribution);
    const at::Tensor loc = call.tensors[0], scale = call.tensors[1];
    const Shape shape = concat({batch_}, latent.row_shape);
    if (checking_) {
      const Shape given = located(random.distribution, [&] { return broadcast_shapes(loc.sizes(), scale.sizes()); });
      check_shape(random.distribution, "the guide of '" + random.name + "'", given, shape);
      build(random.distribution, call);  // validates the guide's arguments
    }
    const at::Tensor want_loc = loc.expand(shape);
    const at::Tensor want_scale = scale.expand(shape);
    if (mode_ == Mode::encode) return want_loc;
    guide_params_[random.name] = {want_loc, want_scale};
    const at::Tensor z = mode_ == Mode::reconstruct ? want_loc : want_loc + want_scale * noise_of(latent);
    environment_[random.name] = Value{z, false, false};
    if (mode_ == Mode::elbo && !latent.analytic_kl) {
      elbo_ = elbo_ - row_sum(build(random.distribution, call)->log_prob(z));  // -log q(z | x)
    }
    return std::nullopt;
  }

  // A latent's prior: a draw from it, or its term of the ELBO (the KL from its guide in
  // closed form for a Normal pair).
  void latent(const RandomStmt& random) {
    const LatentInfo& latent = state_.latents[state_.latent_index.at(random.name)];
    const EvaluatedCall call = evaluate_call(random.distribution);
    if (mode_ == Mode::prior) {
      if (random.distribution.name != "Normal") {
        throw ArgumentError("draws from the prior of '" + random.name + "' need a Normal prior");
      }
      const Shape shape = concat({batch_}, latent.row_shape);
      environment_[random.name] =
          Value{call.tensors[0].expand(shape) + call.tensors[1].expand(shape) * noise_of(latent), false, false};
      return;
    }
    if (mode_ != Mode::elbo) return;
    const at::Tensor& z = environment_.at(random.name).tensor;
    if (latent.analytic_kl) {
      const auto& [loc, scale] = guide_params_.at(random.name);
      elbo_ = elbo_ - row_sum(normal_kl(loc, scale, call.tensors[0], call.tensors[1]).expand_as(z));
    } else {
      elbo_ = elbo_ + row_sum(build(random.distribution, call)->log_prob(z).expand_as(z));
    }
  }

  // An observed variable: its likelihood's term of the ELBO, or (for the first) its mean,
  // which ends a reconstruction or a draw from the prior.
  std::optional<at::Tensor> observed(const RandomStmt& random) {
    const EvaluatedCall call = evaluate_call(random.distribution);
    const at::Tensor& x = environment_.count(random.name) ? environment_.at(random.name).tensor
                                                          : data_.bound.values.at(random.name).tensor;
    if (checking_ && mode_ == Mode::elbo) learn_observed_shape(random, call, x);
    if (mode_ == Mode::elbo) {
      elbo_ = elbo_ + row_sum(build(random.distribution, call)->log_prob(x.to(state_.options.dtype)));
      return std::nullopt;
    }
    if (random.name != state_.observed.front().name) return std::nullopt;
    const bool logits = random.distribution.name == "Bernoulli" && call.parameterization == 1;
    if (random.distribution.name != "Bernoulli" && random.distribution.name != "Normal") {
      throw ArgumentError("reconstructions are drawn for Bernoulli and Normal likelihoods, not " +
                          random.distribution.name);
    }
    return logits ? at::sigmoid(call.tensors[0]) : call.tensors[0].expand(x.sizes());
  }

  void learn_observed_shape(const RandomStmt& random, const EvaluatedCall& call, const at::Tensor& x) {
    Shape parameters_shape;
    for (const auto& t : call.tensors) {
      parameters_shape = located(random.distribution, [&] { return broadcast_shapes(parameters_shape, t.sizes()); });
    }
    check_shape(random.distribution, random.distribution.name + "(...) for '" + random.name + "'",
                parameters_shape, x.sizes().vec());
    for (auto& o : state_.observed) {
      if (o.name == random.name) o.row_shape = Shape(x.sizes().begin() + 1, x.sizes().end());
    }
  }

  EvaluatedCall evaluate_call(const Expr& call) {
    EvaluatedCall result;
    result.signature = model::find_distribution(call.name);
    const auto bound = *model::bind_arguments(*result.signature, call);
    result.parameterization = bound.parameterization;
    for (size_t p = 0; p < bound.argument_of_parameter.size(); ++p) {
      result.tensors.push_back(evaluator_.evaluate(call.arguments[bound.argument_of_parameter[p]].value).tensor);
    }
    return result;
  }

  DistributionPtr build(const Expr& call, const EvaluatedCall& evaluated) const {
    return located(call, [&] {
      model::DistributionArguments arguments;
      arguments.tensors = evaluated.tensors;
      return evaluated.signature->build(evaluated.parameterization, arguments);
    });
  }

  // Densities of constants may come out float64; the ELBO stays in the model's dtype.
  at::Tensor row_sum(const at::Tensor& t) const {
    return (t.dim() > 1 ? t.flatten(1).sum(1) : t).to(state_.options.dtype);
  }

  void check_shape(const Expr& at, const std::string& what, c10::IntArrayRef got, const Shape& want) const {
    if (!checking_ || got.equals(want)) return;
    throw ModelError(at.span, what + " gives " + shape_text(got, state_.row_axis) + " values, but it is " +
                                  shape_text(want, state_.row_axis));
  }

  at::Tensor noise_of(const LatentInfo& latent) const {
    return noise_.narrow(1, noise_columns_.at(latent.name), numel(latent.row_shape))
        .reshape(concat({batch_}, latent.row_shape));
  }

  State& state_;
  const RowData& data_;
  const at::Tensor& noise_;
  const Mode mode_;
  const bool checking_;
  const int64_t batch_;
  std::map<std::string, Value> environment_;
  model::ConstantCache no_constants_;  // batches change: nothing is cached
  model::Evaluator evaluator_;         // reads environment_
  at::Tensor elbo_;
  std::map<std::string, std::pair<at::Tensor, at::Tensor>> guide_params_;  // loc, scale by latent
  std::map<std::string, int64_t> noise_columns_;
};

at::Tensor AmortizedModel::State::run(const RowData& data, const at::Tensor& rows, const at::Tensor& noise,
                                      Mode mode, bool checking) const {
  auto& self = const_cast<State&>(*this);  // checking builds networks and learns shapes
  return Pass(self, data, rows, noise, mode, checking).run();
}

AmortizedModel::AmortizedModel(std::shared_ptr<const model::CheckedModel> checked, const Data& data,
                               const AmortizedOptions& options)
    : state_(std::make_unique<State>()) {
  if (options.dtype != at::kFloat && options.dtype != at::kDouble) {
    throw ArgumentError("AmortizedModel: the dtype must be float32 or float64");
  }
  state_->checked = std::move(checked);
  state_->options = options;
  model::ConstantCache constants;
  state_->train.bound = model::bind_data(*state_->checked, data, constants, options.dtype);
  state_->find_structure();
  state_->train.rows = state_->train.bound.values.at(state_->row_axis).tensor.item<int64_t>();
  // Each latent's row shape, from its prior's sizes after the first (data sizes).
  for (auto& latent : state_->latents) {
    const Node& n = *state_->checked->find(latent.name);
    const auto& prior = *state_->statements()[*n.distribution].as<RandomStmt>();
    model::ConstantCache sizes;
    std::map<std::string, Value> none;
    model::Evaluator evaluator(none, state_->train.bound.names, sizes, true, &state_->train.bound.values);
    for (size_t d = 1; d < prior.dims.size(); ++d) {
      const Value size = evaluator.evaluate(prior.dims[d]);
      if (!size.integer || size.rank() != 0) {
        throw ModelError(prior.dims[d].span, "a size must be an integer from the data");
      }
      latent.row_shape.push_back(size.tensor.item<int64_t>());
    }
    state_->noise_width += numel(latent.row_shape);
  }
  state_->check_data(state_->train);
  state_->build_networks(state_->train);
}

AmortizedModel::~AmortizedModel() = default;
AmortizedModel::AmortizedModel(AmortizedModel&&) noexcept = default;
AmortizedModel& AmortizedModel::operator=(AmortizedModel&&) noexcept = default;

const model::CheckedModel& AmortizedModel::checked() const { return *state_->checked; }
const AmortizedOptions& AmortizedModel::options() const { return state_->options; }
int64_t AmortizedModel::rows() const { return state_->train.rows; }
const std::string& AmortizedModel::row_axis() const { return state_->row_axis; }
const std::vector<NetworkInfo>& AmortizedModel::network_infos() const { return state_->networks; }
const std::vector<LatentInfo>& AmortizedModel::latents() const { return state_->latents; }
int64_t AmortizedModel::noise_width() const { return state_->noise_width; }
torch::nn::Module& AmortizedModel::networks() { return *state_->root; }
const torch::nn::Module& AmortizedModel::networks() const { return *state_->root; }

void AmortizedModel::bind_heldout(const Data& data) {
  RowData heldout;
  model::ConstantCache constants;
  heldout.bound = model::bind_data(*state_->checked, data, constants, state_->options.dtype);
  heldout.rows = heldout.bound.values.at(state_->row_axis).tensor.item<int64_t>();
  state_->check_data(heldout);
  const int64_t check_rows = std::min<int64_t>(heldout.rows, 2);
  at::NoGradGuard no_grad;
  state_->run(heldout, at::arange(check_rows, at::kLong),
              at::zeros({check_rows, state_->noise_width}, at::TensorOptions(state_->options.dtype)), Mode::elbo, true);
  state_->heldout = std::move(heldout);
}

bool AmortizedModel::has_heldout() const { return state_->heldout.has_value(); }
int64_t AmortizedModel::heldout_rows() const { return state_->heldout ? state_->heldout->rows : 0; }

namespace {

const RowData& rows_of(const AmortizedModel::State& state, bool heldout) {
  if (heldout && !state.heldout) throw ArgumentError("AmortizedModel: no held-out data is bound");
  return heldout ? *state.heldout : state.train;
}

}  // namespace

at::Tensor AmortizedModel::row_elbo(const at::Tensor& rows, const at::Tensor& noise, bool heldout) const {
  return state_->run(rows_of(*state_, heldout), rows, noise.to(state_->options.dtype), Mode::elbo, false);
}

at::Tensor AmortizedModel::reconstruct(const at::Tensor& rows, bool heldout) const {
  at::NoGradGuard no_grad;
  const at::Tensor noise = at::zeros({rows.size(0), state_->noise_width}, at::TensorOptions(state_->options.dtype));
  return state_->run(rows_of(*state_, heldout), rows, noise, Mode::reconstruct, false);
}

at::Tensor AmortizedModel::sample_prior(const at::Tensor& prior_noise) const {
  at::NoGradGuard no_grad;
  return state_->run(state_->train, at::Tensor(), prior_noise.to(state_->options.dtype), Mode::prior, false);
}

at::Tensor AmortizedModel::encode(const at::Tensor& rows, bool heldout) const {
  at::NoGradGuard no_grad;
  const at::Tensor noise = at::zeros({rows.size(0), state_->noise_width}, at::TensorOptions(state_->options.dtype));
  return state_->run(rows_of(*state_, heldout), rows, noise, Mode::encode, false);
}

const std::string& AmortizedModel::observed_name() const { return state_->observed.front().name; }
const Shape& AmortizedModel::observed_row_shape() const { return state_->observed.front().row_shape; }

}  // namespace variate::deep
