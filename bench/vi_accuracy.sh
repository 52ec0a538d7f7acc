#!/usr/bin/env bash
# How close variational fits come to the NUTS reference posteriors of tests/data/reference.
#
#   bench/vi_accuracy.sh [BUILD_DIR] [SEEDS] [METHODS]
#
# BUILD_DIR: the build tree whose app/variate runs (default: build). SEEDS: a count N for
# seeds 1..N (default 5) or a comma list (3,7). METHODS: a comma list of `variate fit`
# methods (default meanfield,fullrank); `variate pathfinder` is added when this build has
# that command (it is run as `variate pathfinder MODEL --data D --seed S --quiet
# --summary-json J`).
#
# Every reference posterior is fitted with every method and seed; a parameter's error is
# z = |mean - reference mean| / reference sd, the mean being the summary JSON's (the mean of
# the approximation's 1000 draws). The table has one row per posterior and method: the worst
# z over seeds and parameters, where it was, the Pareto k-hat of that fit's importance
# ratios (summary JSON "variational"/"pathfinder" -> "pareto_k"; above 0.7 the
# approximation is unreliable) and the largest k-hat over the seeds. tests/app/
# tst_vi_reference.cpp holds the regression posteriors to z <= 0.5 (column "ok").
# Needs python3 (standard library only).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
seeds_arg=${2:-5}
methods_arg=${3:-meanfield,fullrank}
variate=$build/app/variate
[[ -x $variate ]] || { echo "no executable $variate (pass the build directory)" >&2; exit 2; }

if [[ $seeds_arg =~ ^[0-9]+$ ]]; then seeds=$(seq 1 "$seeds_arg"); else seeds=${seeds_arg//,/ }; fi
methods=${methods_arg//,/ }
# An unknown subcommand makes the command line print its own help and exit 0, so look for
# the subcommand's usage line rather than at the exit status.
pathfinder_help=$("$variate" pathfinder --help 2>&1)
if grep -q '^Usage: .*pathfinder' <<< "$pathfinder_help"; then
  methods="$methods pathfinder"
else
  echo "note: $variate has no pathfinder command; fitting $methods only" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=$work/runs.tsv
: > "$runs"
for folder in "$root"/tests/data/reference/*/; do
  name=$(basename "$folder")
  for method in $methods; do
    for seed in $seeds; do
      out=$work/$name.$method.$seed.json
      if [[ $method == pathfinder ]]; then
        command=(pathfinder)
      else
        command=(fit --method "$method")
      fi
      start=$(date +%s.%N)
      "$variate" "${command[@]}" "$folder/model.vmod" --data "$folder/data.json" --seed "$seed" \
        --quiet --summary-json "$out" > "$work/log" 2>&1
      rc=$?
      end=$(date +%s.%N)
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$method" "$seed" "$rc" "$out" \
        "$(python3 -c "print($end - $start)")" >> "$runs"
      [[ $rc == 0 ]] || { echo "FAILED ($rc): $name $method seed $seed" >&2; tail -3 "$work/log" >&2; }
    done
  done
done

python3 - "$runs" "$root/tests/data/reference" <<'PY'
import json, math, sys
runs, reference_root = sys.argv[1], sys.argv[2]
rows = {}
for line in open(runs):
    name, method, seed, rc, path, seconds = line.rstrip("\n").split("\t")
    row = rows.setdefault((name, method), {"z": -1.0, "where": "-", "k": None, "k_max": None,
                                            "failed": 0, "fits": 0, "seconds": 0.0})
    row["fits"] += 1
    row["seconds"] += float(seconds)
    if rc != "0":
        row["failed"] += 1
        continue
    summary = json.load(open(path))
    ours = summary.get("parameters", {})
    info = summary.get("variational") or summary.get("pathfinder") or {}
    k = info.get("pareto_k")
    if isinstance(k, str):  # "inf" (or "nan") where JSON has no number for it
        try:
            k = float(k)
        except ValueError:
            k = None
    reference = json.load(open(f"{reference_root}/{name}/reference.json"))["parameters"]
    worst, where = -1.0, "-"
    for parameter, r in reference.items():
        s = ours.get(parameter)
        mean = s.get("mean") if s else None
        z = abs(mean - r["mean"]) / r["sd"] if isinstance(mean, (int, float)) and math.isfinite(mean) else math.inf
        if z > worst:
            worst, where = z, parameter
    if isinstance(k, (int, float)):
        row["k_max"] = k if row["k_max"] is None else max(row["k_max"], k)
    if worst > row["z"]:
        row["z"], row["where"], row["seed"], row["k"] = worst, where, seed, k

def number(x, digits=2):
    if x is None: return "-"
    if math.isinf(x) or math.isnan(x): return str(x)
    return f"{x:.{digits}f}" if abs(x) < 1000 else f"{x:.2g}"

header = f"{'posterior':40} {'method':10} {'worst |z|':>9} {'parameter':12} {'seed':>4} {'k-hat':>6} {'max k-hat':>9} {'ok':>3} {'failed':>6} {'s/fit':>6}"
print(header)
print("-" * len(header))
for (name, method), row in sorted(rows.items()):
    ok = "yes" if row["failed"] == 0 and 0 <= row["z"] <= 0.5 else "no"
    print(f"{name:40} {method:10} {number(row['z'] if row['z'] >= 0 else None):>9} {row['where']:12} "
          f"{row.get('seed', '-'):>4} {number(row['k']):>6} {number(row['k_max']):>9} {ok:>3} "
          f"{row['failed']:>6} {row['seconds'] / row['fits']:>6.1f}")
PY
