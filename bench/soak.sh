#!/usr/bin/env bash
# The studio's soak run: 4 chains x 200,000 draws (after 1,000 warmup) of a 100-parameter
# model (bench/soak/soak.vmod: 98 schools, non-centered) with every panel open, each
# floating in a window of its own so that all of them redraw, under Xvfb. The studio's
# --monitor writes, each second, its resident memory and the longest stall of its UI
# thread; after the run it stays open for the post-run panels (predictive check, LOO) and
# then quits. Prints the memory curve (one line a minute) and the longest stall, start-up's
# and the rest's.
#
#   bench/soak.sh BUILD [DRAWS] [MINUTES_AFTER]        # defaults: 200000 draws, 3 minutes
set -euo pipefail
build="$(cd "${1:?usage: bench/soak.sh BUILD [DRAWS] [MINUTES_AFTER]}" && pwd)"
draws="${2:-200000}"
after=$(( ${3:-3} * 60 ))
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
cp "$here/soak/soak.vmod" "$here/soak/data.json" "$work/"
monitor="$work/monitor.txt"

xvfb-run -a -s "-screen 0 1920x1200x24" "$build/app/variate-studio" "$work/soak.vmod" --method nuts --chains 4 \
  --warmup 1000 --draws "$draws" --seed 1 --run-on-open --float-all-panels --monitor "$monitor" --progress \
  > "$work/studio.log" 2>&1 &
studio=$!
# The run ends when the studio prints "ended"; then the panels that wait for it compute.
until grep -q '^ended ' "$work/studio.log" 2>/dev/null; do
  if ! kill -0 "$studio" 2>/dev/null; then echo "the studio ended early:"; cat "$work/studio.log"; exit 1; fi
  sleep 5
done
sleep "$after"
# xvfb-run's child is the studio; end the whole group this script started.
pkill -TERM -P "$studio" || true
wait "$studio" || true

echo "run: $(grep '^ended ' "$work/studio.log")"
echo "minute  resident MiB  longest UI stall that minute (ms)  iterations per chain"
awk 'NR > 1 { m = int($1 / 60); rss[m] = $2; if ($3 > stall[m]) stall[m] = $3; it[m] = $4; last = m }
     END { for (m = 0; m <= last; ++m) printf "%6d  %12.0f  %33.1f  %20d\n", m, rss[m], stall[m], it[m] }' "$monitor"
# The first second is start-up: the window's first paint, then every panel made a window of
# its own at once (--float-all-panels) and shown for the first time.
awk 'NR == 2 { printf "start-up (first second): longest UI-thread stall %.1f ms\n", $3 }
     NR > 2 && $3 > worst { worst = $3; at = $1 }
     END { printf "after start-up: longest UI-thread stall %.1f ms, at %d s\n", worst, at }' "$monitor"
echo "monitor: $monitor"
