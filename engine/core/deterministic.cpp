#include "engine/core/deterministic.h"

#include "engine/core/checks.h"

namespace variate {
namespace {

thread_local DeterministicRecorder* active_recorder = nullptr;

}  // namespace

DeterministicRecorder::DeterministicRecorder() : previous_(active_recorder) {
  active_recorder = this;
}

DeterministicRecorder::~DeterministicRecorder() { active_recorder = previous_; }

at::Tensor deterministic(const std::string& name, at::Tensor value) {
  if (active_recorder) {
    if (name.empty()) throw ArgumentError("deterministic: argument 'name' must not be empty");
    active_recorder->values_.emplace_back(name, value);
  }
  return value;
}

}  // namespace variate
