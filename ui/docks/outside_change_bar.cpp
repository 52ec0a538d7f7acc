#include "ui/docks/outside_change_bar.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace variate::ui {

OutsideChangeBar::OutsideChangeBar(QWidget* parent)
    : QFrame(parent), message_(new QLabel), accept_(new QPushButton), keep_(new QPushButton),
      showDifferences_(new QPushButton(tr("Differences"))), differences_(new QPlainTextEdit) {
  setFrameShape(QFrame::StyledPanel);
  setStyleSheet("OutsideChangeBar { background: #fff8e1; }");
  message_->setWordWrap(true);
  accept_->setObjectName("outsideChangeAccept");
  keep_->setObjectName("outsideChangeKeep");
  showDifferences_->setObjectName("outsideChangeShowDifferences");
  showDifferences_->setCheckable(true);
  differences_->setObjectName("outsideChangeDifferences");
  differences_->setReadOnly(true);
  differences_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  differences_->setMaximumHeight(160);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(message_, 1);
  buttons->addWidget(showDifferences_);
  buttons->addWidget(accept_);
  buttons->addWidget(keep_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addLayout(buttons);
  layout->addWidget(differences_);
  connect(showDifferences_, &QPushButton::toggled, differences_, &QWidget::setVisible);
  connect(accept_, &QPushButton::clicked, this, [this] {
    hide();
    emit accepted();
  });
  connect(keep_, &QPushButton::clicked, this, [this] {
    hide();
    emit kept();
  });
  differences_->hide();
  hide();
}

void OutsideChangeBar::offer(const QString& message, const QString& acceptText, const QString& keepText,
                             const QString& differences, bool showDifferences) {
  message_->setText(message);
  accept_->setText(acceptText);
  keep_->setText(keepText);
  differences_->setPlainText(differences);
  showDifferences_->setVisible(!differences.isEmpty());
  showDifferences_->setChecked(showDifferences && !differences.isEmpty());
  differences_->setVisible(showDifferences_->isChecked());
  show();
}

QString OutsideChangeBar::message() const { return message_->text(); }

QString OutsideChangeBar::differences() const { return differences_->toPlainText(); }

bool OutsideChangeBar::differencesShown() const { return !differences_->isHidden(); }

}  // namespace variate::ui
