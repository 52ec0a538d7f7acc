// An SBC run's replications read back as written (seeds of all 64 bits, ranks, failures),
// each stored once, refused when they cannot be its (ranks out of range, a count other
// than the run's quantities, a run of another method), and deleted with their run.

#include <QtTest/QtTest>

#include "engine/store/project.h"

namespace store = variate::store;

namespace {

store::Id sbc_run(store::Project& project) {
  store::RunSpec spec;
  spec.name = "sbc";
  spec.method = store::RunMethod::sbc;
  spec.model_version_id = project.save_model("m", "mu ~ Normal(0, 1)\ny ~ Normal(mu, 1)\n").id;
  spec.columns = {"mu", "sigma"};
  return project.create_run(spec);
}

}  // namespace

class TestSbcRecords : public QObject {
  Q_OBJECT

 private slots:
  void replicationsReadBackAsWritten() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    {
      store::Project project(path, store::Project::OpenMode::create);
      const store::Id run = sbc_run(project);
      project.write_sbc_replication(run, {4, 0xfedcba9876543210ull, {0, 400}, 400, 3, 1.02, ""});
      project.write_sbc_replication(run, {1, 17, {}, 400, 0, 0, "the fit failed: no initial point"});
      project.write_sbc_replication(run, {0, 1, {200, 5}, 400, 0, 1.001, ""});
    }
    const store::Project project(path);
    const auto replications = project.sbc_replications(project.runs()[0].id);
    QCOMPARE(replications.size(), size_t{3});
    QCOMPARE(replications[0].replication, 0);  // by replication, not by when written
    QCOMPARE(replications[0].ranks, (std::vector<int64_t>{200, 5}));
    QCOMPARE(replications[1].failure, std::string("the fit failed: no initial point"));
    QVERIFY(replications[1].ranks.empty());
    QCOMPARE(replications[2].seed, 0xfedcba9876543210ull);
    QCOMPARE(replications[2].max_rank, int64_t{400});
    QCOMPARE(replications[2].divergences, int64_t{3});
    QCOMPARE(replications[2].max_rhat, 1.02);
  }

  void aReplicationIsStoredOnce() {
    QTemporaryDir directory;
    store::Project project(directory.filePath("p.variate").toStdString(), store::Project::OpenMode::create);
    const store::Id run = sbc_run(project);
    project.write_sbc_replication(run, {2, 1, {1, 2}, 10, 0, 1, ""});
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write_sbc_replication(run, {2, 9, {3, 4}, 10, 0, 1, ""}));
    QCOMPARE(project.sbc_replications(run)[0].ranks, (std::vector<int64_t>{1, 2}));  // the first kept
  }

  void replicationsThatCannotBeTheRunsAreRefused() {
    QTemporaryDir directory;
    store::Project project(directory.filePath("p.variate").toStdString(), store::Project::OpenMode::create);
    const store::Id run = sbc_run(project);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write_sbc_replication(run, {0, 1, {11, 2}, 10, 0, 1, ""}));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write_sbc_replication(run, {0, 1, {-1, 2}, 10, 0, 1, ""}));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write_sbc_replication(run, {0, 1, {1}, 10, 0, 1, ""}));
    store::RunSpec nuts;
    nuts.model_version_id = project.save_model("m", "mu ~ Normal(0, 1)\n").id;
    nuts.columns = {"lp__", "mu"};
    const store::Id other = project.create_run(nuts);
    try {
      project.write_sbc_replication(other, {0, 1, {1}, 10, 0, 1, ""});
      QFAIL("a NUTS run took a replication");
    } catch (const store::ProjectError& e) {
      QVERIFY2(QString(e.what()).contains("not a simulation-based calibration run"), e.what());
    }
    QVERIFY(project.sbc_replications(run).empty());
  }

  void deletingTheRunDeletesItsReplications() {
    QTemporaryDir directory;
    store::Project project(directory.filePath("p.variate").toStdString(), store::Project::OpenMode::create);
    const store::Id run = sbc_run(project);
    project.write_sbc_replication(run, {0, 1, {1, 2}, 10, 0, 1, ""});
    project.delete_run(run);
    const store::Id again = sbc_run(project);
    QVERIFY(project.sbc_replications(again).empty());
    QVERIFY(project.sbc_replications(run).empty());
  }
};

QTEST_MAIN(TestSbcRecords)
#include "tst_sbc_records.moc"
