#include "engine/deep/amortized_program.h"

#include <set>

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/core/checks.h"
#include "engine/core/distribution.h"
#include "engine/core/tracing.h"
#include "engine/deep/normal_kl.h"
#include "engine/distributions/normal.h"

namespace variate::deep {
namespace {

// A guide variable's reparameterized draw.
struct Draw {
  DistributionPtr distribution;
  at::Tensor loc, scale, value;
};

// Each variable's log density summed over all but its first (row) dimension.
at::Tensor row_sum(const at::Tensor& t, const std::string& name, int64_t batch) {
  if (t.dim() == 0 || t.size(0) != batch) {
    throw ArgumentError("'" + name + "' does not have one value per row of the batch (" + std::to_string(batch) +
                        " rows): its density has shape " + variate::to_string(t.sizes()));
  }
  return t.dim() > 1 ? t.flatten(1).sum(1) : t;
}

Shape shape_of(const RandomVariableSpec& spec) {
  return concat(concat(spec.sample_shape, spec.distribution->batch_shape()), spec.distribution->event_shape());
}

// Gives each guide variable loc + scale · its noise columns (zeros while learning shapes).
class GuideTracer : public Tracer {
 public:
  GuideTracer(int64_t batch, const at::Tensor& noise, const std::vector<std::pair<std::string, Shape>>* layout,
              at::ScalarType dtype)
      : batch_(batch), noise_(noise), layout_(layout), dtype_(dtype) {}

  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    const auto* normal = dynamic_cast<const distributions::Normal*>(spec.distribution.get());
    if (!normal) {
      throw ArgumentError("the guide's variable '" + spec.name + "' is " + spec.distribution->name() +
                          "; guide variables are Normal (their draws are reparameterized)");
    }
    const Shape shape = shape_of(spec);
    if (shape.empty() || shape[0] != batch_) {
      throw ArgumentError("the guide's variable '" + spec.name + "' has shape " + variate::to_string(shape) +
                          ", not one value per row of the batch (" + std::to_string(batch_) + " rows first)");
    }
    if (draws.count(spec.name)) throw ArgumentError("the guide creates '" + spec.name + "' twice");
    // In the program's dtype, whatever the guide's arguments are (a literal 0.0 is float64).
    Draw draw{spec.distribution, normal->mu().expand(shape).to(dtype_), normal->sigma().expand(shape).to(dtype_), {}};
    at::Tensor eps = at::zeros(shape, draw.loc.options());
    if (layout_) {
      int64_t column = 0;
      for (const auto& [name, row_shape] : *layout_) {
        if (name == spec.name) {
          if (concat({batch_}, row_shape) != shape) {
            throw ArgumentError("the guide's variable '" + spec.name + "' changed its shape to " +
                                variate::to_string(shape));
          }
          eps = noise_.narrow(1, column, numel(row_shape)).reshape(shape);
          break;
        }
        column += numel(row_shape);
      }
    }
    draw.value = draw.loc + draw.scale * eps;
    spec.value = draw.value;
    order.emplace_back(spec.name, Shape(shape.begin() + 1, shape.end()));
    draws[spec.name] = draw;
    return next(std::move(spec));
  }

  std::map<std::string, Draw> draws;
  std::vector<std::pair<std::string, Shape>> order;

 private:
  int64_t batch_;
  const at::Tensor& noise_;
  const std::vector<std::pair<std::string, Shape>>* layout_;
  at::ScalarType dtype_;
};

// Gives the model's latents the guide's draws and its observed variables the batch, and
// adds their log densities row by row.
class ModelTracer : public Tracer {
 public:
  ModelTracer(const Batch& batch, const std::map<std::string, Draw>& draws, at::ScalarType dtype)
      : total(at::zeros({batch.size()}, at::TensorOptions(dtype))), batch_(batch), draws_(draws) {}

  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    const int64_t b = batch_.size();
    if (batch_.data().contains(spec.name)) {
      const at::Tensor& x = batch_[spec.name];
      total = total + row_sum(spec.distribution->log_prob(x), spec.name, b).to(total.scalar_type());
      spec.value = x;
      return next(std::move(spec));
    }
    const auto draw = draws_.find(spec.name);
    if (draw == draws_.end()) {
      throw ArgumentError("the model's latent variable '" + spec.name + "' has no guide: give the guide a Normal "
                          "variable of that name with one value per row");
    }
    const Draw& q = draw->second;
    if (shape_of(spec) != q.value.sizes().vec()) {
      throw ArgumentError("'" + spec.name + "' is " + variate::to_string(shape_of(spec)) + " in the model but " +
                          variate::to_string(q.value.sizes()) + " in the guide");
    }
    used.insert(spec.name);
    if (const auto* prior = dynamic_cast<const distributions::Normal*>(spec.distribution.get())) {
      const at::Tensor kl = normal_kl(q.loc, q.scale, prior->mu(), prior->sigma());
      total = total - row_sum(kl.expand_as(q.value), spec.name, b).to(total.scalar_type());
    } else {
      total = total + (row_sum(spec.distribution->log_prob(q.value), spec.name, b) -
                       row_sum(q.distribution->log_prob(q.value), spec.name, b)).to(total.scalar_type());
    }
    spec.value = q.value;
    return next(std::move(spec));
  }

