#pragma once
/// The workers this user added (Workers panel), kept in QSettings under "workers": each
/// one's address and the paths of its token and CA files (never the token itself).

#include <QList>

#include "ui/document/worker_ref.h"

namespace variate::ui {

QList<WorkerRef> knownWorkers();
void setKnownWorkers(const QList<WorkerRef>& workers);

}  // namespace variate::ui
