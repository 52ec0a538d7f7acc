#include "ui/docks/diagnostics_panel.h"

#include "engine/services/setting_table.h"

#include <algorithm>
#include <limits>

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "engine/diagnostics/thresholds.h"

#include "ui/document/project_document.h"

namespace variate::ui {

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QWidget(parent), model_(new DiagnosticsModel(this)), proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView), filter_(new QLineEdit), caption_(new QLabel) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::UserRole);
  proxy_->setFilterKeyColumn(0);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  view_->setModel(proxy_);
  view_->setObjectName("diagnosticsTable");
  view_->setSortingEnabled(true);
  view_->sortByColumn(-1, Qt::AscendingOrder);  // model order until the user sorts
  view_->verticalHeader()->setVisible(false);
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  // Sized to the contents when the rows change, not at every live update (which would
  // measure every cell several times a second).
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  // Wide enough for any value in the table's format, so live values never get elided.
  view_->horizontalHeader()->setMinimumSectionSize(view_->fontMetrics().horizontalAdvance("-0.000e+00") + 12);
  connect(model_, &QAbstractItemModel::modelReset, view_, &QTableView::resizeColumnsToContents);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  filter_->setPlaceholderText(tr("Filter parameters"));
  filter_->setClearButtonEnabled(true);
  caption_->setObjectName("diagnosticsCaption");
  caption_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(caption_);
  layout->addWidget(filter_);
  layout->addWidget(view_, 1);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(&age_, &QTimer::timeout, this, [this] {
    const RunPtr run = document_ ? document_->runs()->current() : nullptr;
    if (run && run->isActive()) caption_->setText(captionText(*run, document_->runs()->comparison().get()));
  });
  age_.start(1000);
}

void DiagnosticsPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    RunList* runs = document->runs();
    for (auto signal : {&RunList::currentChanged, &RunList::comparisonChanged, &RunList::summaryChanged,
                        &RunList::runChanged, &RunList::drawsReset}) {
      connections_ << connect(runs, signal, this, &DiagnosticsPanel::refresh);
    }
  }
  refresh();
}

// A live summary lags the sampler: at which iteration it was computed, how long ago, and
// where the chains are now.
QString DiagnosticsPanel::liveNote(const RunData& run) const {
  const RunSummary& s = run.summary;
  if (s.snapshotMs < 0) return tr(" (live)");
  int now = std::numeric_limits<int>::max();
  for (const auto& chain : run.chains) now = std::min(now, chain.iterations());
  const qint64 ago = std::max<qint64>(0, (QDateTime::currentMSecsSinceEpoch() - s.snapshotMs) / 1000);
  QString note = tr(" (live: computed at iteration %1, %2 s ago; the chains are at %3").arg(s.iterations).arg(ago).arg(now);
  if (s.stride > 1) note += tr("; from 1 draw in %1").arg(s.stride);
  return note + ")";
}

void DiagnosticsPanel::refresh() {
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  const RunPtr other = document_ ? document_->runs()->comparison() : nullptr;
  if (!run) {
    model_->setSummaries({}, nullptr);
    model_->setMode({}, {});
    caption_->setText(tr("No run yet: press Run."));
    return;
  }
  model_->setSummaries(run->summary, other ? &other->summary : nullptr, run->name, other ? other->name : QString());
  const ApproximationCheck& check = run->approximation;
  model_->setMode(other ? QStringList() : check.modeNames, check.modeValues);
  // Independent draws have no R-hat nor ESS: their columns go unless another run's
  // statistics share the table.
  const bool independent = services::draws_are_independent(run->config.method) && (!other || services::draws_are_independent(other->config.method));
  for (const auto statistic : {DiagnosticsModel::EssBulk, DiagnosticsModel::EssTail, DiagnosticsModel::Rhat}) {
    for (const bool comparison : {false, true}) {
      if (comparison && !model_->comparing()) continue;
      view_->setColumnHidden(model_->columnOf(statistic, comparison), independent);
    }
  }
  caption_->setText(captionText(*run, other.get()));
}

QString DiagnosticsPanel::captionText(const RunData& runData, const RunData* other) const {
  const RunData* run = &runData;
  const ApproximationCheck& check = run->approximation;
  if (run->config.method == services::Method::amortized) {
    return tr("%1 trains networks: it has no draws (the ELBO and Reconstructions panels show it)").arg(run->name);
  }
  const RunSummary& s = run->summary;
  const services::Method method = run->config.method;
  const QString mode = check.modeLogDensity ? tr(" (log density %1)").arg(*check.modeLogDensity, 0, 'g', 6) : QString();
  const QString independentNote = tr(": independent, so R-hat and ESS do not apply");
  QString text =
      method == services::Method::sbc
          ? tr("%1: simulation-based calibration keeps no draws: its ranks and verdicts are in the SBC panel")
                .arg(run->name)
      : s.rows.empty() ? tr("%1: no draws summarized yet").arg(run->name)
      : method == services::Method::advi
          ? tr("%1: %2 draws from the fitted approximation").arg(run->name).arg(s.drawsPerChain) + independentNote
      : method == services::Method::optimize && run->config.settings.get(services::setting::laplace_draws) > 0 &&
              s.drawsPerChain > 1
          ? tr("%1: %2 draws from the Laplace approximation at the mode%3")
                    .arg(run->name)
                    .arg(s.drawsPerChain)
                    .arg(mode) +
                independentNote
      : method == services::Method::optimize
          ? tr("%1: the mode L-BFGS found%2, no draws around it").arg(run->name, mode)
      : method == services::Method::pathfinder
          ? tr("%1: %2 Pathfinder draws (%n path(s))", "", run->config.settings.get(services::setting::num_paths))
                    .arg(run->name)
                    .arg(s.drawsPerChain) +
                independentNote
          : tr("%1: %2 × %3 %4 draws%5")
                .arg(run->name)
                .arg(run->chains.size() == 1 ? tr("1 chain") : tr("%1 chains").arg(run->chains.size()))
                .arg(s.drawsPerChain)
                .arg(run->config.settings.get(services::setting::prior) ? tr("prior (simulated)")
                     : s.fromWarmup                                     ? tr("warmup")
                                                                        : tr("post-warmup"))
                .arg(run->isActive()            ? liveNote(*run)
                     : !run->summaryIsCurrent() ? tr(" (updating to the run's last draws)")
                                                : QString());
  if (check.paretoK) {
    text += " · " + kHatText(*check.paretoK) + (check.unreliable() ? tr(" (unreliable: see the ELBO panel)") : QString());
  }
  if (other) text += tr("   compared with %1").arg(other->name);
  int flagged = 0;
  for (const auto& row : s.rows) {
    flagged += !diagnostics::convergence_verdict(row.r_hat, row.ess_bulk, row.ess_tail, s.chains).converged();
  }
  if (flagged) {
    text += tr(" — %1 flagged (R-hat ≥ %2 or ESS < %3)")
                .arg(flagged)
                .arg(diagnostics::kMaxRhat)
                .arg(diagnostics::min_ess(s.chains));
  }
  return text;
}

}  // namespace variate::ui
