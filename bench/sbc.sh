#!/bin/sh
# `variate sbc` on the calibration cases of tests/data/sbc: 200 replications (NUTS at its
# defaults) of the non-centered eight schools and of a logistic regression, which must not
# reject uniformity, and two planted mismatches, which must: data simulated with a grand
# mean three times as spread (--generator), and a broken sampler (tree depth 1, 100 warmup
# iterations). Per case: wall time, the quantities rejected at 1% by the ECDF band, the
# smallest chi-square p, and the replications whose fits had problems.
# Usage: bench/sbc.sh [BUILD] [REPLICATIONS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
replications=${2:-200}
variate=$build/app/variate
sbc=$here/tests/data/sbc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-28s %8s %10s %10s %9s\n' case seconds rejected min_chi2_p problems
run() {  # NAME MODEL, then variate sbc's options
  name=$1 model=$2
  shift 2
  start=$(date +%s.%N)
  "$variate" sbc "$sbc/$model.vmod" --data "$sbc/$model.json" --replications "$replications" --quiet \
    --summary-json "$work/$name.json" "$@" > /dev/null
  end=$(date +%s.%N)
  python3 - "$work/$name.json" "$name" "$start" "$end" <<'PY'
import json, sys
path, name, start, end = sys.argv[1:]
s = json.load(open(path))["sbc"]
rejected = [q["name"] for q in s["quantities"] if not q["uniform"]]
p = min(q["chi_square"]["p_value"] for q in s["quantities"])
print(f"{name:28s} {float(end) - float(start):8.1f} {len(rejected):4d} of {len(s['quantities']):<3d} {p:10.3g} {len(s['problems']):9d}")
PY
}
run eight_schools eight_schools --seed 1
run logistic logistic --seed 1
run eight_schools_wide_mu eight_schools --seed 2 --generator "$sbc/eight_schools_wide_mu.vmod"
run eight_schools_max_depth_1 eight_schools --seed 2 --max-depth 1 --warmup 100

seconds() {  # variate sbc's options: the wall time of eight schools' replications
  start=$(date +%s.%N)
  "$variate" sbc "$sbc/eight_schools.vmod" --data "$sbc/eight_schools.json" --replications "$replications" --quiet \
    --seed 1 "$@" > /dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
one=$(seconds --parallel 1)
two=$(seconds --nproc 2 --parallel 1)
python3 -c "print(f'eight schools, {$replications} replications: 1 process {$one} s, 2 processes {$two} s, ratio {$two / $one:.2f}')"
