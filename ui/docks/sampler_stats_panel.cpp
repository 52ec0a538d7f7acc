#include "ui/docks/sampler_stats_panel.h"

#include "engine/mcmc/sampler_columns.h"
#include "engine/services/reparam_choice.h"
#include "engine/services/setting_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/document/project_document.h"

namespace variate::ui {
namespace {

QString duration(double seconds) {
  if (seconds < 60) return QObject::tr("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0);
  if (seconds < 3600) return QObject::tr("%1 min %2 s").arg(int(seconds) / 60).arg(int(seconds) % 60);
  return QObject::tr("%1 h %2 min").arg(int(seconds) / 3600).arg(int(seconds) % 3600 / 60);
}

// A live chain's phase; an ended one's way of ending; one left unfinished (a crash, a lost
// worker, a failure) says what ended its run.
QString chainPhase(const RunData& run, const ChainState& state, const ChainStatistics& s) {
  if (state.finished) return state.stoppedEarly ? QObject::tr("stopped") : QObject::tr("done");
  if (run.isActive()) return s.iterations < s.warmup ? QObject::tr("warmup") : QObject::tr("sampling");
  switch (run.status) {
    case RunStatus::Interrupted: return QObject::tr("interrupted");
    case RunStatus::Failed: return QObject::tr("failed");
    case RunStatus::Stopped: return QObject::tr("stopped");
    default: return QObject::tr("done");
  }
}

}  // namespace

SamplerStatsPanel::SamplerStatsPanel(QWidget* parent)
    : QWidget(parent), table_(new QTableWidget), note_(new QLabel), setup_(new QLabel) {
  table_->setObjectName("samplerStatsTable");
  table_->setColumnCount(10);
  table_->setHorizontalHeaderLabels({tr("Chain"), tr("Phase"), tr("Iteration"), tr("Step size"),
                                     tr("Tree depth"), tr("Max depth hits"), tr("Divergences"),
                                     tr("Acceptance"), tr("Draws/s"), tr("Time left")});
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(note_);
  layout->addWidget(setup_);
  layout->addWidget(table_);
  setup_->setObjectName("samplerSetup");
  setup_->setWordWrap(true);
  setup_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  note_->setText(tr("ADVI draws come from the fitted approximation: there are no sampler statistics."));
  note_->setWordWrap(true);
  note_->setObjectName("samplerNote");
  note_->hide();
  timer_.setInterval(250);
  connect(&timer_, &QTimer::timeout, this, [this] {
    if (dirty_) refresh();
  });
  timer_.start();
}

void SamplerStatsPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    RunList* runs = document->runs();
    const auto mark = [this] { dirty_ = true; };
    const auto restart = [this] {
      recount();
      dirty_ = true;
    };
    connections_ << connect(runs, &RunList::currentChanged, this, restart);
    connections_ << connect(runs, &RunList::drawsReset, this, restart);
    connections_ << connect(runs, &RunList::drawsAppended, this, [this](qint64 id, const DrawBlocks& blocks) {
      if (!document_ || id != document_->runs()->currentId()) return;
      for (const auto& block : blocks) add(*block);
      dirty_ = true;
    });
    connections_ << connect(runs, &RunList::chainStateChanged, this, mark);
    connections_ << connect(runs, &RunList::runChanged, this, mark);
  }
  recount();
  refresh();
}

void SamplerStatsPanel::add(const DrawBlock& block) {
  if (block.chain >= static_cast<int>(totals_.size())) totals_.resize(block.chain + 1);
  Totals& t = totals_[block.chain];
  for (int r = 0; r < block.rows(); ++r) {
    const SamplerRow& row = block.stats[r];
    if (block.firstIteration + r < block.warmupIterations) {
      ++t.warmupRows;
      t.warmupDepth += row.treeDepth;
      t.warmupAccept += row.acceptStat;
      t.warmupDivergences += row.divergent;
    } else {
      ++t.samplingRows;
      t.depth += row.treeDepth;
      t.accept += row.acceptStat;
      t.divergences += row.divergent;
      t.maxDepthHits += reached_max_depth(row.treeDepth, maxDepth_);
    }
    t.lastStepSize = row.stepSize;
  }
  t.rows += block.rows();
}

