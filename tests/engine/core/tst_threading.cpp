// Chain threads and intra-op threads share the cores without oversubscription, and the
// intra-op scope sets and restores LibTorch's (and OpenBLAS's) thread counts.

#include <ATen/Parallel.h>
#include <thread>

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/threading.h"

class TestThreading : public QObject {
  Q_OBJECT

 private slots:
  void plansWithinTheCores() {
    const int cores = variate::hardware_threads();
    for (const int chains : {1, 2, 3, 4, 8}) {
      for (const int max_threads : {0, 1, 2, 16}) {
        const variate::ThreadPlan plan = variate::plan_threads(chains, max_threads, false);
        QVERIFY(plan.chain_threads >= 1 && plan.chain_threads <= chains);
        if (max_threads > 0) QVERIFY(plan.chain_threads <= max_threads);
        QVERIFY(plan.intra_op_threads >= 1);
        // Oversubscribed only when there are more chain threads than cores to begin with.
        QVERIFY(plan.chain_threads * plan.intra_op_threads <= std::max(cores, plan.chain_threads));
      }
    }
    const variate::ThreadPlan one = variate::plan_threads(1, 0, false);
    QCOMPARE(one.chain_threads, 1);
    QCOMPARE(one.intra_op_threads, cores);
    const variate::ThreadPlan batched = variate::plan_threads(4, 1, true);
    QCOMPARE(batched.chain_threads, 4);
    QCOMPARE(batched.intra_op_threads, cores);
  }

  // Inside a CoreLimit a run plans for its cores (an SBC replication's fit: one), and on
  // this thread only; the limit ends with the scope.
  void coreLimitHoldsThisThreadsRuns() {
    const int cores = variate::hardware_threads();
    {
      const variate::CoreLimit one(1);
      QCOMPARE(variate::available_cores(), 1);
      const variate::ThreadPlan plan = variate::plan_threads(4, 0, false);
      QCOMPARE(plan.chain_threads, 1);
      QCOMPARE(plan.intra_op_threads, 1);
      int elsewhere = 0;
      std::thread([&] { elsewhere = variate::available_cores(); }).join();
      QCOMPARE(elsewhere, cores);
    }
    QCOMPARE(variate::available_cores(), cores);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, variate::CoreLimit(0));
  }

  void rejectsBadArguments() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, variate::plan_threads(0, 0, false));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, variate::plan_threads(2, -1, false));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, variate::IntraOpThreads(0));
  }

  void scopeSetsAndRestores() {
    at::set_num_threads(1);
    const int blas_before = variate::openblas_threads();
    {
      const variate::IntraOpThreads scope(3);
      QCOMPARE(at::get_num_threads(), 3);
      if (blas_before > 0) QCOMPARE(variate::openblas_threads(), 3);
    }
    QCOMPARE(at::get_num_threads(), 1);
    QCOMPARE(variate::openblas_threads(), blas_before);
  }
};

QTEST_APPLESS_MAIN(TestThreading)
#include "tst_threading.moc"
