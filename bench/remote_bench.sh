#!/usr/bin/env bash
# What streaming a run from a worker costs. Runs the same NUTS run (radon, 1 chain, then
# 2 chains; CSV files written) locally and through a `variate worker` on 127.0.0.1,
# alternating, and prints draws per second of each (wall clock of the client, from its
# start to its files written) and the remote/local ratio of the medians. On loopback the
# worker and the client share this host's cores: with as many chains as cores, the
# client's work (constraining and writing every draw) and the job's project recording
# take cores from the chains, which separate hosts do not.
#
#   bench/remote_bench.sh [BUILD_DIR] [REPEATS] [DRAWS]
set -euo pipefail
build="${1:-build}"
repeats="${2:-5}"
draws="${3:-4000}"
variate="$build/app/variate"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
model="$root/projects/radon/radon.vmod"
data="$root/projects/radon/data.json"
work="$(mktemp -d)"
trap 'kill "$worker_pid" 2>/dev/null || true; wait "$worker_pid" 2>/dev/null || true; rm -rf "$work"' EXIT

printf 'bench-token-%s\n' "$RANDOM$RANDOM" > "$work/token"
chmod 600 "$work/token"
"$variate" worker --token-file "$work/token" --jobs-dir "$work/jobs" > "$work/worker.out" 2>&1 &
worker_pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/worker.out" && break; sleep 0.1; done
address="$(grep -o '127\.0\.0\.1:[0-9]*' "$work/worker.out")"

seconds() {  # the wall-clock seconds of a command
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for chains in 1 2; do
  run=(sample "$model" --data "$data" --chains "$chains" --warmup 500 --draws "$draws" --seed 1 --quiet)
  local_times=() remote_times=()
  "$variate" "${run[@]}" --output "$work/warm" > /dev/null 2>&1  # page cache, first-touch costs
  for i in $(seq "$repeats"); do
    local_times+=("$(seconds "$variate" "${run[@]}" --output "$work/local")")
    remote_times+=("$(seconds "$variate" "${run[@]}" --output "$work/remote" --worker "$address" --token-file "$work/token")")
  done
  total=$((chains * (500 + draws)))
  local_median=$(median "${local_times[@]}")
  remote_median=$(median "${remote_times[@]}")
  echo "radon, $chains chain(s) x (500 warmup + $draws draws) = $total iterations, $repeats runs each, alternating"
  echo "  local:  ${local_times[*]} s; median $local_median s = $(awk -v n="$total" -v t="$local_median" 'BEGIN {printf "%.0f", n / t}') iterations/s"
  echo "  remote: ${remote_times[*]} s; median $remote_median s = $(awk -v n="$total" -v t="$remote_median" 'BEGIN {printf "%.0f", n / t}') iterations/s"
  echo "  remote / local draws per second: $(awk -v l="$local_median" -v r="$remote_median" 'BEGIN {printf "%.3f", l / r}')"
  for chain in $(seq "$chains"); do
    cmp -s <(grep -v -E 'start_datetime|Elapsed|seconds \(|file = ' "$work/local/chain_$chain.csv") \
           <(grep -v -E 'start_datetime|Elapsed|seconds \(|file = ' "$work/remote/chain_$chain.csv") ||
      echo "  warning: chain $chain differs between the local and the remote run"
  done
done
