// A data-parallel run's density (engine/distributed): for every shipped model whose rows
// can be split, the sharded density on 1, 2 and 3 ranks (threads of this process, each
// with its own c10d group over a TCP store on 127.0.0.1 at a port the system picks) gives
// the same bits on every rank and for every number of ranks, and equals the one-process
// density to 1e-12 relative (the blocks are summed apart, which rounds differently). The
// models that cannot be split are refused at the expression that prevents it.

#include <cmath>
#include <future>
#include <random>
#include <thread>

#include <QtTest/QtTest>

#include "tests/support/shipped_models.h"
#include "engine/distributed/distributed_error.h"
#include "engine/distributed/run_group.h"
#include "engine/distributed/sharded_target.h"
#include "engine/distributed/shardable_rows.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/model_error.h"

namespace vd = variate::distributed;
namespace vm = variate::model;

namespace {

using Case = variate::testing::ShippedModel;
using variate::testing::shipped_models;

// The models whose rows split; the others name why not.
const std::set<QString> kShardable = {"arK-arK", "diamonds-diamonds", "earnings-earn_height",
                                       "earnings-logearn_interaction", "kidiq-kidscore_interaction",
                                       "kidiq-kidscore_momhsiq", "kilpisjarvi_mod-kilpisjarvi",
                                       "mesquite-logmesquite_logvas", "mesquite-mesquite", "sblrc-blr",
                                       "radon", "arsenic_wells", "mixture"};

struct Evaluations {
  std::vector<double> lp;
  std::vector<std::vector<double>> gradient;
};

std::vector<std::vector<double>> points(int64_t d) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> result(8, std::vector<double>(d));
  for (auto& point : result) {
    for (auto& x : point) x = normal(random);
  }
  return result;
}

Evaluations evaluate(const variate::UnconstrainedTarget& target) {
  Evaluations out;
  for (const auto& q : points(target.dimension())) {
    const at::Tensor theta = at::tensor(q, at::kDouble);
    const auto [lp, g] = target.log_density_and_gradient(theta);
    out.lp.push_back(lp.item<double>());
    out.gradient.emplace_back(g.data_ptr<double>(), g.data_ptr<double>() + g.numel());
  }
  return out;
}

// Rank `rank` of `world`: its sharded density at the points.
Evaluations run_rank(const vm::CompileResult& compiled, const variate::Data& data, int rank, int world,
                     uint16_t port, vd::RunGroup* group0) {
  std::unique_ptr<vd::RunGroup> own;
  vd::RunGroup* group = group0;
  if (!group) {
    vd::RendezvousSpec spec;
    spec.port = port;
    spec.rank = rank;
    spec.world_size = world;
    spec.timeout = std::chrono::seconds(60);
    own = std::make_unique<vd::RunGroup>(spec);
    group = own.get();
  }
  group->join();
  const vd::ShardedModel sharded = vd::compile_sharded(compiled, data, variate::tape::Backend::automatic,
                                                       group->communicator("density"));
  return evaluate(sharded.target);
}

// Every rank's evaluations, ranks running as threads.
std::vector<Evaluations> run_world(const vm::CompileResult& compiled, const variate::Data& data, int world) {
  vd::RendezvousSpec spec;
  spec.world_size = world;
  spec.timeout = std::chrono::seconds(60);
  vd::RunGroup group0(spec);
  std::vector<std::future<Evaluations>> others;
  for (int r = 1; r < world; ++r) {
    others.push_back(std::async(std::launch::async, run_rank, std::cref(compiled), std::cref(data), r, world,
                                group0.port(), nullptr));
  }
  std::vector<Evaluations> result{run_rank(compiled, data, 0, world, 0, &group0)};
  for (auto& other : others) result.push_back(other.get());
  return result;
}

bool identical(const Evaluations& a, const Evaluations& b) {
  for (size_t i = 0; i < a.lp.size(); ++i) {
    if (std::memcmp(&a.lp[i], &b.lp[i], sizeof(double)) != 0 && !(std::isnan(a.lp[i]) && std::isnan(b.lp[i]))) return false;
    if (std::memcmp(a.gradient[i].data(), b.gradient[i].data(), a.gradient[i].size() * sizeof(double)) != 0) return false;
  }
  return true;
}

}  // namespace

class TestShardedTarget : public QObject {
  Q_OBJECT

