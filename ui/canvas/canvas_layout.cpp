#include "ui/canvas/canvas_layout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace variate::ui {
namespace {

const char* const kFormat = "variate-canvas-layout";
constexpr int kVersion = 1;

}  // namespace

void CanvasLayout::setPositions(const NodePositions& positions) {
  if (positions == positions_) return;
  positions_ = positions;
  emit positionsChanged();
}

void CanvasLayout::merge(const NodePositions& positions) {
  bool changed = false;
  for (auto it = positions.begin(); it != positions.end(); ++it) {
    if (positions_.value(it.key(), QPointF(NAN, NAN)) == it.value()) continue;
    positions_[it.key()] = it.value();
    changed = true;
  }
  if (changed) emit positionsChanged();
}

QByteArray CanvasLayout::toJson(const QStringList& nodes) const {
  QJsonObject entries;
  for (const QString& node : nodes) {
    if (!positions_.contains(node)) continue;
    const QPointF p = positions_.value(node);
    entries.insert(node, QJsonArray{p.x(), p.y()});
  }
  QJsonObject root;
  root.insert("format", kFormat);
  root.insert("version", kVersion);
  root.insert("nodes", entries);
  return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

bool CanvasLayout::fromJson(const QByteArray& json, NodePositions* positions, QString* error) {
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
  if (!document.isObject()) {
    *error = tr("canvas layout: not a JSON object (%1)").arg(parseError.errorString());
    return false;
  }
  const QJsonObject root = document.object();
  if (root.value("format").toString() != kFormat || root.value("version").toInt() != kVersion) {
    *error = tr("canvas layout: expected format %1 version %2").arg(kFormat).arg(kVersion);
    return false;
  }
  NodePositions read;
  const QJsonObject nodes = root.value("nodes").toObject();
  for (auto it = nodes.begin(); it != nodes.end(); ++it) {
    const QJsonArray xy = it.value().toArray();
    if (xy.size() != 2 || !xy[0].isDouble() || !xy[1].isDouble()) {
      *error = tr("canvas layout: the position of '%1' is not [x, y]").arg(it.key());
      return false;
    }
    read.insert(it.key(), QPointF(xy[0].toDouble(), xy[1].toDouble()));
  }
  *positions = read;
  return true;
}

}  // namespace variate::ui
