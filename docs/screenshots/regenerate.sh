#!/bin/sh
# Takes the studio's screenshots in this folder again, on a 1600x1000 virtual screen
# (xvfb-run), from a build's variate-studio: `docs/screenshots/regenerate.sh build`.
# Each is the window as a user sees it after the run its line describes. The Fashion-MNIST
# VAE, the Workers panel, kidiq's k-hat warning and the Run options composite need data
# sets or a worker beyond these examples and are taken by hand (docs/STUDIO.md says how).
set -eu
build=${1:-build}
studio=$(cd "$build" && pwd)/app/variate-studio
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/../../projects/eight_schools" "$work/"
export XDG_CONFIG_HOME="$work/config"  # the default layout, not this user's

shot() {  # NAME, then the studio's options
  name=$1
  shift
  rm -f "$work/eight_schools/eight_schools.variate"*
  xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$work/eight_schools/eight_schools.vmod" "$@" \
    --screenshot "$here/$name.png" --quit-when-done
}

shot studio-nuts --run-on-open --seed 3
shot studio-advi --method advi --run-on-open --seed 3 --raise elboDock
shot studio-pathfinder --method pathfinder --run-on-open --seed 3 --raise elboDock
shot studio-optimize --method optimize --run-on-open --seed 3 --raise elboDock
shot studio-pairs --run-on-open --seed 4 --warmup 100 --raise pairDock
for dock in rank autocorrelation energy forest predictive loo; do
  case $dock in rank) name=ranks ;; *) name=$dock ;; esac
  shot "studio-$name" --run-on-open --seed 3 --raise "${dock}Dock"
done
shot canvas_eight_schools --raise canvasDock
shot studio-prior-predictive --run-on-open --seed 3 --prior --raise predictiveDock
# SBC of the non-centered eight schools, and of data simulated with a wider prior on mu
# (a planted mismatch the panel rejects).
mkdir "$work/sbc"
cp "$here/../../tests/data/sbc/eight_schools.vmod" "$here/../../tests/data/sbc/eight_schools.json" \
  "$here/../../tests/data/sbc/eight_schools_wide_mu.vmod" "$work/sbc/"
for run in studio-sbc studio-sbc-mismatch; do
  rm -f "$work/sbc/eight_schools.variate"*
  case $run in studio-sbc-mismatch) generator="--generator $work/sbc/eight_schools_wide_mu.vmod" ;; *) generator= ;; esac
  # shellcheck disable=SC2086 # the generator's two words
  xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$work/sbc/eight_schools.vmod" --method sbc --replications 100 \
    --seed 3 $generator --run-on-open --raise sbcDock --screenshot "$here/$run.png" --quit-when-done
done
# arma11 on the canvas: the predictions read the data of the series observed through them.
mkdir "$work/arma11"
cp "$here/../../tests/data/reference/arma-arma11/model.vmod" "$work/arma11/arma11.vmod"
cp "$here/../../tests/data/reference/arma-arma11/data.json" "$work/arma11/data.json"
xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$work/arma11/arma11.vmod" --raise canvasDock \
  --screenshot "$here/canvas_arma11.png" --quit-when-done
# lotka_volterra's canvas alone, fitted (too wide for the studio's dock): the ODE's
# right-hand side, a user function, feeds z. Drawn by the canvas layout test.
mkdir "$work/canvas"
VARIATE_SCREENSHOT_DIR="$work/canvas" QT_QPA_PLATFORM=offscreen "$(cd "$build" && pwd)/tests/tst_canvas_layout" \
  modelsFromTextDoNotOverlap:hudson_lynx_hare-lotka_volterra > /dev/null
cp "$work/canvas/canvas_lotka_volterra.png" "$here/"
# The centered eight schools, reparameterized: the Sampler panel says how it sampled.
cp "$here/../../tests/data/reparam/eight_schools_centered.vmod" "$work/eight_schools/eight_schools.vmod"
shot studio-reparam --run-on-open --seed 3 --raise samplerDock
# kidiq's interaction regression with the low-rank metric: the Sampler panel gives its rank.
mkdir "$work/kidscore"
cp "$here/../../tests/data/reference/kidiq-kidscore_interaction/model.vmod" "$work/kidscore/kidscore.vmod"
cp "$here/../../tests/data/reference/kidiq-kidscore_interaction/data.json" "$work/kidscore/data.json"
xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$work/kidscore/kidscore.vmod" --run-on-open --seed 3 \
  --metric lowrank --raise samplerDock --screenshot "$here/studio-lowrank.png" --quit-when-done
