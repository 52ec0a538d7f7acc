#include "engine/distributed/communicator.h"

#include <ATen/ATen.h>

namespace variate::distributed {

void LocalCommunicator::allgather(const at::Tensor& local, at::Tensor& gathered) {
  gathered.select(0, 0).copy_(local);
}

}  // namespace variate::distributed
