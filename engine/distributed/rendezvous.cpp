#include "engine/distributed/rendezvous.h"

#include <cstdlib>
#include <limits>

#include "engine/core/argument_error.h"

namespace variate::distributed {
namespace {

int parse_int(const std::string& text, const std::string& what, long low, long high) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < low || value > high) {
    throw ArgumentError(what + ": expected an integer in [" + std::to_string(low) + ", " +
                        std::to_string(high) + "], got '" + text + "'");
  }
  return static_cast<int>(value);
}

const char* variable(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

}  // namespace

std::string RendezvousSpec::address() const {
  if (kind == Kind::file) return "file:" + path;
  return "tcp://" + host + ":" + std::to_string(port);
}

RendezvousSpec parse_rendezvous(const std::string& text) {
  RendezvousSpec spec;
  if (text.rfind("file:", 0) == 0) {
    spec.kind = RendezvousSpec::Kind::file;
    spec.path = text.substr(5);
    if (spec.path.empty()) throw ArgumentError("rendezvous '" + text + "': the file path is empty");
    return spec;
  }
  std::string rest = text.rfind("tcp://", 0) == 0 ? text.substr(6) : text;
  const size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    throw ArgumentError("rendezvous '" + text + "': expected HOST:PORT, tcp://HOST:PORT or file:PATH");
  }
  spec.host = rest.substr(0, colon);
  if (spec.host.size() > 2 && spec.host.front() == '[' && spec.host.back() == ']') {
    spec.host = spec.host.substr(1, spec.host.size() - 2);  // [::1]:29500
  }
  spec.port = static_cast<uint16_t>(parse_int(rest.substr(colon + 1), "rendezvous '" + text + "' port", 0, 65535));
  return spec;
}

void check_ranks(const RendezvousSpec& spec) {
  if (spec.world_size < 1) {
    throw ArgumentError("the world size must be at least 1, got " + std::to_string(spec.world_size));
  }
  if (spec.rank < 0 || spec.rank >= spec.world_size) {
    throw ArgumentError("rank " + std::to_string(spec.rank) + " is outside [0, " +
                        std::to_string(spec.world_size) + ") for a world of " +
                        std::to_string(spec.world_size));
  }
}

std::optional<RendezvousSpec> rendezvous_from_environment() {
  const int max = std::numeric_limits<int>::max();
  if (const char* rank = variable("VARIATE_RANK")) {
    const char* world = variable("VARIATE_WORLD_SIZE");
    const char* address = variable("VARIATE_RENDEZVOUS");
    if (!world || !address) {
      throw ArgumentError("VARIATE_RANK is set, but VARIATE_WORLD_SIZE or VARIATE_RENDEZVOUS is not");
    }
    RendezvousSpec spec = parse_rendezvous(address);
    spec.rank = parse_int(rank, "VARIATE_RANK", 0, max);
    spec.world_size = parse_int(world, "VARIATE_WORLD_SIZE", 1, max);
    check_ranks(spec);
    return spec;
  }
  if (const char* rank = variable("RANK")) {
    const char* world = variable("WORLD_SIZE");
    const char* host = variable("MASTER_ADDR");
    const char* port = variable("MASTER_PORT");
    if (!world || !host || !port) {
      throw ArgumentError("RANK is set (torchrun), but WORLD_SIZE, MASTER_ADDR or MASTER_PORT is not");
    }
    RendezvousSpec spec;
    spec.host = host;
    spec.port = static_cast<uint16_t>(parse_int(port, "MASTER_PORT", 1, 65535));
    spec.rank = parse_int(rank, "RANK", 0, max);
    spec.world_size = parse_int(world, "WORLD_SIZE", 1, max);
    if (const char* agent = variable("TORCHELASTIC_USE_AGENT_STORE")) spec.rank0_serves = std::string(agent) != "True";
    check_ranks(spec);
    return spec;
  }
  return std::nullopt;
}

void forget_rendezvous_environment() {
  for (const char* name : {"VARIATE_RANK", "VARIATE_WORLD_SIZE", "VARIATE_RENDEZVOUS", "RANK", "WORLD_SIZE",
                           "MASTER_ADDR", "MASTER_PORT"}) {
    unsetenv(name);
  }
}

}  // namespace variate::distributed
