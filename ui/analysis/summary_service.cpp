#include "ui/analysis/summary_service.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>

#include <QDateTime>

#include "engine/services/setting_table.h"
#include "ui/runs/background_priority.h"
#include "ui/threading/thread_handoff.h"

namespace variate::ui {

namespace {

// Mean and type-7 quantiles of too few draws for the diagnostics (one, or a constant).
diagnostics::ParameterSummary plainSummary(const std::string& name, std::vector<double> values) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  diagnostics::ParameterSummary s{name, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan};
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const auto quantile = [&](double p) {
    const double h = (values.size() - 1) * p;
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(values.size() - 1, lo + 1);
    return values[lo] + (h - lo) * (values[hi] - values[lo]);
  };
  double sum = 0;
  for (const double x : values) sum += x;
  s.mean = sum / values.size();
  s.q5 = quantile(0.05);
  s.q50 = quantile(0.5);
  s.q95 = quantile(0.95);
  return s;
}

}  // namespace

RunSummary summarizeSnapshot(const RunSnapshot& snapshot) {
  RunSummary summary;
  if (snapshot.chains.empty()) return summary;
  int sampling = std::numeric_limits<int>::max(), all = std::numeric_limits<int>::max();
  for (const auto& chain : snapshot.chains) {
    sampling = std::min(sampling, chain.samplingIterations());
    all = std::min(all, chain.iterations());
  }
  summary.chains = static_cast<int>(snapshot.chains.size());
  summary.iterations = all;
  summary.snapshotMs = snapshot.takenMs;
  summary.stride = snapshot.stride;
  summary.fromWarmup = sampling == 0;
  summary.drawsPerChain = summary.fromWarmup ? all : sampling;
  summary.independentDraws = snapshot.independentDraws;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int column = 0; column < snapshot.columns.size(); ++column) {
    diagnostics::Draws draws;
    for (const auto& chain : snapshot.chains) {
      const int begin = summary.fromWarmup ? 0 : chain.warmupIterations();
      std::vector<double> values = chain.column(column, begin, begin + summary.drawsPerChain);
      if (snapshot.stride > 1) {
        size_t kept = 0;
        for (size_t i = 0; i < values.size(); i += snapshot.stride) values[kept++] = values[i];
        values.resize(kept);
      }
      draws.push_back(std::move(values));
    }
    const std::string name = snapshot.columns[column].toStdString();
    try {
      diagnostics::ParameterSummary row = diagnostics::summarize(name, draws);
      if (snapshot.independentDraws) {
        row.ess_bulk = row.ess_tail = row.r_hat = nan;
        row.mcse_mean = row.sd / std::sqrt(static_cast<double>(summary.drawsPerChain * summary.chains));
      }
      summary.rows.push_back(row);
    } catch (const std::exception&) {
      if (snapshot.independentDraws) {
        std::vector<double> all;
        for (const auto& chain : draws) all.insert(all.end(), chain.begin(), chain.end());
        summary.rows.push_back(plainSummary(name, std::move(all)));
      } else {
        summary.rows.push_back({name, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan});
      }
    }
  }
  return summary;
}

namespace {

class SummaryWorker : public QObject {
  Q_OBJECT

