#pragma once
/// A compiled tape as a PointDensity: one Program shared by all threads, one Work arena
/// per evaluator.

#include <memory>

#include "engine/tape/program/program.h"
#include "engine/target/point_density.h"

namespace variate::tape {

class TapeDensity : public PointDensity {
 public:
  explicit TapeDensity(Program program);

  std::unique_ptr<PointEvaluator> evaluator() const override;
  std::string backend() const override { return "tape"; }
  ArgumentRejections rejections() const override;
  const Program& program() const { return *program_; }


 private:
  std::shared_ptr<const Program> program_;
  std::shared_ptr<RejectionTally> tally_;  // of all its evaluators
};

}  // namespace variate::tape
