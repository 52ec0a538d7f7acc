#include "ui/modeling/model_checker.h"

#include "engine/core/shape.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/network_call.h"
#include "engine/model/printer.h"

#include "ui/threading/thread_handoff.h"

namespace variate::ui {
namespace {

ModelMark markOf(const model::Source& source, const model::Diagnostic& diagnostic) {
  ModelMark mark;
  mark.severity = diagnostic.severity == model::Severity::error     ? ModelMark::Severity::Error
                  : diagnostic.severity == model::Severity::warning ? ModelMark::Severity::Warning
                                                                    : ModelMark::Severity::Note;
  const model::Location begin = source.location(diagnostic.span.begin);
  const model::Location end = source.location(std::max(diagnostic.span.end, diagnostic.span.begin + 1));
  mark.line = static_cast<int>(begin.line);
  mark.column = static_cast<int>(begin.column);
  mark.endLine = static_cast<int>(end.line);
  mark.endColumn = static_cast<int>(end.column);
  mark.message = QString::fromStdString(diagnostic.message);
  return mark;
}

QString withShape(const std::string& name, const Shape& shape) {
  QString text = QString::fromStdString(name);
  if (shape.empty()) return text;
  QStringList extents;
  for (auto extent : shape) extents << QString::number(extent);
  return text + "[" + extents.join(", ") + "]";
}

// A deep model's networks with their layers, and its guided latents with their sizes.
void describeDeep(const model::CheckedModel& checked, ModelCheck& result) {
  const auto& statements = checked.program.statements;
  for (const model::Node& node : checked.nodes) {
    if (node.kind == model::NodeKind::network && node.assignment) {
      model::Diagnostics ignored;
      const model::Expr& value = statements[*node.assignment].as<model::Deterministic>()->value;
      const auto call = model::read_network_call(value, ignored);
      if (!call) continue;
      QStringList widths;
      for (const auto width : call->widths) widths << QString::number(width);
      const QString input = call->input ? QString::fromStdString(model::to_string(*call->input)) : QString();
      result.networks << QString("%1 = mlp(%2) → %3, %4")
                             .arg(QString::fromStdString(node.name), input, widths.join(" → "),
                                  model::activation_name(call->activation));
    }
    if (node.guide && node.distribution) {
      QStringList dims;
      for (const auto& dim : statements[*node.distribution].as<model::RandomStmt>()->dims) {
        dims << QString::fromStdString(model::to_string(dim));
      }
      result.amortized << QString::fromStdString(node.name) + (dims.isEmpty() ? QString() : "[" + dims.join(", ") + "]");
    }
  }
}

}  // namespace

ModelChecker::ModelChecker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<ModelCheck>();
  debounce_.setSingleShot(true);
  debounce_.setInterval(300);
  connect(&debounce_, &QTimer::timeout, this, &ModelChecker::dispatch);
  thread_.setObjectName("variate-checker");
  worker_ = new ModelCheckWorker;
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &ModelCheckWorker::checked, this, [this](const ModelCheck& check) {
    takeOver();
    deliver(check);
  });
  thread_.start();
}

ModelChecker::~ModelChecker() {
  thread_.quit();
  thread_.wait();
}

void ModelChecker::request(const QString& fileName, const QString& text, const QString& dataJson) {
  fileName_ = fileName;
  text_ = text;
  dataJson_ = dataJson;
  ++generation_;  // answers to earlier requests are now stale
  debounce_.start();
}

void ModelChecker::requestNow(const QString& fileName, const QString& text, const QString& dataJson) {
  request(fileName, text, dataJson);
  debounce_.stop();
  dispatch();
}

void ModelChecker::dispatch() {
  postCall(worker_, [worker = worker_, generation = generation_, file = fileName_, text = text_, data = dataJson_] {
    worker->check(generation, file, text, data);
  });
}

void ModelChecker::deliver(const ModelCheck& check) {
  if (check.generation == generation_) emit checked(check);
}

void ModelCheckWorker::check(quint64 generation, const QString& fileName, const QString& text,
                             const QString& dataJson) {
  ModelCheck result;
  result.generation = generation;
  try {
    // A deep model is checked without its data: binding it is the training's first step,
    // and a data set of images is too large to parse at every edit.
    const model::CompileResult parsed = model::compile_model(model::Source(fileName.toStdString(), text.toStdString()));
    if (parsed.checked && parsed.checked->is_deep()) {
      for (const auto& diagnostic : parsed.diagnostics) result.marks << markOf(*parsed.source, diagnostic);
      result.report = QString::fromStdString(parsed.report());
      result.deep = true;
      describeDeep(*parsed.checked, result);
      emitToOtherThreads([&] { emit checked(result); });
      return;
    }
    if (dataJson != dataText_) {
      dataText_ = dataJson;
      data_.reset();
      dataError_.clear();
      try {
        if (!dataJson.isEmpty()) {
          data_ = std::make_shared<Data>(io::parse_json_data(dataJson.toStdString(), "data"));
        }
      } catch (const std::exception& e) {
        dataError_ = QString::fromStdString(e.what());
      }
    }
    const model::CompileResult compiled = model::compile_model(
        model::Source(fileName.toStdString(), text.toStdString()), static_cast<const Data*>(data_.get()));
    for (const auto& diagnostic : compiled.diagnostics) result.marks << markOf(*compiled.source, diagnostic);
    result.report = QString::fromStdString(compiled.report());
    if (!dataError_.isEmpty()) result.report += "data: " + dataError_ + "\n";
    if (compiled.model) {
      result.compiled = true;
      for (const auto& parameter : compiled.model->layout().parameters()) {
        result.parameters << withShape(parameter.name, parameter.shape);
      }
      for (const auto& name : compiled.model->derived_names()) {
        result.derived << withShape(name, compiled.model->shape(name));
      }
    }
  } catch (const std::exception& e) {  // compile_model reports problems; this is a backstop
    ModelMark mark;
    mark.message = QString::fromStdString(e.what());
    result.marks << mark;
    result.report = mark.message;
  }
  emitToOtherThreads([&] { emit checked(result); });
}

}  // namespace variate::ui