 public:
  void compute(const std::shared_ptr<const RunSnapshot>& snapshot) {
    // CPU time, not wall time: the chains share the cores at the same priority.
    timespec start{}, end{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    RunSummary summary = summarizeSnapshot(*snapshot);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    summary.computeMs = static_cast<int>((end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000);
    emitToOtherThreads([&] { emit computed(snapshot->runId, summary); });
  }

 signals:
  void computed(qint64 runId, const variate::ui::RunSummary& summary);
};

}  // namespace

SummaryService::SummaryService(RunList* runs, QObject* parent) : QObject(parent), runs_(runs) {
  qRegisterMetaType<RunSummary>();
  auto* worker = new SummaryWorker;
  worker_ = worker;
  thread_.setObjectName("variate-diagnostics");
  worker->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker, &QObject::deleteLater);
  connect(&thread_, &QThread::started, worker, &lowerCurrentThreadPriority, Qt::DirectConnection);
  connect(worker, &SummaryWorker::computed, this, [this](qint64 runId, const RunSummary& summary) {
    takeOver();
    finished(runId, summary);
  });
  thread_.start();
  wait_.setSingleShot(true);
  connect(&wait_, &QTimer::timeout, this, &SummaryService::startNext);
  connect(runs, &RunList::drawsAppended, this, [this](qint64 id) { request(id); });
  connect(runs, &RunList::drawsReset, this, [this](qint64 id) { request(id); });
  connect(runs, &RunList::runChanged, this, [this](qint64 id) { request(id); });
}

SummaryService::~SummaryService() {
  thread_.quit();
  thread_.wait();
}

void SummaryService::request(qint64 runId) {
  const RunPtr run = runs_->run(runId);
  if (!run || run->chains.empty()) return;
  // A live run is summarized once every chain has a draw: before, the summary would be of
  // none (its draws per chain are the shortest chain's), or, for a NUTS run whose last
  // chains have not sent their first batch, of the others only, naming an iteration those
  // later chains have not reached. Its next batch asks again.
  const auto empty = [](const auto& chain) { return chain.iterations() == 0; };
  const size_t planned = run->config.method == services::Method::nuts
                             ? static_cast<size_t>(std::max(0, run->config.settings.get(services::setting::chains)))
                             : 0;
  if (run->isActive() && (run->chains.size() < planned || std::any_of(run->chains.begin(), run->chains.end(), empty))) {
    return;
  }
  pending_.insert(runId);
  if (!busy_ && !wait_.isActive()) startNext();
}

void SummaryService::startNext() {
  if (busy_ || pending_.isEmpty()) return;
  // A finished run goes first; a live one waits for its interval.
  qint64 next = -1;
  for (qint64 id : pending_) {
    const RunPtr run = runs_->run(id);
    if (!run) continue;
    if (!run->isActive()) { next = id; break; }
    if (next < 0) next = id;
  }
  const RunPtr run = runs_->run(next);
  if (!run) {
    pending_.clear();
    return;
  }
  const int interval = liveIntervalMs(lastComputeMs_);
  if (run->isActive() && sinceLive_.isValid() && sinceLive_.elapsed() < interval) {
    wait_.start(static_cast<int>(interval - sinceLive_.elapsed()));
    return;
  }
  if (run->isActive()) sinceLive_.start();
  pending_.remove(next);
  auto snapshot = std::make_shared<RunSnapshot>();
  snapshot->runId = next;
  snapshot->columns = run->columnNames;
  snapshot->chains = run->chains;  // shares the blocks
  snapshot->independentDraws = services::draws_are_independent(run->config.method);
  snapshot->takenMs = QDateTime::currentMSecsSinceEpoch();
  if (run->isActive()) {
    // The draws the summary reads (summarizeSnapshot): after warmup, or warmup's while there are none.
    int shortest = std::numeric_limits<int>::max();
    for (const auto& chain : run->chains) shortest = std::min(shortest, chain.iterations());
    const int draws = run->samplingDrawsPerChain() > 0 ? run->samplingDrawsPerChain() : shortest;
    snapshot->stride = std::max(1, (draws + kLiveDrawsPerChain - 1) / kLiveDrawsPerChain);
  }
  busy_ = true;
  auto* worker = static_cast<SummaryWorker*>(worker_);
  postCall(worker, [worker, snapshot] { worker->compute(snapshot); });
}

void SummaryService::finished(qint64 runId, const RunSummary& summary) {
  busy_ = false;
  // Only a live run's summaries set its pace: a large finished run's do not slow it.
  if (const RunPtr run = runs_->run(runId); run && run->isActive()) lastComputeMs_ = summary.computeMs;
  runs_->setSummary(runId, summary);
  emit summarized(runId);
  startNext();
}

}  // namespace variate::ui

#include "summary_service.moc"
