#pragma once
/// The bounds of the worker protocol (proto/variate_worker.proto), one place for both sides.
/// A request over a bound gets RESOURCE_EXHAUSTED or INVALID_ARGUMENT and the worker keeps
/// serving; docs/WORKERS.md lists them.

#include <chrono>
#include <cstdint>

namespace variate::remote {

inline constexpr const char* kProtocol = "variate.remote.v1";
/// Any message either side receives (gRPC's receive limit).
inline constexpr int kMaxMessageBytes = 4 << 20;
/// One chunk of a data upload or download.
inline constexpr int64_t kDataChunkBytes = 1 << 20;
/// A data set (the worker's default; `variate worker --max-data-bytes`).
inline constexpr int64_t kDefaultMaxDataBytes = int64_t{1} << 30;
/// A model's text.
inline constexpr int64_t kMaxModelTextBytes = 1 << 20;
/// A run's options: how many, and each one's length.
inline constexpr int kMaxArguments = 256;
inline constexpr int kMaxArgumentBytes = 4096;
/// Names (model, data, client label).
inline constexpr int kMaxNameBytes = 4096;
/// The positions and sampler values of one streamed batch of draws (longer batches are
/// split; one iteration always goes whole, within kMaxMessageBytes).
inline constexpr int64_t kMaxDrawBatchBytes = 256 << 10;
/// gRPC keepalive pings on both sides: every 20 s, a peer silent 10 s after one is gone.
inline constexpr int kKeepaliveMs = 20000;
inline constexpr int kKeepaliveTimeoutMs = 10000;
/// How long a Cancel waits for the job to end before it answers with the state then.
inline constexpr std::chrono::milliseconds kCancelWait{30000};
/// Seconds between heartbeats on a quiet event stream (the worker's default).
inline constexpr double kDefaultHeartbeatSeconds = 5;

}  // namespace variate::remote
