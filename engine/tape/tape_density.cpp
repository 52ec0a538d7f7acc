#include "variate/tape/tape_density.h"

namespace variate::tape {
namespace {

class TapeEvaluator : public PointEvaluator {
 public:
  explicit TapeEvaluator(std::shared_ptr<const Program> program)
      : program_(std::move(program)), work_(program_->make_work()) {}

  double log_density(const double* q, double* gradient, bool jacobian) override {
    return program_->log_density(q, gradient, work_, jacobian);
  }

 private:
  std::shared_ptr<const Program> program_;
  Work work_;
};

}  // namespace

TapeDensity::TapeDensity(Program program)
    : program_(std::make_shared<const Program>(std::move(program))) {}

std::unique_ptr<PointEvaluator> TapeDensity::evaluator() const {
  return std::make_unique<TapeEvaluator>(program_);
}

}  // namespace variate::tape