void SamplerStatsPanel::recount() {
  totals_.clear();
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  if (!run) return;
  maxDepth_ = run->config.settings.get(services::setting::max_depth);  // the run's limit
  for (const auto& chain : run->chains) {
    for (const auto& block : chain.blocks()) add(*block);
  }
}

ChainStatistics SamplerStatsPanel::statistics(int chain) const {
  ChainStatistics s;
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  if (!run || chain >= static_cast<int>(run->chains.size()) || chain >= static_cast<int>(totals_.size())) return s;
  const Totals& t = totals_[chain];
  s.iterations = run->chains[chain].iterations();
  s.warmup = run->chains[chain].warmupIterations();
  s.divergences = t.divergences;
  s.warmupDivergences = t.warmupDivergences;
  s.maxDepthHits = t.maxDepthHits;
  // Post-warmup means, or warmup ones while there are no sampling draws yet.
  const bool sampling = t.samplingRows > 0;
  const int n = sampling ? t.samplingRows : t.warmupRows;
  if (n > 0) {
    s.meanTreeDepth = (sampling ? t.depth : t.warmupDepth) / n;
    s.meanAccept = (sampling ? t.accept : t.warmupAccept) / n;
  }
  s.stepSize = t.lastStepSize;
  const ChainState& state = run->chainStates[chain];
  if (state.stepSize) s.stepSize = *state.stepSize;
  return s;
}

QString SamplerStatsPanel::setupText() const {
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  if (!run || run->config.method != services::Method::nuts) return {};
  const services::Settings& settings = run->config.settings;
  const MetricKind kind = services::metric_kind(settings);
  const bool dense = kind == MetricKind::dense;
  const bool low_rank = kind == MetricKind::low_rank;
  // The metric's size from an adapted chain's (d entries, d x d, or a low-rank metric's,
  // which say their rank and dimension).
  qsizetype entries = 0;
  int dimension = 0, lowest_rank = std::numeric_limits<int>::max(), highest_rank = -1;
  for (const ChainState& state : run->chainStates) {
    entries = std::max(entries, qsizetype(state.inverseMetric.size()));
    const long d = low_rank ? low_rank_dimension(state.inverseMetric) : -1;
    if (d < 0) continue;
    dimension = int(d);
    lowest_rank = std::min(lowest_rank, int(state.inverseMetric[0]));
    highest_rank = std::max(highest_rank, int(state.inverseMetric[0]));
  }
  if (!low_rank) dimension = dense ? int(std::lround(std::sqrt(double(entries)))) : int(entries);
  QString metric = dense ? tr("dense") : low_rank ? tr("low rank + diagonal") : tr("diagonal");
  if (dimension > 0) metric += dense ? tr(", %1 × %1").arg(dimension) : tr(", %1 parameters").arg(dimension);
  if (highest_rank >= 0) {
    metric += lowest_rank == highest_rank ? tr(", rank %1").arg(highest_rank)
                                          : tr(", rank %1 to %2 over the chains").arg(lowest_rank).arg(highest_rank);
  }
  const bool fisher = low_rank || (!dense && settings.get(services::setting::adapt) == "fisher");
  metric += low_rank ? tr(", adapted from the draws' and the gradients' covariances")
            : fisher ? tr(", adapted from the draws' and the gradients' variances")
                     : tr(", adapted as Stan does");

  // The pilot's iterations were warmup's first part, before the chains' rows.
  const int pilot = run->config.reparamPilot;
  const int cap = settings.get(services::setting::warmup);
  int fewest = cap, most = 0;
  for (const auto& chain : run->chains) {
    fewest = std::min(fewest, pilot + chain.warmupIterations());
    most = std::max(most, pilot + chain.warmupIterations());
  }
  QString warmup = tr("%1 iterations per chain").arg(cap);
  if (run->chains.empty() || most == 0) {
    warmup = tr("none");
  } else if (fewest != cap || most != cap) {
    warmup = (fewest == most ? QString::number(most) : tr("%1 to %2").arg(fewest).arg(most)) +
             tr(" iterations (at most %1)").arg(cap);
  }
  if (pilot > 0)
    warmup += tr(", of which the first %1 sampled non-centered to decide the reparameterization").arg(pilot);

  QStringList reparameterized;
  const services::ReparamChoice choice = services::parse_reparam(settings.get(services::setting::reparam));
  for (const auto& [name, centering] : choice.given) {
    const auto centred = std::count(centering.begin(), centering.end(), 1.0);
    const auto noncentered = std::count(centering.begin(), centering.end(), 0.0);
    const QString variable = QString::fromStdString(name);
    if (centering.size() == 1 || qsizetype(centering.size()) == noncentered || qsizetype(centering.size()) == centred) {
      reparameterized << (centering[0] == 0   ? tr("%1 non-centered").arg(variable)
                          : centering[0] == 1 ? tr("%1 as written").arg(variable)
                                              : tr("%1 centering %2").arg(variable).arg(centering[0]));
    } else {
      reparameterized << tr("%1: %2 of %3 elements as written, %4 non-centered")
                                 .arg(variable)
                                 .arg(centred)
                                 .arg(centering.size())
                                 .arg(noncentered) +
                             (qsizetype(centering.size()) != centred + noncentered ? tr(", the rest partly")
                                                                                   : QString());
    }
  }
  QString text = tr("Metric: %1 · Warmup: %2").arg(metric, warmup);
  if (!reparameterized.isEmpty()) text += tr(" · Reparameterized: %1").arg(reparameterized.join("; "));
  return text;
}

