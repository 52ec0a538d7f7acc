#!/usr/bin/env bash
# The device check of the distributed work, for a machine lent with a GPU (one short run).
# It configures against a CUDA LibTorch when one is found (TORCH_CMAKE_DIR, or the
# torch Python package's), builds the engine, the CLI, the device and distributed suites
# and the distributed benchmark, runs the suites (tst_model_device compares the density on
# CUDA with the CPU's), and prints the benchmark twice: ms per gradient and per leapfrog
# of the 581,012 x 55 logistic regression on the CPU (1 rank x 1 thread, 1 x 2, 2 x 1,
# each rank with cores of its own here) and on the GPU (1 rank on cuda:0; 2 ranks on
# cuda:0 and cuda:1 when there are 2 GPUs).
#
# Not written yet, and reported: the NCCL communicator (a rank hands over CPU doubles,
# which Gloo carries); the script says whether this LibTorch was built with
# USE_C10D_NCCL.
#
#   bench/device/check.sh [BUILD_DIR]        # default: build-device
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$here/build-device}"

torch_dir="${TORCH_CMAKE_DIR:-}"
if [[ -z "$torch_dir" ]] && command -v python3 >/dev/null; then
  torch_dir="$(python3 -c 'import torch, os; print(os.path.join(torch.utils.cmake_prefix_path, "Torch"))' 2>/dev/null || true)"
fi
prefix=()
if [[ -n "$torch_dir" && -d "$torch_dir" ]]; then
  echo "LibTorch: $torch_dir"
  prefix=(-DTorch_DIR="$torch_dir")
else
  echo "LibTorch: the system's (libtorch-dev); no CUDA LibTorch found"
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || echo "no nvidia-smi"

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVARIATE_BUILD_STUDIO=OFF "${prefix[@]}" >/dev/null
grep -q "USE_C10D_NCCL" "$build/build.ninja" && echo "USE_C10D_NCCL: defined" || echo "USE_C10D_NCCL: not defined"
cmake --build "$build" --target variate tst_model_device tst_sharded_target tst_variate_distributed variate-bench-distributed -j "$(nproc)"

(cd "$build" && ctest -R "tst_model_device|tst_sharded_target|tst_variate_distributed" --output-on-failure)
"$build/app/variate" sample "$here/projects/arsenic_wells/wells.vmod" --data "$here/projects/arsenic_wells/data.json" \
  --device cuda --draws 100 --warmup 100 --seed 1 --quiet | head -4 || true
"$build/bench/variate-bench-distributed"
"$build/bench/variate-bench-distributed" --device cuda --nuts-iterations 10 || true
