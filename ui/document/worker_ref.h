#pragma once
/// A `variate worker` the studio knows (Workers panel) and a run may go to: its address
/// and the paths of its token and CA files (never the token itself).

#include <QString>

namespace variate::ui {

struct WorkerRef {
  QString address;    // HOST:PORT; empty: this computer
  QString tokenFile;
  QString caFile;     // empty: no TLS

  bool isRemote() const { return !address.isEmpty(); }
};

}  // namespace variate::ui
