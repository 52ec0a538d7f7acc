#include "engine/tape/program/tape_density.h"

#include <mutex>

#include "engine/core/memory.h"

namespace variate::tape {
namespace {

// An evaluator's scratch memory holds the data in place (values and adjoints over the
// whole arena): with large data, each chain thread's copy is checked against the memory
// left before it is made, one thread at a time, so a run that cannot fit stops with the
// sizes named instead of being killed by the system.
Work checked_work(const Program& program) {
  static std::mutex one_at_a_time;
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  check_memory(2.0 * 8 * static_cast<double>(program.arena_size()),
               "the tape's scratch memory for one evaluation thread (its values and adjoints, the data in place)",
               "run fewer chains at once (--threads), or on fewer rows");
  return program.make_work();
}

}  // namespace

namespace {

class TapeEvaluator : public PointEvaluator {
 public:
  TapeEvaluator(std::shared_ptr<const Program> program, std::shared_ptr<RejectionTally> tally)
      : program_(std::move(program)), tally_(std::move(tally)), work_(checked_work(*program_)) {}

  double log_density(const double* q, double* gradient, bool jacobian) override {
    const double lp = program_->log_density(q, gradient, work_, jacobian);
    if (work_.rejected) tally_->record(q, program_->dimension());
    return lp;
  }

 private:
  std::shared_ptr<const Program> program_;
  std::shared_ptr<RejectionTally> tally_;
  Work work_;
};

}  // namespace

TapeDensity::TapeDensity(Program program)
    : program_(std::make_shared<const Program>(std::move(program))), tally_(std::make_shared<RejectionTally>()) {}

std::unique_ptr<PointEvaluator> TapeDensity::evaluator() const {
  return std::make_unique<TapeEvaluator>(program_, tally_);
}

ArgumentRejections TapeDensity::rejections() const { return tally_->read(); }

}  // namespace variate::tape
