#include "ui/docks/known_workers.h"

#include <QSettings>

namespace variate::ui {

QList<WorkerRef> knownWorkers() {
  QSettings settings;
  QList<WorkerRef> workers;
  const int n = settings.beginReadArray("workers");
  for (int i = 0; i < n; ++i) {
    settings.setArrayIndex(i);
    WorkerRef worker;
    worker.address = settings.value("address").toString();
    worker.tokenFile = settings.value("token_file").toString();
    worker.caFile = settings.value("ca_file").toString();
    if (worker.isRemote()) workers << worker;
  }
  settings.endArray();
  return workers;
}

void setKnownWorkers(const QList<WorkerRef>& workers) {
  QSettings settings;
  settings.remove("workers");
  settings.beginWriteArray("workers", static_cast<int>(workers.size()));
  for (int i = 0; i < workers.size(); ++i) {
    settings.setArrayIndex(i);
    settings.setValue("address", workers[i].address);
    settings.setValue("token_file", workers[i].tokenFile);
    settings.setValue("ca_file", workers[i].caFile);
  }
  settings.endArray();
}

}  // namespace variate::ui