  std::set<std::string> used;
  at::Tensor total;

 private:
  const Batch& batch_;
  const std::map<std::string, Draw>& draws_;
};

struct RowSet {
  Data data;
  int64_t rows = 0;
};

}  // namespace

struct AmortizedProgram::State {
  BatchProgram model;
  BatchProgram guide;
  torch::nn::Module& networks;
  std::string row_variable;
  at::ScalarType dtype;
  RowSet train;
  std::optional<RowSet> heldout;
  std::vector<std::pair<std::string, Shape>> latents;
  int64_t noise_width = 0;

  State(BatchProgram m, BatchProgram g, torch::nn::Module& n, std::string r, at::ScalarType d)
      : model(std::move(m)), guide(std::move(g)), networks(n), row_variable(std::move(r)), dtype(d) {}

  // The data in the fit's dtype, with its row count.
  RowSet rows_of(const Data& data) const {
    RowSet set;
    if (!data.contains(row_variable) || data[row_variable].dim() == 0) {
      throw ArgumentError("AmortizedProgram: the data has no rows of '" + row_variable + "'");
    }
    set.rows = data[row_variable].size(0);
    for (const auto& [name, value] : data.values()) {
      set.data.set(name, value.is_floating_point() ? value.to(dtype) : value);
    }
    return set;
  }

  Batch batch(const RowSet& set, const at::Tensor& rows) const {
    Data cut;
    for (const auto& [name, value] : set.data.values()) {
      const bool row_wise = value.dim() > 0 && value.size(0) == set.rows;
      cut.set(name, row_wise ? value.index_select(0, rows) : value);
    }
    return Batch(std::move(cut), rows.size(0));
  }

  at::Tensor elbo(const Batch& batch, const at::Tensor& noise, bool learning_shapes) {
    ValidationGuard validation(false);  // Bernoulli reads intensities in [0, 1] as the usual VAE does
    GuideTracer guide_tracer(batch.size(), noise, learning_shapes ? nullptr : &latents, dtype);
    {
      TracerScope scope(guide_tracer);
      guide(batch);
    }
    if (learning_shapes) latents = guide_tracer.order;
    ModelTracer model_tracer(batch, guide_tracer.draws, dtype);
    {
      TracerScope scope(model_tracer);
      model(batch);
    }
    for (const auto& [name, draw] : guide_tracer.draws) {
      if (!model_tracer.used.count(name)) {
        throw ArgumentError("the guide's variable '" + name + "' is not a latent variable of the model");
      }
    }
    return model_tracer.total;
  }
};

AmortizedProgram::AmortizedProgram(BatchProgram model, BatchProgram guide, torch::nn::Module& networks, Data train,
                                   std::string row_variable, at::ScalarType dtype)
    : state_(std::make_unique<State>(std::move(model), std::move(guide), networks, std::move(row_variable), dtype)) {
  State& s = *state_;
  if (dtype != at::kFloat && dtype != at::kDouble) throw ArgumentError("AmortizedProgram: float32 or float64");
  if (s.row_variable.empty()) {
    for (const auto& [name, value] : train.values()) {
      if (value.dim() == 0) continue;
      if (!s.row_variable.empty()) {
        throw ArgumentError("AmortizedProgram: the data has several values with rows ('" + s.row_variable +
                            "', '" + name + "'): name the one whose rows are the observations");
      }
      s.row_variable = name;
    }
  }
  s.train = s.rows_of(train);
  const int64_t probe = std::min<int64_t>(2, s.train.rows);
  if (probe == 0) throw ArgumentError("AmortizedProgram: the data has no rows");
  at::NoGradGuard no_grad;
  s.elbo(s.batch(s.train, at::arange(probe, at::kLong)), at::Tensor(), true);
  for (const auto& [name, shape] : s.latents) s.noise_width += numel(shape);
}

AmortizedProgram::~AmortizedProgram() = default;

void AmortizedProgram::set_heldout(Data heldout) { state_->heldout = state_->rows_of(heldout); }
int64_t AmortizedProgram::rows() const { return state_->train.rows; }
int64_t AmortizedProgram::heldout_rows() const { return state_->heldout ? state_->heldout->rows : 0; }
int64_t AmortizedProgram::noise_width() const { return state_->noise_width; }
at::ScalarType AmortizedProgram::dtype() const { return state_->dtype; }
torch::nn::Module& AmortizedProgram::networks() { return state_->networks; }
const std::vector<std::pair<std::string, Shape>>& AmortizedProgram::latents() const { return state_->latents; }

at::Tensor AmortizedProgram::row_elbo(const at::Tensor& rows, const at::Tensor& noise, bool heldout) const {
  if (heldout && !state_->heldout) throw ArgumentError("AmortizedProgram: no held-out data is set");
  const RowSet& set = heldout ? *state_->heldout : state_->train;
  return state_->elbo(state_->batch(set, rows), noise.to(state_->dtype), false);
}

}  // namespace variate::deep
