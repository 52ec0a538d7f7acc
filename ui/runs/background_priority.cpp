#include "ui/runs/background_priority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace variate::ui {

void lowerCurrentThreadPriority() {
#ifdef __linux__
  // On Linux nice is per thread (the tid names it) and new threads inherit it.
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  const int current = getpriority(PRIO_PROCESS, tid);
  setpriority(PRIO_PROCESS, tid, current + 5);
#endif
}

}  // namespace variate::ui
