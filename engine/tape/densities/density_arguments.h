#pragma once
/// What the log-density sinks share while they are built: reading observed data, mapping
/// the rows of an argument onto the rows of the value, folding data-only terms.

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/tape/program/builder.h"

namespace variate::tape {

/// The values of an observed variable (discrete families score data only).
/// @throws Unsupported, naming `family`, when the value depends on parameters.
std::vector<double> observed_values(const ProgramBuilder& builder, const Slot& value,
                                    const std::string& family);

/// 0 when an argument of an event-rank-0 family is one value for all `n` elements, 1 when
/// it has one per element (the compiler broadcasts to one of the two).
/// @throws Unsupported, naming `what`, for any other size.
int64_t elementwise_stride(const Slot& argument, int64_t n, const std::string& what);

/// A Binomial's trials N for each of its `n` elements, from `trials` (one value or n).
/// @throws Unsupported when N depends on parameters, which no kernel here takes.
std::vector<double> binomial_trials(const ProgramBuilder& builder, const Slot& trials, int64_t n);

/// Shape without its last `count` dimensions (the batch of rows of event entries).
Shape leading_shape(const Shape& shape, int64_t count);

/// How many rows `argument` has, where its shape is rows of `event_rank` trailing
/// dimensions: row r of the value's `value_rows` reads row r % period, as NumPy's
/// broadcasting does when the argument's leading shape (less leading 1s) ends the value's.
/// @throws Unsupported, naming `what`, for any other broadcast.
int64_t row_period(const Slot& argument, int64_t event_rank, const Shape& value_rows,
                   const std::string& what);

/// The component stride of a Mixture component's argument, whose last axis is the component
/// axis: 1 for one value per component of the `C`, 0 for one value for all.
/// @throws Unsupported, naming the component's `family`, for any other last axis.
int64_t mixture_component_stride(const Slot& argument, int64_t C, const std::string& family);

/// A constant slot's values as a float64 tensor of its shape, to fold data-only terms
/// with the same LibTorch functions the family's log_prob calls.
at::Tensor constant_tensor(const ProgramBuilder& builder, const Slot& slot);

/// The instruction of a sink named `name` run by `kernel`, over `n` elements.
Instruction sink_instruction(Kernel kernel, const char* name, int64_t n);

/// Operand k of a sink reads `slot`.
void set_operand(Instruction& op, int k, const Slot& slot, int64_t stride = 1);

}  // namespace variate::tape
