#include "ui/canvas/node_palette.h"

#include <QMimeData>
#include <QStyle>

#include "ui/modeling/distribution_catalog.h"

namespace variate::ui {
namespace {

constexpr int kTemplateRole = Qt::UserRole + 1;

QTreeWidgetItem* addEntry(QTreeWidgetItem* group, const QString& label, const NodeTemplate& what,
                          const QString& tip) {
  auto* item = new QTreeWidgetItem(group, {label});
  item->setData(0, kTemplateRole, what.encode());
  item->setToolTip(0, tip);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
  return item;
}

QTreeWidgetItem* addGroup(QTreeWidget* tree, const QString& title) {
  auto* group = new QTreeWidgetItem(tree, {title});
  group->setFlags(Qt::ItemIsEnabled);
  QFont font = group->font(0);
  font.setBold(true);
  group->setFont(0, font);
  return group;
}

}  // namespace

NodePalette::NodePalette(QWidget* parent) : QTreeWidget(parent) {
  setObjectName("nodePalette");
  setHeaderHidden(true);
  setRootIsDecorated(true);
  setDragEnabled(true);
  setDragDropMode(QAbstractItemView::DragOnly);
  setSelectionMode(QAbstractItemView::SingleSelection);

  auto* inputs = addGroup(this, tr("Data, expressions"));
  addEntry(inputs, tr("Data (real)"), {NodeTemplate::Kind::RealData, {}},
           tr("An input read from the data: data x: real"));
  addEntry(inputs, tr("Data (int)"), {NodeTemplate::Kind::IntData, {}},
           tr("An integer input, such as a size or counts: data n: int"));
  addEntry(inputs, tr("Expression"), {NodeTemplate::Kind::Expression, {}},
           tr("A deterministic node computed from others: value = ..."));
  addEntry(inputs, tr("Function"), {NodeTemplate::Kind::Function, {}},
           tr("A function to call in expressions: function f(x: real): real = ..."));

  QHash<QString, QTreeWidgetItem*> groups;
  for (const FamilyInfo& family : catalog::families()) {
    if (!groups.contains(family.group)) groups.insert(family.group, addGroup(this, family.group));
    addEntry(groups.value(family.group), family.name, {NodeTemplate::Kind::Random, family.name},
             tr("%1 — support: %2").arg(family.signature, family.support));
  }
  expandAll();
  connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { onItemActivated(item); });
  // Enter (and a double click where a single click does not activate) adds too.
  if (!style()->styleHint(QStyle::SH_ItemView_ActivateItemOnSingleClick, nullptr, this)) {
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { onItemActivated(item); });
  }
}

QTreeWidgetItem* NodePalette::itemFor(const NodeTemplate& what) const {
  const QString code = what.encode();
  for (QTreeWidgetItemIterator it(const_cast<NodePalette*>(this)); *it; ++it) {
    if ((*it)->data(0, kTemplateRole).toString() == code) return *it;
  }
  return nullptr;
}

void NodePalette::onItemActivated(QTreeWidgetItem* item) {
  NodeTemplate what;
  if (item && NodeTemplate::decode(item->data(0, kTemplateRole).toString(), &what)) emit nodeRequested(what);
}

QStringList NodePalette::mimeTypes() const { return {NodeTemplate::kMimeType}; }

QMimeData* NodePalette::mimeData(const QList<QTreeWidgetItem*>& items) const {
  if (items.isEmpty() || items.front()->data(0, kTemplateRole).toString().isEmpty()) return nullptr;
  auto* data = new QMimeData;
  data->setData(NodeTemplate::kMimeType, items.front()->data(0, kTemplateRole).toString().toUtf8());
  return data;
}

}  // namespace variate::ui
