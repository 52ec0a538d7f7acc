#include "engine/tape/densities/glm_log_density.h"

#include <cmath>

#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// The coefficient blocks copied into one vector: in[k] and dims... are per block, so the
// blocks are described in the index pool as (offset, size, varying) triples.
void concat_forward(const Instruction& op, Sweep& s) {
  const int64_t* blocks = s.indices + op.index;
  double* out = s.values + op.out;
  for (int64_t b = 0; b < op.dims[0]; ++b) {
    const double* x = s.values + blocks[3 * b];
    for (int64_t i = 0; i < blocks[3 * b + 1]; ++i) *out++ = x[i];
  }
}

void concat_backward(const Instruction& op, Sweep& s) {
  const int64_t* blocks = s.indices + op.index;
  const double* out = s.adjoints + op.out;
  for (int64_t b = 0; b < op.dims[0]; ++b) {
    const int64_t size = blocks[3 * b + 1];
    if (blocks[3 * b + 2]) {
      double* x = s.adjoints + blocks[3 * b];
      for (int64_t i = 0; i < size; ++i) x[i] += out[i];
    }
    out += size;
  }
}

// in: [0] alpha, [1] beta, [2] sigma (Normal), [3] the kernel's sums (scratch, 2 + K).
void glm_sink(const Instruction& op, Sweep& s) {
  const auto& data = *static_cast<const kernels::GlmData*>(op.aux);
  const int64_t k = op.dims[0];
  double* sums = s.values + op.in[3];
  const kernels::GlmPoints points{s.values + op.in[0], 0, s.values + op.in[1], 0, 1};
  kernels::glm_sums(data.family, data.x_columns, data.y, data.trials, points, true, sums);
  double scale = 1;  // of the residual sums: 1 / sigma^2 for the Normal
  if (data.family == kernels::GlmFamily::normal) {
    // -S / (2 sigma^2) - N log sigma - N/2 log 2 pi, S the residual sum of squares, as
    // kernels/glm_log_likelihood.cpp computes it.
    const double n = static_cast<double>(data.rows());
    const double sd = s.values[op.in[2]];
    scale = 1 / (sd * sd);
    s.lp += -0.5 * sums[0] * scale - n * std::log(sd) + data.constant;
    if (op.varying[2]) s.adjoints[op.in[2]] += (sums[0] * scale - n) / sd;
  } else {
    s.lp += sums[0] + data.constant;
  }
  if (op.varying[0]) s.adjoints[op.in[0]] += sums[1] * scale;
  if (op.varying[1]) {
    double* beta = s.adjoints + op.in[1];
    for (int64_t j = 0; j < k; ++j) beta[j] += sums[2 + j] * scale;
  }
}

Slot concatenate(ProgramBuilder& builder, const std::vector<Slot>& blocks) {
  int64_t size = 0;
  bool varying = false;
  std::vector<int64_t> triples;
  for (const Slot& block : blocks) {
    // The index pool holds arena offsets as they are: a constant's is not known yet.
    if (!block.varying && blocks.size() > 1) throw Unsupported("a GLM with data among its coefficients");
    triples.insert(triples.end(), {block.offset, block.size, block.varying ? 1 : 0});
    size += block.size;
    varying = varying || block.varying;
  }
  if (!varying) {
    std::vector<double> values;
    for (const Slot& block : blocks) {
      const std::vector<double> v = builder.constant_values(block);
      values.insert(values.end(), v.begin(), v.end());
    }
    return builder.constant({size}, std::move(values));
  }
  const Slot out = builder.varying({size});
  Instruction op;
  op.forward = concat_forward;
  op.backward = concat_backward;
  op.name = "concat";
  op.out = out.offset;
  op.n = size;
  op.dims[0] = static_cast<int64_t>(blocks.size());
  op.index = builder.indices(triples);
  builder.append(op);
  return out;
}

}  // namespace

void emit_glm_log_density(ProgramBuilder& builder, std::shared_ptr<const kernels::GlmData> data,
                          const std::optional<Slot>& alpha, const std::vector<Slot>& coefficients,
                          const std::optional<Slot>& sigma) {
  if (data->x_columns.scalar_type() != at::kDouble) throw Unsupported("the tape computes in float64 only");
  const Slot beta = coefficients.size() == 1 ? coefficients[0] : concatenate(builder, coefficients);
  if (beta.size != data->columns()) {
    throw Unsupported("a GLM with " + std::to_string(beta.size) + " coefficients for " +
                      std::to_string(data->columns()) + " columns");
  }
  const Slot intercept = alpha ? *alpha : builder.scalar(0.0);
  const Slot sums = builder.varying({2 + beta.size});
  Instruction op;
  op.forward = glm_sink;
  op.sink = true;
  op.name = "glm_lpdf";
  op.n = data->rows();
  op.dims[0] = beta.size;
  op.in[0] = intercept.offset;
  op.varying[0] = intercept.varying;
  op.in[1] = beta.offset;
  op.varying[1] = beta.varying;
  if (sigma) {
    op.in[2] = sigma->offset;
    op.varying[2] = sigma->varying;
  }
  op.in[3] = sums.offset;
  op.aux = builder.keep(std::move(data));
  builder.append(op);
}

}  // namespace variate::tape
