#include "engine/tape/ops/gather.h"

#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

void gather_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  const int64_t* map = s.indices + op.index;
  double* out = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) out[i] = x[map[i]];
}

void gather_backward(const Instruction& op, Sweep& s) {
  double* x = s.adjoints + op.in[0];
  const int64_t* map = s.indices + op.index;
  const double* out = s.adjoints + op.out;
  for (int64_t i = 0; i < op.n; ++i) x[map[i]] += out[i];
}

}  // namespace

Slot emit_gather(ProgramBuilder& builder, const Slot& x, const std::vector<int64_t>& map,
                 const Shape& shape) {
  if (!x.varying) {
    std::vector<double> values;
    values.reserve(map.size());
    // A constant's values are not in the arena until the program is finished, so the
    // builder's copy is read through constant_values().
    const std::vector<double> source = builder.constant_values(x);
    for (int64_t i : map) values.push_back(source[static_cast<size_t>(i)]);
    return builder.constant(shape, std::move(values));
  }
  const Slot out = builder.varying(shape);
  Instruction op;
  op.forward = gather_forward;
  op.backward = gather_backward;
  op.name = "gather";
  op.out = out.offset;
  op.n = out.size;
  op.in[0] = x.offset;
  op.varying[0] = true;
  op.index = builder.indices(map);
  builder.append(op);
  return out;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw Unsupported("shapes " + to_string(a) + " and " + to_string(b) + " do not broadcast");
    }
    result[i] = da == 1 ? db : da;
  }
  return result;
}

Slot broadcast_to(ProgramBuilder& builder, const Slot& x, const Shape& shape) {
  if (x.shape == shape) return x;
  if (broadcast_shapes(x.shape, shape) != shape) {
    throw Unsupported("shape " + to_string(x.shape) + " does not broadcast to " + to_string(shape));
  }
  // Row-major strides of x aligned to the right of `shape`, 0 along broadcast dimensions.
  const size_t rank = shape.size();
  const size_t offset = rank - x.shape.size();
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = x.shape.size(); i-- > 0;) {
    strides[i + offset] = x.shape[i] == 1 ? 0 : stride;
    stride *= x.shape[i];
  }
  const int64_t n = numel(shape);
  std::vector<int64_t> map(static_cast<size_t>(n));
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d) source += index[d] * strides[d];
    map[static_cast<size_t>(i)] = source;
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return emit_gather(builder, x, map, shape);
}

}  // namespace variate::tape