 private slots:
  void sameBitsOnAnyNumberOfRanks_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [name, files] : shipped_models()) QTest::newRow(name.toUtf8()) << name;
  }

  void sameBitsOnAnyNumberOfRanks() {
    QFETCH(QString, name);
    const Case files = shipped_models().at(name);
    const variate::Data data = variate::io::read_data_file(files.data);
    const vm::CompileResult compiled =
        vm::compile_model(vm::Source(files.model, variate::io::read_text_file(files.model)), &data);
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    if (!kShardable.count(name.section('/', -1))) {
      try {
        vd::find_shardable_rows(*compiled.model);
        QFAIL("expected the model to be refused");
      } catch (const vm::ModelError& e) {
        qInfo("%s: %s", qPrintable(name), e.what());
      } catch (const variate::ArgumentError& e) {
        qInfo("%s: %s", qPrintable(name), e.what());
      }
      return;
    }
    const Evaluations single = evaluate(compiled.model->target());
    const vd::ShardedModel local = vd::compile_sharded(compiled, data, variate::tape::Backend::automatic,
                                                       std::make_shared<vd::LocalCommunicator>());
    const Evaluations one = evaluate(local.target);
    for (size_t i = 0; i < single.lp.size(); ++i) {
      const double scale = std::max(1.0, std::abs(single.lp[i]));
      QVERIFY2(std::abs(one.lp[i] - single.lp[i]) <= 1e-12 * scale,
               qPrintable(QString("lp %1 vs %2").arg(one.lp[i], 0, 'g', 17).arg(single.lp[i], 0, 'g', 17)));
      double gscale = 1;
      for (const double g : single.gradient[i]) gscale = std::max(gscale, std::abs(g));
      for (size_t j = 0; j < single.gradient[i].size(); ++j) {
        QVERIFY2(std::abs(one.gradient[i][j] - single.gradient[i][j]) <= 1e-12 * gscale,
                 qPrintable(QString("gradient %1: %2 vs %3").arg(j).arg(one.gradient[i][j], 0, 'g', 17)
                                .arg(single.gradient[i][j], 0, 'g', 17)));
      }
    }
    for (const int world : {2, 3}) {
      const std::vector<Evaluations> ranks = run_world(compiled, data, world);
      for (int r = 0; r < world; ++r) {
        QVERIFY2(identical(ranks[r], one), qPrintable(QString("rank %1 of %2 differs from one rank").arg(r).arg(world)));
      }
    }
  }

  void refusesDataReadOutsideItsLikelihood_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");  // the text the error points at
    QTest::addColumn<QString>("reason");
    const QString head = "data N: int\ndata x: real[N]\ndata y: real[N]\n";
    QTest::newRow("prior") << head + "mu ~ Normal(mean(x), 1)\ny ~ Normal(mu + x, 1)\n" << "x" << "outside the likelihood";
    QTest::newRow("reduction") << head + "mu ~ Normal(0, 1)\ny ~ Normal(mu + sum(x), 1)\n" << "sum(x)" << "combines the rows";
    QTest::newRow("row parameter") << head + "eta[N] ~ Normal(0, 1)\ny ~ Normal(eta + x, 1)\n" << "eta" << "one value per row";
    QTest::newRow("picking rows") << head + "mu ~ Normal(0, 1)\ny ~ Normal(mu + x[1], 1)\n" << "x[1]" << "picks among the rows";
    QTest::newRow("derived") << head + "mu ~ Normal(0, 1)\nm = mu + x\ns ~ Normal(sum(m), 1)\ny ~ Normal(m, 1)\n" << "m" << "outside the likelihood";
  }

  void refusesDataReadOutsideItsLikelihood() {
    QFETCH(QString, text);
    QFETCH(QString, where);
    QFETCH(QString, reason);
    variate::Data data;
    data.set("N", int64_t{4});
    data.set("x", at::arange(4, at::kDouble));
    data.set("y", at::arange(4, at::kDouble) * 0.5);
    const vm::CompileResult compiled = vm::compile_model(vm::Source("m.vmod", text.toStdString()), &data);
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    try {
      vd::find_shardable_rows(*compiled.model);
      QFAIL("expected a refusal");
    } catch (const vm::ModelError& e) {
      QVERIFY2(QString(e.what()).contains(reason), e.what());
      const std::string located(compiled.source->text({e.span()}));
      QCOMPARE(QString::fromStdString(located), where);
    }
  }

  void moreRanksThanBlocksIsAnError() {
    const std::string text = "data N: int\ndata y: real[N]\nmu ~ Normal(0, 1)\ny ~ Normal(mu, 1)\n";
    variate::Data data;
    data.set("N", int64_t{3});
    data.set("y", at::arange(3, at::kDouble));
    const vm::CompileResult compiled = vm::compile_model(vm::Source("m.vmod", text), &data);
    QVERIFY(compiled.ok());
    const auto rows = vd::find_shardable_rows(*compiled.model);
    QCOMPARE(vd::ShardPlan(rows, 3).blocks(), 3);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::ShardPlan(rows, 4));
  }

  void ranksMeetThroughAFileStore() {
    QTemporaryDir folder;  // a fresh path: c10d's FileStore hangs on a stale file
    const std::string path = folder.filePath("store").toStdString();
    const auto rank = [&](int r) {
      vd::RendezvousSpec spec = vd::parse_rendezvous("file:" + path);
      spec.rank = r;
      spec.world_size = 2;
      spec.timeout = std::chrono::seconds(30);
      vd::RunGroup group(spec);
      group.join();
      auto communicator = group.communicator("file");
      at::Tensor local = at::full({3}, static_cast<double>(r + 1), at::kDouble);
      at::Tensor gathered = at::zeros({2, 3}, at::kDouble);
      communicator->allgather(local, gathered);
      return gathered;
    };
    auto other = std::async(std::launch::async, rank, 1);
    const at::Tensor mine = rank(0);
    const at::Tensor theirs = other.get();
    QVERIFY(at::equal(mine, theirs));
    QCOMPARE(mine[1][2].item<double>(), 2.0);
  }

  void aMissingRankIsNamed() {
    vd::RendezvousSpec spec;
    spec.world_size = 3;
    spec.timeout = std::chrono::milliseconds(1500);
    vd::RunGroup group0(spec);
    auto one = std::async(std::launch::async, [&] {
      vd::RendezvousSpec s = spec;
      s.rank = 1;
      s.port = group0.port();
      vd::RunGroup group(s);
      try {
        group.join();
      } catch (const vd::DistributedError&) {
      }
    });
    try {
      group0.join();
      QFAIL("expected a join error");
    } catch (const vd::DistributedError& e) {
      QVERIFY2(QString(e.what()).contains("rank 2 of 3 did not join"), e.what());
    }
    one.get();
  }
};

QTEST_APPLESS_MAIN(TestShardedTarget)
#include "tst_sharded_target.moc"
