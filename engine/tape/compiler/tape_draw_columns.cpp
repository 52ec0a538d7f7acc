#include "engine/tape/compiler/tape_draw_columns.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "engine/tape/compiler/model_compiler.h"

namespace variate::tape {
namespace {

// The program and its scratch arenas: each draw takes one (the chains' threads write
// their draws at once) and gives it back, so that data is copied into an arena once.
class DrawValuesEvaluator {
 public:
  explicit DrawValuesEvaluator(DrawValuesProgram compiled) : compiled_(std::move(compiled)) {}

  void operator()(const double* theta, double* out) {
    std::unique_ptr<Work> work = take();
    compiled_.program.log_density(theta, nullptr, *work, /*jacobian=*/false);
    for (const auto& output : compiled_.outputs) {
      const double* values = work->values.data() + output.offset;
      out = std::copy(values, values + numel(output.shape), out);
    }
    give_back(std::move(work));
  }

 private:
  std::unique_ptr<Work> take() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<Work> work = std::move(free_.back());
        free_.pop_back();
        return work;
      }
    }
    return std::make_unique<Work>(compiled_.program.make_work());
  }

  void give_back(std::unique_ptr<Work> work) {
    const std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(work));
  }

  const DrawValuesProgram compiled_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Work>> free_;
};

}  // namespace

DrawColumns tape_draw_columns(const model::CompiledModel& model) {
  DrawValuesProgram compiled = compile_draw_values(model);
  std::vector<DrawQuantity> quantities;
  for (const auto& output : compiled.outputs) quantities.push_back({output.name, output.shape});
  auto evaluator = std::make_shared<DrawValuesEvaluator>(std::move(compiled));
  return DrawColumns([evaluator](const double* theta, double* out) { (*evaluator)(theta, out); }, quantities,
                     model.layout().dimension());
}

}  // namespace variate::tape
