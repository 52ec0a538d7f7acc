#pragma once
/// Handing work to another thread through Qt, told to ThreadSanitizer. Qt orders a queued
/// call, a signal to another thread, or a task given to a QThreadPool with its own
/// mutexes inside Debian's uninstrumented Qt, which a -DVARIATE_SANITIZE=thread build
/// cannot see: without these marks what a call carries (written here, read there) looks
/// like a race. Outside such a build they are the plain Qt calls.
///
/// TSan sees Qt's queues as one lock: what a thread wrote before it hands work over is
/// ordered before what any thread does after it takes work over. That is coarser than Qt,
/// whose queues are per thread, so a race between two threads that both pass work through
/// Qt can go unseen; it never reports an order Qt guarantees. (A channel per receiving
/// thread left one report, in tst_studio_shared_project, of an order the code does give:
/// chain -> the mailbox's std::mutex -> UI thread -> diagnostics thread.)

#include <utility>

#include <QMetaObject>
#include <QObject>

#if defined(__SANITIZE_THREAD__)
#define VARIATE_TSAN_HANDOFF 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VARIATE_TSAN_HANDOFF 1
#endif
#endif

#ifdef VARIATE_TSAN_HANDOFF
#include <sanitizer/tsan_interface.h>
extern "C" void AnnotateIgnoreWritesBegin(const char* file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char* file, int line);
#endif

namespace variate::ui {

#ifdef VARIATE_TSAN_HANDOFF
/// The one lock TSan sees for Qt's queues.
inline char qtQueues = 0;
#endif

/// What this thread wrote so far is handed over ...
inline void handOff() {
#ifdef VARIATE_TSAN_HANDOFF
  __tsan_release(&qtQueues);
#endif
}

/// ... to the thread that takes work over here.
inline void takeOver() {
#ifdef VARIATE_TSAN_HANDOFF
  __tsan_acquire(&qtQueues);
#endif
}

/// While it lives, what this thread writes is left out of TSan's view: Qt's own objects
/// that carry a queued call or a signal's arguments (written here, read on the receiver's
/// thread, freed by whichever drops them last).
class QueuedCarrier {
 public:
  QueuedCarrier() {
#ifdef VARIATE_TSAN_HANDOFF
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
  }
  ~QueuedCarrier() {
#ifdef VARIATE_TSAN_HANDOFF
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
#endif
  }
  QueuedCarrier(const QueuedCarrier&) = delete;
  QueuedCarrier& operator=(const QueuedCarrier&) = delete;
};

/// QMetaObject::invokeMethod(receiver, call, Qt::QueuedConnection), marked.
template <class Call>
void postCall(QObject* receiver, Call call) {
  handOff();
  const QueuedCarrier carrier;
  QMetaObject::invokeMethod(
      receiver,
      [call = std::move(call)]() mutable {
        takeOver();
        call();
      },
      Qt::QueuedConnection);
}

/// Emits a signal whose receivers are on other threads (queued connections), marked; each
/// receiving slot starts with takeOver(). Only for signals without receivers on this
/// thread, whose slots would run inside the carrier's scope.
template <class Emit>
void emitToOtherThreads(Emit emitSignal) {
  handOff();
  const QueuedCarrier carrier;
  emitSignal();
}

}  // namespace variate::ui
