#pragma once
/// What the worker checks in a request before it acts on it: sizes, names, and the run's
/// options (only those that shape the run; none that names a file or another host). Pure
/// functions of the decoded message, so the fuzz target (tests/fuzz/fuzz_requests.cpp)
/// runs them on arbitrary bytes.

#include <string>

#include "variate_worker.pb.h"

namespace variate::remote {

/// "" when `request` may run on a worker allowing `max_ranks` processes per job, else why not.
std::string check_submit(const v1::SubmitRequest& request, int max_ranks);
/// "" or why `ref` names no data set this worker could hold.
std::string check_data_ref(const v1::DataRef& ref, int64_t max_data_bytes);
/// "" or why `name` (`what`: "the model's name", "the client's label") is too long or holds
/// control characters.
std::string check_name(const std::string& what, const std::string& name);
/// "" or why `id` cannot be a job's (the worker makes them: 16 lower-case hex digits).
std::string check_job_id(const std::string& id);

}  // namespace variate::remote
