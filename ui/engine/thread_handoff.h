#pragma once
/// Handing work to another thread through Qt, told to ThreadSanitizer. Qt orders a queued
/// call, or a task given to a QThreadPool, with its own mutexes inside Debian's
/// uninstrumented Qt, which a -DVARIATE_SANITIZE=thread build cannot see: without these
/// marks what a call captures (written here, read there) looks like a race whenever the
/// receiving thread picks it up without a wake-up TSan sees, e.g. a new thread's first
/// call. Outside such a build they are the plain Qt calls.

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

/// What this thread wrote so far is handed over with `channel` ...
inline void handOff([[maybe_unused]] const void* channel) {
#ifdef VARIATE_TSAN_HANDOFF
  __tsan_release(const_cast<void*>(channel));
#endif
}

/// ... to the thread that takes it here.
inline void takeOver([[maybe_unused]] const void* channel) {
#ifdef VARIATE_TSAN_HANDOFF
  __tsan_acquire(const_cast<void*>(channel));
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

/// QMetaObject::invokeMethod(receiver, call, Qt::QueuedConnection), marked: what `call`
/// refers to is handed over to the receiver's thread.
template <class Call>
void postCall(QObject* receiver, Call call) {
  handOff(receiver);
  const QueuedCarrier carrier;
  QMetaObject::invokeMethod(
      receiver,
      [receiver, call = std::move(call)]() mutable {
        takeOver(receiver);
        call();
      },
      Qt::QueuedConnection);
}

/// Emits a signal of `sender` whose receivers are on other threads (queued connections):
/// what its arguments refer to is handed over; each receiving slot starts with
/// takeOver(sender). Only for signals without receivers on this thread, whose slots would
/// run inside the carrier's scope.
template <class Emit>
void emitToOtherThreads(const QObject* sender, Emit emitSignal) {
  handOff(sender);
  const QueuedCarrier carrier;
  emitSignal();
}

}  // namespace variate::ui
