#include "ui/engine/rank_processes.h"

#include <chrono>

#include <QFile>

#include "engine/core/argument_error.h"
#include "engine/distributed/distributed_error.h"

#include "ui/engine/sample_arguments.h"
#include "ui/engine/variate_program.h"

namespace variate::ui {
namespace {

// How long a rank waits for the others to join or answer (`variate sample --dist-timeout`).
constexpr std::chrono::seconds kTimeout{60};

QString writeFile(const QTemporaryDir& folder, const QString& name, const QString& text) {
  const QString path = folder.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.flush()) {
    throw ArgumentError("cannot write '" + path.toStdString() + "' for the other processes: " +
                        file.errorString().toStdString());
  }
  return path;
}

// `variate sample` with every setting the ranks must share: those the fingerprint checks
// (model, dtype, data shapes, row blocks) and those the lockstep would find differing
// (the NUTS options; the seed is rank 0's anyway, agree_on_seed).
std::vector<std::string> rankArguments(const QString& program, const RunConfig& config, const QString& model,
                                       const QString& data, int threads) {
  QStringList arguments{program, "sample", model, "--data", data};
  arguments << sampleOptionArguments(config, threads)  // each rank its GPU (cuda:local rank)
            << "--row-blocks" << QString::number(RankProcesses::kRowBlocks)
            << "--dist-timeout" << QString::number(kTimeout.count()) << "--quiet";
  std::vector<std::string> argv;
  for (const QString& argument : arguments) argv.push_back(argument.toStdString());
  return argv;
}

}  // namespace

RankProcesses::RankProcesses(const RunRequest& request, int threads) {
  if (!files_.isValid()) {
    throw ArgumentError("no temporary folder for the other processes' files: " + files_.errorString().toStdString());
  }
  const QString program = variateProgram();
  const QString model = writeFile(files_, "model.vmod", request.modelText);
  const QString data = writeFile(files_, "data.json", request.dataJson);

  distributed::RendezvousSpec spec;  // rank 0 on 127.0.0.1, at a port the system picks
  spec.world_size = request.config.processes;
  spec.timeout = kTimeout;
  group_ = std::make_unique<distributed::RunGroup>(spec);
  const std::string address = group_->spec().address();  // with the port served
  children_ = std::make_unique<distributed::ChildRanks>(
      spec.world_size, address, program.toStdString(), rankArguments(program, request.config, model, data, threads));
  group_->join([this] {
    if (const std::string failure = children_->poll_failure(); !failure.empty()) {
      throw distributed::DistributedError(failure + " before it joined the run");
    }
  });
  communicator_ = group_->communicator("run");
  lockstep_ = std::make_unique<distributed::CommunicatorLockstep>(communicator_);
}

RankProcesses::~RankProcesses() {
  if (children_) children_->stop();
}

QString RankProcesses::describe() const {
  return QString("%1 processes (rendezvous %2, rows split in %3 blocks)")
      .arg(group_->size())
      .arg(QString::fromStdString(group_->spec().address()))
      .arg(kRowBlocks);
}

std::string RankProcesses::finish() {
  std::string failure = children_->wait(kTimeout);
  if (!failure.empty()) children_->stop();
  return failure;
}

std::string RankProcesses::abort() {
  std::string failure = children_->poll_failure();
  children_->stop();
  return failure;
}

}  // namespace variate::ui
