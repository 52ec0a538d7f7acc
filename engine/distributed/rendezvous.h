#pragma once
/// Where the processes of one run meet, and which of them this one is: a TCP store that
/// rank 0 serves (`tcp://HOST:PORT`, or `HOST:PORT`), or a file store in a directory all
/// of them can reach (`file:PATH`; PATH must not exist yet: c10d's FileStore hangs on a
/// stale file). Given on the command line, or in the environment: VARIATE_RANK,
/// VARIATE_WORLD_SIZE, VARIATE_RENDEZVOUS (what `--nproc` gives the processes it
/// starts), else torchrun's RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT.
///
///   RendezvousSpec spec = parse_rendezvous("node0:29500");
///   spec.rank = 1;
///   spec.world_size = 2;

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace variate::distributed {

struct RendezvousSpec {
  enum class Kind { tcp, file };
  Kind kind = Kind::tcp;
  std::string host = "127.0.0.1";
  /// 0 on rank 0: a port the system picks (RunGroup::port() tells which).
  uint16_t port = 0;
  std::string path;  // file
  int rank = 0;
  int world_size = 1;
  /// Whether rank 0 serves the TCP store; not under torchrun's agent, which serves it
  /// itself (TORCHELASTIC_USE_AGENT_STORE=True).
  bool rank0_serves = true;
  /// Bounds joining and every collective: a rank that hangs is given up after it.
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};

  /// "tcp://127.0.0.1:29500", "file:/tmp/run/store".
  std::string address() const;
};

/// Parses "tcp://HOST:PORT", "HOST:PORT" or "file:PATH"; rank and size are left at 0 of 1.
/// @throws ArgumentError naming what is wrong.
RendezvousSpec parse_rendezvous(const std::string& text);

/// The rendezvous the environment describes (Variate's variables, else torchrun's), or
/// nullopt when neither names a rank.
/// @throws ArgumentError for a malformed value, naming the variable.
std::optional<RendezvousSpec> rendezvous_from_environment();

/// Checks rank and size: 0 <= rank < size.
/// @throws ArgumentError.
void check_ranks(const RendezvousSpec& spec);

/// Unsets the variables above, once this process has joined its group: the runs it then
/// makes of its own (an SBC replication's fit) are runs of one process, not ranks.
/// Call it before starting threads that may read the environment.
void forget_rendezvous_environment();

}  // namespace variate::distributed
