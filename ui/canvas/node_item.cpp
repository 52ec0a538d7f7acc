#include "ui/canvas/node_item.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/canvas/canvas_scene.h"

namespace variate::ui {
namespace {

constexpr double kMaxDetailWidth = 220;
constexpr double kSlotHeight = 16;
constexpr double kSlotGap = 6;
constexpr double kHandleRadius = 5;

// The UI's own font: at the canvas's default zoom (1) nodes read as the panels around them.
QFont nameFont() {
  QFont font = QApplication::font();
  font.setBold(true);
  return font;
}

QFont detailFont() { return QApplication::font(); }

QFont slotFont() {
  QFont font = QApplication::font();
  font.setPointSizeF(font.pointSizeF() * 0.9);
  return font;
}

bool isRectangular(CanvasNode::Kind kind) {
  return kind == CanvasNode::Kind::Data || kind == CanvasNode::Kind::TransformedData ||
         kind == CanvasNode::Kind::Network || kind == CanvasNode::Kind::LogDensity ||
         kind == CanvasNode::Kind::Function;
}

// A function's box has a bar inside each side, the flowchart's sign for a subroutine.
constexpr double kFunctionBarInset = 7;

// Room on a network's left for its layer glyph.
constexpr double kLayerGlyphWidth = 26;

// A network's glyph: one bar per layer (input first), its height growing with the width
// on a log scale, so an encoder narrows and a decoder widens at a glance.
void paintLayers(QPainter* painter, const QRectF& body, const CanvasNode& node) {
  const QList<qint64>& widths = node.layerWidths;
  if (widths.isEmpty()) return;
  const double most = std::log1p(static_cast<double>(*std::max_element(widths.begin(), widths.end())));
  const double step = (kLayerGlyphWidth - 8) / static_cast<double>(widths.size());
  const double full = body.height() - 14;
  painter->setPen(Qt::NoPen);
  painter->setBrush(QColor("#7e57c2"));
  for (int i = 0; i < widths.size(); ++i) {
    const double h = full * (0.2 + 0.8 * std::log1p(static_cast<double>(widths[i])) / most);
    painter->drawRoundedRect(QRectF(body.left() + 7 + i * step, body.center().y() - h / 2, step - 1.5, h), 1, 1);
  }
}

bool showsDiagnostics(const CanvasNode& node, const NodeDiagnostics* diagnostics) {
  return diagnostics && diagnostics->elements > 0 &&
         (node.kind == CanvasNode::Kind::Latent || node.kind == CanvasNode::Kind::Derived);
}

QString detailOf(const CanvasNode& node) {
  QString text;
  if (node.kind == CanvasNode::Kind::Data) return node.declaredType;
  if (node.kind == CanvasNode::Kind::Network && !node.network.isEmpty()) return node.network;
  if (node.kind == CanvasNode::Kind::LogDensity) return "+= " + node.expression;
  if (node.kind == CanvasNode::Kind::Function) return node.declaredType;
  // A recurrence's expression is its statements, which say '=' themselves.
  const bool recurrence = node.expression.startsWith(node.id + "[");
  if (!node.expression.isEmpty()) text = recurrence ? node.expression : "= " + node.expression;
  if (node.hasDistribution()) {
    QString prefix;
    if (node.declaredType.isEmpty() && !node.declaredData && !node.sizes.isEmpty()) {
      prefix = "[" + node.sizes.join(", ") + "] ";
    } else if (!node.declaredData && !node.declaredType.isEmpty()) {
      prefix = node.declaredType + " ";
    }
    text += (text.isEmpty() ? "" : " ") + prefix + "~ " + node.distributionText;
  }
  return text;
}

double slotWidth(const QString& parameter) {
  return QFontMetricsF(slotFont()).horizontalAdvance(parameter) + 12;
}

QStringList textLines(const CanvasNode& node, const NodeDiagnostics* diagnostics) {
  QStringList lines = {node.id};
  const QString detail = detailOf(node);
  if (!detail.isEmpty()) lines << QFontMetricsF(detailFont()).elidedText(detail, Qt::ElideRight, kMaxDetailWidth);
  if (showsDiagnostics(node, diagnostics)) lines << diagnostics->estimateText() << diagnostics->convergenceText();
  return lines;
}

}  // namespace

NodeItem::NodeItem(const CanvasNode& node, const NodeDiagnostics* diagnostics)
    : node_(node), hasDiagnostics_(showsDiagnostics(node, diagnostics)) {
  if (diagnostics) diagnostics_ = *diagnostics;
  const QSizeF size = bodySize(node, diagnostics);
  body_ = QRectF(-size.width() / 2, -size.height() / 2, size.width(), size.height());
  layoutSlots();
  setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
  setAcceptHoverEvents(true);
  setZValue(10);
  QString tip = QString("<b>%1</b>: %2").arg(node.id.toHtmlEscaped(), detailOf(node).toHtmlEscaped());
  if (node.kind == CanvasNode::Kind::Function) {
    tip = QObject::tr("<b>%1</b>%2 = %3<br>a function: its arrows go to what calls it")
              .arg(node.id.toHtmlEscaped(), node.declaredType.toHtmlEscaped(), node.expression.toHtmlEscaped());
  }
  if (const QString value = valueText(node); !value.isEmpty()) tip += QObject::tr("<br>value: %1").arg(value.toHtmlEscaped());
  if (hasDiagnostics_) {
    tip += "<br>" + diagnostics_.estimateText() + "<br>" + diagnostics_.convergenceText().toHtmlEscaped();
    if (diagnostics_.divergent) tip += QObject::tr("<br>involved in divergent transitions");
  }
  setToolTip(tip);
}

QSizeF NodeItem::bodySize(const CanvasNode& node, const NodeDiagnostics* diagnostics) {
  const QStringList lines = textLines(node, diagnostics);
  const QFontMetricsF name(nameFont()), detail(detailFont());
  double width = name.horizontalAdvance(lines.front());
  for (int i = 1; i < lines.size(); ++i) width = std::max(width, detail.horizontalAdvance(lines[i]));
  const double height = name.height() + (lines.size() - 1) * detail.height();
  QSizeF size = isRectangular(node.kind) ? QSizeF(width + 24, height + 14)
                                         : QSizeF(width * 1.22 + 30, height * 1.3 + 18);
  if (node.kind == CanvasNode::Kind::Network) size += QSizeF(kLayerGlyphWidth, 8);
  if (node.kind == CanvasNode::Kind::Function) size += QSizeF(2 * kFunctionBarInset, 0);
  double slotRow = kSlotGap;
  for (const auto& parameter : node.parameters) slotRow += slotWidth(parameter) + kSlotGap;
  size.setWidth(std::max({size.width(), slotRow + 16, 90.0}));
  size.setHeight(std::max(size.height(), 40.0));
  return QSizeF(std::ceil(size.width()), std::ceil(size.height()));
}

namespace {

// The slots' spans along the top edge, centred on the node: {left, width} each.
QList<QPair<double, double>> slotSpans(const CanvasNode& node) {
  double total = -kSlotGap;
  for (const auto& parameter : node.parameters) total += slotWidth(parameter) + kSlotGap;
  QList<QPair<double, double>> spans;
  double x = -total / 2;
  for (const auto& parameter : node.parameters) {
    spans << qMakePair(x, slotWidth(parameter));
    x += slotWidth(parameter) + kSlotGap;
  }
  return spans;
}

}  // namespace

void NodeItem::layoutSlots() {
  slots_.clear();
  const auto spans = slotSpans(node_);
  for (int i = 0; i < spans.size(); ++i) {
    slots_ << qMakePair(node_.parameters[i],
                        QRectF(spans[i].first, body_.top() - kSlotHeight / 2, spans[i].second, kSlotHeight));
  }
}

double NodeItem::slotOffset(const CanvasNode& node, const QString& parameter) {
  const int index = node.parameters.indexOf(parameter);
  if (index < 0) return 0;
  const auto span = slotSpans(node)[index];
  return span.first + span.second / 2;
}

QRectF NodeItem::boundingRect() const {
  return body_.adjusted(-6, -kSlotHeight / 2 - 6, 6, kHandleRadius + 6);
}

QPainterPath NodeItem::shape() const {
  QPainterPath path;
  path.setFillRule(Qt::WindingFill);  // the union: slots and handle overlap the body
  if (isRectangular(node_.kind)) {
    path.addRect(body_);
  } else {
    path.addEllipse(body_);
  }
  for (const auto& slot : slots_) path.addRect(slot.second);
  path.addEllipse(outputAnchor(), kHandleRadius + 2, kHandleRadius + 2);
  return path;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  QColor fill = Qt::white;
  if (node_.kind == CanvasNode::Kind::Data) fill = QColor("#eef1f5");
  if (node_.kind == CanvasNode::Kind::Observed) fill = QColor("#b8c2cc");
  if (node_.kind == CanvasNode::Kind::Network) fill = QColor("#ede7f6");
  if (node_.kind == CanvasNode::Kind::LogDensity) fill = QColor("#cfd8dc");  // a factor's square
  if (node_.kind == CanvasNode::Kind::Function) fill = QColor("#e8f5e9");
  if (hasDiagnostics_ && diagnostics_.tint().isValid()) fill = diagnostics_.tint();
  const bool selected = option->state & QStyle::State_Selected;
  QPen pen(selected ? QColor("#1e73d8") : QColor("#37474f"), selected ? 2.6 : 1.4);
  const bool network = node_.kind == CanvasNode::Kind::Network;
  if (network && !selected) pen.setColor(QColor("#5e35b1"));
  auto outline = [&](const QRectF& r) {
    if (network) {
      painter->drawRoundedRect(r, 12, 12);
    } else if (isRectangular(node_.kind)) {
      painter->drawRoundedRect(r, 3, 3);
    } else {
      painter->drawEllipse(r);
    }
  };
  if (hasDiagnostics_ && diagnostics_.divergent) {
    painter->setPen(QPen(QColor("#c2185b"), 3, Qt::DashLine));
    painter->setBrush(Qt::NoBrush);
    outline(body_.adjusted(-4, -4, 4, 4));
  }
  painter->setPen(pen);
  painter->setBrush(fill);
  outline(body_);
  if (network) {
    paintLayers(painter, body_, node_);
  } else if (node_.kind == CanvasNode::Kind::Function) {
    for (const double x : {body_.left() + kFunctionBarInset, body_.right() - kFunctionBarInset}) {
      painter->drawLine(QPointF(x, body_.top()), QPointF(x, body_.bottom()));
    }
  } else if (node_.isDeterministic()) {
    painter->setBrush(Qt::NoBrush);
    outline(body_.adjusted(4, 4, -4, -4));
  }

  const QStringList lines = textLines(node_, hasDiagnostics_ ? &diagnostics_ : nullptr);
  // A network's text sits right of its layer glyph.
  const QRectF text = network ? body_.adjusted(kLayerGlyphWidth - 4, 0, 0, 0) : body_;
  const QFontMetricsF name(nameFont()), detail(detailFont());
  double y = body_.center().y() - (name.height() + (lines.size() - 1) * detail.height()) / 2;
  painter->setPen(QColor("#102027"));
  painter->setFont(nameFont());
  painter->drawText(QRectF(text.left(), y, text.width(), name.height()), Qt::AlignCenter, lines.front());
  y += name.height();
  painter->setFont(detailFont());
  for (int i = 1; i < lines.size(); ++i) {
    painter->setPen(i >= 2 ? QColor("#3e2723") : QColor("#37474f"));
    painter->drawText(QRectF(text.left() - 20, y, text.width() + 40, detail.height()), Qt::AlignCenter, lines[i]);
    y += detail.height();
  }

  painter->setFont(slotFont());
  for (const auto& slot : slots_) {
    const bool hot = slot.first == highlighted_;
    painter->setPen(QPen(hot ? QColor("#e65100") : QColor("#8d6e63"), hot ? 2 : 1));
    painter->setBrush(hot ? QColor("#ffe082") : QColor("#fff8e1"));
    painter->drawRoundedRect(slot.second, kSlotHeight / 2, kSlotHeight / 2);
    painter->setPen(QColor("#4e342e"));
    painter->drawText(slot.second, Qt::AlignCenter, slot.first);
  }
  painter->setPen(QPen(Qt::white, 1.2));
  painter->setBrush(QColor("#546e7a"));
  painter->drawEllipse(outputAnchor(), kHandleRadius, kHandleRadius);
}

QString NodeItem::slotAt(const QPointF& point) const {
  for (const auto& slot : slots_) {
    if (slot.second.adjusted(-2, -3, 2, 3).contains(point)) return slot.first;
  }
  return {};
}

QRectF NodeItem::slotRect(const QString& parameter) const {
  for (const auto& slot : slots_) {
    if (slot.first == parameter) return slot.second;
  }
  return {};
}

QPointF NodeItem::slotAnchor(const QString& parameter) const {
  const QRectF slot = slotRect(parameter);
  return slot.isNull() ? QPointF(0, body_.top()) : QPointF(slot.center().x(), slot.top());
}

QPointF NodeItem::topAnchor(double dx) const {
  dx = std::clamp(dx, -body_.width() / 3, body_.width() / 3);
  if (isRectangular(node_.kind)) return QPointF(dx, body_.top());
  const double u = 2 * dx / body_.width();  // on the ellipse, the top drops away from the centre
  return QPointF(dx, -body_.height() / 2 * std::sqrt(std::max(0.0, 1 - u * u)));
}

bool NodeItem::onOutputHandle(const QPointF& point) const {
  return QLineF(point, outputAnchor()).length() <= kHandleRadius + 3;
}

void NodeItem::setHighlightedSlot(const QString& parameter) {
  if (parameter == highlighted_) return;
  highlighted_ = parameter;
  update();
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value) {
  if (change == ItemPositionHasChanged) {
    if (auto* canvas = qobject_cast<CanvasScene*>(scene())) canvas->nodeMoved(this);
  }
  return QGraphicsItem::itemChange(change, value);
}

}  // namespace variate::ui
