#!/bin/sh
# `variate sample` from Stan's random starts and from Pathfinder's draws (--init pathfinder)
# on every reference posterior, side by side: warmup leapfrog steps (its gradient
# evaluations) of both, Pathfinder's own evaluations, and whether each run passes the
# reference (tools/compare_to_reference.py). Usage: bench/pathfinder_init.sh [BUILD] [SEED]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
seed=${2:-1}
variate=$build/app/variate
compare=$here/bench/compare_to_reference.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-42s %12s %12s %10s %8s %8s %6s\n' posterior warmup_random warmup_pf pf_evals ratio passes k_hat
for folder in "$here"/tests/data/reference/*/; do
  name=$(basename "$folder")
  for init in 2 pathfinder; do
    "$variate" sample "$folder/model.vmod" --data "$folder/data.json" --seed "$seed" --quiet --init "$init" \
      --summary-json "$work/$init.json" > "$work/$init.out" 2>&1 || echo "$name --init $init failed" >&2
    if python3 "$compare" "$work/$init.json" "$folder/reference.json" > "$work/$init.cmp" 2>&1; then
      echo yes > "$work/$init.pass"; else echo no > "$work/$init.pass"; fi
  done
  python3 - "$work" "$name" <<'PY'
import json, sys
work, name = sys.argv[1:]
r = json.load(open(f"{work}/2.json"))["sampler"]["warmup_leapfrog_steps"]
p = json.load(open(f"{work}/pathfinder.json"))
w = p["sampler"]["warmup_leapfrog_steps"]
e = p["init"]["gradient_evaluations"]
passes = open(f"{work}/2.pass").read().strip() + "/" + open(f"{work}/pathfinder.pass").read().strip()
k = p["init"]["pareto_k"]
print(f"{name:42s} {r:12d} {w:12d} {e:10d} {w / r:8.3f} {passes:>8s} {k if isinstance(k, str) else round(k, 2)!s:>6s}")
PY
done
