#include "ui/modeling/devices.h"

#include <ATen/Context.h>

namespace variate::ui {

QStringList availableDevices() {
  QStringList devices{"cpu"};
  if (at::hasCUDA()) devices << "cuda";
  return devices;
}

}  // namespace variate::ui
