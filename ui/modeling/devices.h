#pragma once
/// The devices this build of LibTorch can run models on ("cpu", and "cuda" when built
/// with CUDA and a GPU is present).

#include <QStringList>

namespace variate::ui {

QStringList availableDevices();

}  // namespace variate::ui
