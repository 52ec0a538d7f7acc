#pragma once
/// What the figures depend on besides the code: LibTorch's version, its intra-op thread
/// count, and which BLAS it was built for and which one the process actually loaded
/// (Debian's LibTorch links the system libblas.so.3, which update-alternatives may point
/// at the reference BLAS or at OpenBLAS).

#include <string>

namespace variate::bench {

struct RuntimeInfo {
  std::string torch_version;
  int cores = 0;             // std::thread::hardware_concurrency()
  int intra_op_threads = 0;  // at::get_num_threads()
  std::string blas_config;   // BLAS_INFO and LAPACK_INFO of at::show_config()
  std::string blas_loaded;   // BLAS libraries mapped into this process
  std::string openblas_threads;  // $OPENBLAS_NUM_THREADS, or "unset"
  std::string omp_wait_policy;   // $OMP_WAIT_POLICY, or "unset"
  /// The 1-minute load average when the run started: other processes on the same cores
  /// distort the figures, badly so for OpenMP's spinning threads.
  double load_average = 0;
};

RuntimeInfo runtime_info();

}  // namespace variate::bench
