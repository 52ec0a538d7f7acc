#include "ui/plots/parameter_picker.h"

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace variate::ui {

ParameterPicker::ParameterPicker(QWidget* parent)
    : QWidget(parent), search_(new QLineEdit), list_(new QListWidget), count_(new QLabel) {
  search_->setPlaceholderText(tr("Search parameters"));
  search_->setClearButtonEnabled(true);
  auto* checkShown = new QPushButton(tr("Show matching"));
  auto* clear = new QPushButton(tr("None"));
  checkShown->setToolTip(tr("Check every parameter the search shows"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(checkShown);
  buttons->addWidget(clear);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(search_);
  layout->addWidget(list_, 1);
  layout->addLayout(buttons);
  layout->addWidget(count_);
  connect(search_, &QLineEdit::textChanged, this, &ParameterPicker::applyFilter);
  connect(list_, &QListWidget::itemChanged, this, [this] {
    if (!updating_) emit selectionChanged(selected());
  });
  connect(checkShown, &QPushButton::clicked, this, [this] {
    QStringList chosen = selected();
    for (int i = 0; i < list_->count(); ++i) {
      if (!list_->item(i)->isHidden() && !chosen.contains(list_->item(i)->text())) chosen << list_->item(i)->text();
    }
    setSelected(chosen);
  });
  connect(clear, &QPushButton::clicked, this, [this] { setSelected({}); });
}

void ParameterPicker::setNames(const QStringList& names, int defaultCount) {
  if (names == names_) return;
  QStringList keep;
  for (const auto& name : selected()) {
    if (names.contains(name)) keep << name;
  }
  if (keep.isEmpty()) keep = names.mid(0, defaultCount);
  names_ = names;
  updating_ = true;
  list_->clear();
  for (const auto& name : names) {
    auto* item = new QListWidgetItem(name, list_);
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setCheckState(keep.contains(name) ? Qt::Checked : Qt::Unchecked);
  }
  updating_ = false;
  applyFilter();
  emit selectionChanged(selected());
}

QStringList ParameterPicker::selected() const {
  QStringList chosen;
  for (int i = 0; i < list_->count(); ++i) {
    if (list_->item(i)->checkState() == Qt::Checked) chosen << list_->item(i)->text();
  }
  return chosen;
}

void ParameterPicker::setSelected(const QStringList& names) {
  updating_ = true;
  for (int i = 0; i < list_->count(); ++i) {
    list_->item(i)->setCheckState(names.contains(list_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
  }
  updating_ = false;
  applyFilter();
  emit selectionChanged(selected());
}


void ParameterPicker::applyFilter() {
  const QString text = search_->text().trimmed();
  int shown = 0;
  for (int i = 0; i < list_->count(); ++i) {
    const bool match = text.isEmpty() || list_->item(i)->text().contains(text, Qt::CaseInsensitive);
    list_->item(i)->setHidden(!match);
    shown += match;
  }
  count_->setText(tr("%1 of %2 shown, %3 plotted").arg(shown).arg(list_->count()).arg(selected().size()));
}

}  // namespace variate::ui