void SamplerStatsPanel::refresh() {
  dirty_ = false;
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  const QString setup = setupText();
  setup_->setVisible(!setup.isEmpty());
  setup_->setText(setup);
  const bool independent = run && services::draws_are_independent(run->config.method);
  note_->setVisible(independent);
  if (independent) {
    note_->setText(run->config.method == services::Method::advi
                       ? tr("ADVI draws come from the fitted approximation: there are no sampler statistics.")
                       : tr("%1 draws are independent draws from an approximation: there are no sampler statistics.")
                             .arg(methodName(run->config.method)));
  }
  const int chains = run && !independent ? static_cast<int>(run->chains.size()) : 0;
  table_->setRowCount(chains);
  for (int c = 0; c < chains; ++c) {
    const ChainStatistics s = statistics(c);
    const ChainState& state = run->chainStates[c];
    const bool done = state.finished || !run->isActive();
    const QString phase = chainPhase(*run, state, s);
    const auto rate = run->drawsPerSecond(c);
    const auto left = run->secondsLeft(c);
    const QStringList cells = {
        QString::number(c + 1), phase,
        // Counting the reparameterization pilot's iterations, which have no rows.
        QString("%1 / %2")
            .arg(run->config.reparamPilot + s.iterations)
            .arg(run->config.reparamPilot + std::max(run->plannedIterations(), s.iterations)),
        QString::number(s.stepSize, 'g', 3), QString::number(s.meanTreeDepth, 'f', 2), QString::number(s.maxDepthHits),
        s.warmupDivergences ? tr("%1 (+%2 in warmup)").arg(s.divergences).arg(s.warmupDivergences)
                            : QString::number(s.divergences),
        QString::number(s.meanAccept, 'f', 3), rate && !done ? QString::number(*rate, 'f', 0) : QStringLiteral("–"),
        left && !done ? duration(*left) : QStringLiteral("–")};
    for (int column = 0; column < cells.size(); ++column) {
      auto* item = table_->item(c, column);
      if (!item) {
        item = new QTableWidgetItem;
        item->setTextAlignment(column == 1 ? Qt::AlignCenter : Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(c, column, item);
      }
      item->setText(cells[column]);
      item->setBackground(column == 6 && s.divergences > 0 ? QColor("#ffcdd2") : QBrush());
    }
  }
}

}  // namespace variate::ui
