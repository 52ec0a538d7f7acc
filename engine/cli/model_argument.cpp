#include "engine/cli/model_argument.h"

#include "engine/services/vmod_source.h"

namespace variate::cli {

void VmodArgument::add_to(CLI::App& command) {
  command.add_option("model", path_, "The model (.vmod)")->required();
}

std::shared_ptr<const services::ModelSource> VmodArgument::source() const {
  return std::make_shared<services::VmodSource>(services::VmodSource::from_file(path_));
}

}  // namespace variate::cli
