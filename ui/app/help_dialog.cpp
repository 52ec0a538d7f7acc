#include "ui/app/help_dialog.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/modeling/language_words.h"

namespace variate::ui {

HelpDialog::HelpDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Variate Help"));
  auto* browser = new QTextBrowser;
  browser->setOpenExternalLinks(true);
  browser->setHtml(html());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(browser);
  layout->addWidget(buttons);
  resize(720, 640);
}

QString HelpDialog::html() {
  return tr(R"(<h2>Variate Studio</h2>
<p>Write a model in the <b>Model</b> panel; the engine checks it as you type and underlines problems
at their line and column. Pick a data set in <b>Data</b>, set the method in <b>Run</b> and press
<b>Run</b> (F5). Chains, diagnostics and the ELBO update live; every run is recorded in the project
file as it goes, so a crash loses at most the last second of draws.</p>
<h3>The model language</h3>
<pre>data J: int                       # an input, from the data set
data y: real[J]
mu ~ Normal(0, 5)                 # a random variable (latent: inferred)
theta_trans[J] ~ Normal(0, 1)     # J independent copies
theta = theta_trans * tau + mu    # a deterministic node
y ~ Normal(theta, sigma)          # y is data: observed</pre>
<p>Constraint types: <code>NAME: ordered[K] ~ ...</code>, <code>positive_ordered</code>, <code>simplex</code>,
<code>cholesky_corr</code>. Indexing is 1-based; <code>*</code> and <code>/</code> are elementwise, <code>@</code> is the matrix product.</p>
<p><b>Distributions</b>: %1</p>
<p><b>Functions</b>: %2</p>
<h3>Panels</h3>
<ul><li><b>Traces</b>: each chain's draws, warmup shaded, divergences in red; search parameters by name.</li>
<li><b>Diagnostics</b>: mean, sd, quantiles, bulk/tail ESS and rank-normalized split R-hat, flagged when
R-hat ≥ 1.01 or a bulk or tail ESS is below 100 per chain (Vehtari et al. 2021, the rule
every report applies); side by side with a compared run.</li>
<li><b>Run</b>: every option of <code>variate sample</code> (chains, warmup, draws, threads, metric, maximum
tree depth, adapt delta, batched chains) and <code>variate fit</code> (family, iterations, tol_rel_obj, eta,
adaptation iterations, gradient and ELBO draws, the ELBO's evaluation interval, output draws), with seed,
dtype and device; each run records the settings it used.</li>
<li><b>Density</b>, <b>Sampler</b> (step size, tree depth, divergences, acceptance, draws/s, time left),
<b>ELBO</b> (ADVI), <b>Runs</b> (right-click to compare, rename, continue or export), <b>Log</b>.</li></ul>
<p>Panels can be moved, tabbed, floated and closed; View ▸ Reset Layout brings them back.</p>
<p><b>File ▸ Export ▸ Model as C++ Program</b> writes model.h (the model on the engine's C++ API), main.cpp
(NUTS, ADVI and the log density from the command line), CMakeLists.txt and a README into a folder:
the same program as <code>variate export MODEL.vmod --cpp DIR</code>.</p>
<h3>Shortcuts</h3>
<table cellpadding="3">
<tr><td>F5</td><td>Run</td></tr><tr><td>F6</td><td>Pause / resume</td></tr>
<tr><td>Shift+F5</td><td>Stop (the draws so far are kept)</td></tr>
<tr><td>Ctrl+F5</td><td>Run more draws (continues the current run's chains)</td></tr>
<tr><td>Ctrl+Shift+C</td><td>Compare runs</td></tr>
<tr><td>Ctrl+N / Ctrl+O / Ctrl+S</td><td>New, open, save</td></tr>
<tr><td>Ctrl+Z / Ctrl+Shift+Z</td><td>Undo / redo (model text and settings)</td></tr>
<tr><td>F1</td><td>This help</td></tr></table>)")
      .arg(distributionNames().join(", "), functionNames().join(", "));
}

}  // namespace variate::ui
