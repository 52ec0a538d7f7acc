#include "engine/remote/job_log.h"

#include <filesystem>
#include <stdexcept>

namespace variate::remote {

JobLog::JobLog(const std::string& path) {
  std::ifstream existing(path, std::ios::binary);
  std::streamoff good_end = 0;
  while (existing) {
    unsigned char header[4];
    if (!existing.read(reinterpret_cast<char*>(header), 4)) break;
    const uint32_t length = header[0] | header[1] << 8 | header[2] << 16 | static_cast<uint32_t>(header[3]) << 24;
    std::string bytes(length, '\0');
    if (!existing.read(bytes.data(), length)) break;
    v1::RunEvent event;
    if (!event.ParseFromString(bytes)) break;
    events_.push_back(std::move(event));
    good_end = existing.tellg();
  }
  existing.close();
  if (good_end > 0 || !events_.empty()) {
    std::error_code ignored;
    std::filesystem::resize_file(path, static_cast<uintmax_t>(good_end), ignored);  // drops a torn record
  }
  file_.open(path, std::ios::binary | std::ios::app);
  if (!file_) throw std::runtime_error("cannot write the job log '" + path + "'");
}

uint64_t JobLog::append(v1::RunEvent event) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return events_.size();
  event.set_seq(events_.size());
  const std::string bytes = event.SerializeAsString();
  const uint32_t n = static_cast<uint32_t>(bytes.size());
  const char header[4] = {static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16),
                          static_cast<char>(n >> 24)};
  file_.write(header, 4).write(bytes.data(), static_cast<std::streamsize>(bytes.size())).flush();
  events_.push_back(std::move(event));
  changed_.notify_all();
  return events_.size() - 1;
}

void JobLog::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  file_.close();
  changed_.notify_all();
}

uint64_t JobLog::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_.size();
}

bool JobLog::closed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

std::optional<v1::RunEvent> JobLog::wait_for(uint64_t seq, std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_until(lock, deadline, [&] { return seq < events_.size() || closed_; });
  if (seq < events_.size()) return events_[seq];
  return std::nullopt;
}

}  // namespace variate::remote
