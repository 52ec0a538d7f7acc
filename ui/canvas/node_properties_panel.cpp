#include "ui/canvas/node_properties_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/edit_node_command.h"
#include "ui/modeling/distribution_catalog.h"

namespace variate::ui {
namespace {

const char* const kNoDistribution = "(none)";

QString kindText(CanvasNode::Kind kind) {
  switch (kind) {
    case CanvasNode::Kind::Data: return QObject::tr("data");
    case CanvasNode::Kind::Observed: return QObject::tr("observed variable");
    case CanvasNode::Kind::Latent: return QObject::tr("latent variable (inferred)");
    case CanvasNode::Kind::TransformedData: return QObject::tr("transformed data");
    case CanvasNode::Kind::Derived: return QObject::tr("derived quantity");
    case CanvasNode::Kind::Network: return QObject::tr("network");
    case CanvasNode::Kind::LogDensity: return QObject::tr("log-density term (target +=)");
    case CanvasNode::Kind::Function:
      return QObject::tr("function");
  }
  return {};
}

// Everything the form shows: when it is unchanged the form is left alone.
QString signatureOf(const CanvasNode& node) {
  return QStringList{node.id, QString::number(int(node.kind)), node.declaredType, node.sizes.join(","),
                     node.distribution, node.parameters.join(","), node.arguments.join("\x1f"), node.expression,
                     QString::number(node.declaredData), QString::number(node.integerData), node.guideText}
      .join("\x1e");
}

void markInvalid(QWidget* field, bool invalid) {
  field->setStyleSheet(invalid ? "background: #fdecea; border: 1px solid #e53935;" : QString());
  field->setProperty("invalid", invalid);
}

}  // namespace

NodePropertiesPanel::NodePropertiesPanel(CanvasModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setObjectName("nodePropertiesPanel");
  setMinimumWidth(220);
  auto* layout = new QVBoxLayout(this);
  title_ = new QLabel(this);
  title_->setObjectName("propertiesTitle");
  title_->setWordWrap(true);
  formHost_ = new QWidget(this);
  new QVBoxLayout(formHost_);
  formHost_->layout()->setContentsMargins(0, 0, 0, 0);
  status_ = new QLabel(this);
  status_->setObjectName("statusLabel");
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(title_);
  layout->addWidget(formHost_);
  layout->addWidget(status_);
  layout->addStretch(1);
  connect(model_, &CanvasModel::selectionChanged, this, &NodePropertiesPanel::refresh);
  connect(model_, &CanvasModel::snapshotChanged, this, &NodePropertiesPanel::refresh);
  connect(model_, &CanvasModel::editRefused, this, [this](const QString& message) { setStatus(message, true); });
  refresh();
}

QString NodePropertiesPanel::status() const { return status_->text(); }

void NodePropertiesPanel::setStatus(const QString& message, bool error) {
  status_->setText(message);
  status_->setStyleSheet(error ? "color: #b71c1c;" : "color: #455a64;");
}

void NodePropertiesPanel::clearForm() {
  if (!form_) return;
  // The old fields may be mid-signal (an edit applied from their own editingFinished):
  // silence them now, delete them later.
  for (auto* child : form_->findChildren<QWidget*>()) QObject::disconnect(child, nullptr, this, nullptr);
  form_->hide();
  form_->deleteLater();
  form_ = nullptr;
  layout_ = nullptr;
}

void NodePropertiesPanel::refresh() {
  const QStringList& selection = model_->selection();
  const CanvasNode* node = selection.size() == 1 ? model_->shownSnapshot().node(selection.front()) : nullptr;
  if (!node) {
    clearForm();
    node_.clear();
    signature_.clear();
    title_->setText(selection.size() > 1 ? tr("%1 nodes selected").arg(selection.size())
                                         : tr("Select a node to edit it, or add one from the palette."));
    return;
  }
  const QString signature = signatureOf(*node);
  if (node->id != node_ || signature != signature_ || !form_) {
    setStatus({}, false);  // a new node, or the edit that changed this one was applied
    node_ = node->id;
    signature_ = signature;
    clearForm();
    buildForm(*node);
    form_->show();  // a layout shows a new child only later, from the event loop
  }
  form_->setEnabled(model_->snapshot().ok());
  if (!model_->snapshot().ok()) setStatus(tr("The model text has an error: %1").arg(model_->snapshot().error()), true);
}

QLineEdit* NodePropertiesPanel::addField(const QString& objectName, const QString& label, const QString& value,
                                         const std::function<QString(const QString&)>& check,
                                         const std::function<void(const QString&)>& apply) {
  auto* field = new QLineEdit(value, form_);
  field->setObjectName(objectName);
  layout_->addRow(label, field);
  connect(field, &QLineEdit::textEdited, this, [this, field, check](const QString& text) {
    const QString problem = check(text);
    markInvalid(field, !problem.isEmpty());
    setStatus(problem, !problem.isEmpty());
  });
  connect(field, &QLineEdit::editingFinished, this, [field, value, apply] {
    if (field->text() != value) apply(field->text());
  });
  return field;
}

QComboBox* NodePropertiesPanel::addDistributionField(const CanvasNode& node) {
  auto* combo = new QComboBox(form_);
  combo->setObjectName("distributionCombo");
  combo->setEditable(true);
  combo->setInsertPolicy(QComboBox::NoInsert);
  const bool optional = node.declaredData || node.kind == CanvasNode::Kind::TransformedData ||
                        (node.kind == CanvasNode::Kind::Observed && !node.expression.isEmpty());
  if (optional) combo->addItem(kNoDistribution);
  for (const FamilyInfo& family : catalog::families()) combo->addItem(family.name);
  const QString current = node.hasDistribution() ? node.distribution : QString(kNoDistribution);
  combo->setCurrentText(current);
  layout_->addRow(tr("Distribution"), combo);
  const QString id = node.id;
  auto value = [](const QString& text) { return text == kNoDistribution ? QString() : text.trimmed(); };
  auto apply = [this, combo, id, current, value] {
    if (combo->currentText() == current) return;
    model_->setDistribution(id, value(combo->currentText()));
  };
  connect(combo, &QComboBox::activated, this, apply);
  connect(combo->lineEdit(), &QLineEdit::editingFinished, this, apply);
  connect(combo->lineEdit(), &QLineEdit::textEdited, this, [this, combo, id, value](const QString& text) {
    const QString problem =
        model_->checkProperty(id, int(NodeProperty::Distribution), {}, value(text));
    const bool invalid = !problem.isEmpty();
    markInvalid(combo, invalid);
    setStatus(invalid ? problem : QString(), invalid);
  });
  return combo;
}

void NodePropertiesPanel::buildForm(const CanvasNode& node) {
  form_ = new QWidget(formHost_);
  layout_ = new QFormLayout(form_);
  layout_->setContentsMargins(0, 0, 0, 0);
  formHost_->layout()->addWidget(form_);
  title_->setText(tr("<b>%1</b> — %2").arg(node.id.toHtmlEscaped(), kindText(node.kind)));
  const QString id = node.id;
  auto checkProperty = [this, id](NodeProperty property, const QString& key) {
    return [this, id, property, key](const QString& text) {
      return model_->checkProperty(id, int(property), key, text);
    };
  };

  addField("nameEdit", tr("Name"), node.id,
           [this, id](const QString& text) { return text == id ? QString() : model_->checkRename(id, text); },
           [this, id](const QString& text) { model_->renameNode(id, text.trimmed()); });

  if (node.kind == CanvasNode::Kind::Function) {  // its arguments and result are edited in the text
    auto* signature = new QLabel(node.declaredType, form_);
    signature->setObjectName("signatureLabel");
    signature->setWordWrap(true);
    layout_->addRow(tr("Signature"), signature);
    addField("expressionEdit", tr("Body"), node.expression, checkProperty(NodeProperty::Expression, {}),
             [this, id](const QString& text) { model_->setExpression(id, text); });
    return;
  }
  if (node.declaredData) {
    auto* type = new QComboBox(form_);
    type->setObjectName("typeCombo");
    type->addItems({"real", "int"});
    type->setCurrentIndex(node.integerData ? 1 : 0);
    layout_->addRow(tr("Type"), type);
    connect(type, &QComboBox::activated, this, [this, id, integer = node.integerData](int index) {
      if ((index == 1) != integer) model_->setDataType(id, index == 1);
    });
  }
  const bool declaresSizes = node.declaredData || (node.hasDistribution() && node.expression.isEmpty());
  if (declaresSizes) {
    addField("sizesEdit", tr("Sizes"), node.sizes.join(", "), checkProperty(NodeProperty::Sizes, {}),
             [this, id](const QString& text) { model_->setSizes(id, text); });
  }
  if (!node.expression.isEmpty()) {
    addField("expressionEdit", tr("Expression"), node.expression, checkProperty(NodeProperty::Expression, {}),
             [this, id](const QString& text) { model_->setExpression(id, text); });
  }
  if (node.kind == CanvasNode::Kind::Network && !node.network.isEmpty()) {
    auto* layers = new QLabel(node.network, form_);
    layers->setObjectName("networkLabel");
    layers->setToolTip(tr("Its weights are learned by the training (amortized variational inference)"));
    layout_->addRow(tr("Layers"), layers);
  }
  if (node.kind != CanvasNode::Kind::Derived && node.kind != CanvasNode::Kind::Network) addDistributionField(node);

  const FamilyInfo* family = node.hasDistribution() ? catalog::find(node.distribution) : nullptr;
  if (family && family->parameterizations.size() > 1) {
    auto* which = new QComboBox(form_);
    which->setObjectName("parameterizationCombo");
    for (const auto& parameters : family->parameterizations) {
      QStringList names;
      for (const auto& p : parameters) names << p.name;
      which->addItem(family->name + "(" + names.join(", ") + ")");
    }
    const int current = family->parameterizationOf(node.parameters);
    which->setCurrentIndex(std::max(0, current));
    layout_->addRow(tr("Parameterization"), which);
    connect(which, &QComboBox::activated, this, [this, id, current](int index) {
      if (index != current) model_->setParameterization(id, index);
    });
  }
  for (int i = 0; i < node.parameters.size(); ++i) {
    const QString parameter = node.parameters[i];
    addField("argument:" + parameter, parameter, node.arguments.value(i),
             checkProperty(NodeProperty::Argument, parameter),
             [this, id, parameter](const QString& text) { model_->setArgument(id, parameter, text); });
  }
  if (!node.guideText.isEmpty()) {  // edited in the text: the guide is the variational side
    auto* guide = new QLabel(node.guideText, form_);
    guide->setObjectName("guideLabel");
    guide->setWordWrap(true);
    layout_->addRow(tr("Guide"), guide);
  }
}

}  // namespace variate::ui
