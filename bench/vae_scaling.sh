#!/usr/bin/env bash
# Data-parallel scaling of the VAE (projects/fashion_vae): the same training (60,000
# Fashion-MNIST images, batch 128 unless given, seed 1) on 1 process and on 2 processes
# (`--nproc 2`), 1 LibTorch thread each, alternating, and the images per second of each
# over the training steps (the fit's own clock, from its --summary-json), with the 2/1
# ratio of the medians. On this 2-core machine the two ranks take both cores; they sum
# their gradients in shared memory (engine/deep/shared_training_memory.h).
#
#   bench/vae_scaling.sh [BUILD_DIR] [REPEATS] [EPOCHS] [BATCH]
set -euo pipefail
build="${1:-build}"
repeats="${2:-3}"
epochs="${3:-2}"
batch="${4:-128}"
variate="$build/app/variate"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="$root/projects/fashion_vae/fashion_vae.vmod"
data="$root/projects/fashion_vae/train.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rate() {  # images per second of one training on $1 processes (1: a plain run, no group)
  local ranks=()
  [ "$1" -gt 1 ] && ranks=(--nproc "$1")
  "$variate" fit "$model" --data "$data" --epochs "$epochs" --batch-size "$batch" --seed 1 --threads 1 --quiet \
    "${ranks[@]}" --summary-json "$work/summary.json" > /dev/null 2>&1
  grep -o '"rows_per_second": [0-9.e+]*' "$work/summary.json" | awk '{print $2}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

: > "$work/one"; : > "$work/two"
for _ in $(seq "$repeats"); do
  rate 1 >> "$work/one"
  rate 2 >> "$work/two"
done
one="$(median < "$work/one")"
two="$(median < "$work/two")"
printf 'VAE on Fashion-MNIST, %s epoch(s), batch %s, 1 thread per process, %s repeats (medians)\n' "$epochs" "$batch" "$repeats"
printf '  1 process:   %8.0f images/s  (%s)\n' "$one" "$(tr '\n' ' ' < "$work/one")"
printf '  2 processes: %8.0f images/s  (%s)\n' "$two" "$(tr '\n' ' ' < "$work/two")"
awk -v a="$one" -v b="$two" 'BEGIN {printf "  speed-up 2/1: %.2fx (scaling efficiency %.0f%%)\n", b / a, 50 * b / a}'
