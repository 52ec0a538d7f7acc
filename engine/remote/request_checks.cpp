#include "engine/remote/request_checks.h"


#include "engine/remote/content_hash.h"
#include "engine/remote/limits.h"
#include "engine/services/settings.h"

namespace variate::remote {
namespace {

bool printable(const std::string& text) {
  for (const unsigned char c : text) {
    if (c < 0x20 && c != '\t') return false;
  }
  return true;
}

}  // namespace

std::string check_name(const std::string& what, const std::string& name) {
  if (name.size() > static_cast<size_t>(kMaxNameBytes)) return what + " is longer than " + std::to_string(kMaxNameBytes) + " bytes";
  if (!printable(name)) return what + " holds control characters";
  return "";
}

std::string check_submit(const v1::SubmitRequest& request, int max_ranks) {
  if (request.command() != "sample" && request.command() != "fit") {
    return "unknown command '" + request.command().substr(0, 40) + "': expected sample or fit";
  }
  if (request.model_text().empty()) return "the model's text is empty";
  if (static_cast<int64_t>(request.model_text().size()) > kMaxModelTextBytes) {
    return "the model's text is longer than " + std::to_string(kMaxModelTextBytes) + " bytes";
  }
  if (request.model_text().find('\0') != std::string::npos) return "the model's text holds a NUL byte";
  for (const auto& [what, name] : {std::pair<std::string, std::string>{"the model's name", request.model_name()},
                                   {"the data's name", request.data_name()},
                                   {"the client's label", request.client_label()}}) {
    if (std::string problem = check_name(what, name); !problem.empty()) return problem;
  }
  if (request.arguments_size() > kMaxArguments) {
    return "more than " + std::to_string(kMaxArguments) + " options";
  }
  // The options a worker accepts are the settings described so (kAcceptedByWorker): what
  // shapes the run. The model and data come with the request; outputs stay with the job.
  const services::Method method = request.command() == "sample" ? services::Method::nuts : services::Method::advi;
  for (int i = 0; i < request.arguments_size(); ++i) {
    const std::string& argument = request.arguments(i);
    if (argument.size() > static_cast<size_t>(kMaxArgumentBytes)) return "an option longer than " + std::to_string(kMaxArgumentBytes) + " bytes";
    if (!printable(argument)) return "an option holds control characters";
    if (argument.empty() || argument[0] != '-') continue;  // a value
    const std::string name = argument.substr(0, argument.find('='));
    const services::SettingDescriptor* setting = services::find_setting(method, name);
    if (!setting || !setting->has(services::kAcceptedByWorker)) {
      return "the option '" + name.substr(0, 60) + "' is not accepted by a worker";
    }
    if (name == "--nproc") {
      const std::string value = argument.find('=') != std::string::npos ? argument.substr(argument.find('=') + 1)
                                : i + 1 < request.arguments_size()     ? request.arguments(i + 1)
                                                                       : "";
      int ranks = 0;
      try {
        ranks = std::stoi(value);
      } catch (const std::exception&) {
        return "--nproc needs a number";
      }
      if (ranks > max_ranks) return "--nproc " + std::to_string(ranks) + ": this worker runs at most " + std::to_string(max_ranks) + " processes per job";
    }
  }
  if (request.resume_size() > 0 && request.command() != "sample") return "only NUTS runs resume from chain starts";
  for (const v1::ChainStart& start : request.resume()) {
    if (!(start.step_size() > 0)) return "a chain start needs a positive step size";
    if (start.position_size() == 0) return "a chain start needs a position";
  }
  if (request.has_data()) return check_data_ref(request.data(), INT64_MAX);
  return "";
}

std::string check_data_ref(const v1::DataRef& ref, int64_t max_data_bytes) {
  if (!is_sha256_hex(ref.sha256())) return "a data reference needs the SHA-256 of the data (64 lower-case hex digits)";
  if (ref.format() != "json" && ref.format() != "csv" && ref.format() != "idx") {
    return "a data set is CmdStan JSON or CSV, or an IDX file one names (format json, csv or idx)";
  }
  if (ref.size() < 0 || ref.size() > max_data_bytes) {
    return "a data set of " + std::to_string(ref.size()) + " bytes; this worker takes at most " + std::to_string(max_data_bytes);
  }
  return "";
}

std::string check_job_id(const std::string& id) {
  if (id.size() != 16) return "no such job";
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return "no such job";
  }
  return "";
}

}  // namespace variate::remote
