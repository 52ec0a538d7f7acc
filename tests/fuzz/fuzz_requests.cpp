// libFuzzer target over the worker's request decoding: arbitrary bytes parsed as each
// request a client can send, then the checks the worker runs before it acts on one
// (engine/remote/request_checks.h). Built instrumented (AddressSanitizer, UBSan) by
// tests/fuzz; tests/CMakeLists.txt runs it briefly as fuzz_requests_smoke.

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/remote/request_checks.h"
#include <google/protobuf/stubs/logging.h>

#include "variate_worker.pb.h"

namespace v1 = variate::remote::v1;

// Invalid UTF-8 in a string field is a parse failure; protobuf also logs each one.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string&) {});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0: {
      v1::SubmitRequest request;
      if (request.ParseFromString(bytes)) variate::remote::check_submit(request, 8);
      break;
    }
    case 1: {
      v1::DataRef ref;
      if (ref.ParseFromString(bytes)) variate::remote::check_data_ref(ref, int64_t{1} << 30);
      break;
    }
    case 2: {
      v1::DataChunk chunk;
      if (chunk.ParseFromString(bytes)) variate::remote::check_data_ref(chunk.data(), int64_t{1} << 30);
      break;
    }
    case 3: {
      v1::AttachRequest request;
      if (request.ParseFromString(bytes)) variate::remote::check_job_id(request.job_id());
      break;
    }
    default: {
      v1::JobRequest request;
      if (request.ParseFromString(bytes)) variate::remote::check_job_id(request.job_id());
      break;
    }
  }
  return 0;
}
