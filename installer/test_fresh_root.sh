#!/usr/bin/env bash
# Installs Variate's Debian packages into a fresh Debian 12 root and uses them as a user
# would: apt-get pulls their dependencies from Debian; then `variate --version`, a NUTS
# run on the installed eight-schools example, the studio on that example under Xvfb (a
# screenshot), the MIME type and handler of a .variate file, and a model exported with
# `variate export`, built against libvariate-dev, sampling. Last, `dpkg -r` of both
# packages, and the root's files compared with those before the packages were installed.
#
#   installer/test_fresh_root.sh PACKAGES_DIR [OUTPUT_DIR]
#
# A release step (installer/README.md): run as root with debootstrap installed and
# Debian's mirror reachable (VARIATE_DEBIAN_MIRROR, default deb.debian.org). The root is
# made under OUTPUT_DIR (default a new folder in /var/tmp) and removed at the end unless
# VARIATE_KEEP_ROOT=1; OUTPUT_DIR keeps the log, the screenshot and the listings.
set -euo pipefail

packages="$(realpath "${1:?usage: $0 PACKAGES_DIR [OUTPUT_DIR]}")"
output="$(realpath -m "${2:-$(mktemp -d /var/tmp/variate-fresh-root.XXXXXX)}")"
mirror="${VARIATE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
root="$output/root"
runtime="$(ls "$packages"/variate_*_*.deb)"
development="$(ls "$packages"/libvariate-dev_*_*.deb)"
mkdir -p "$output"
exec > >(tee "$output/log.txt") 2>&1

step() { printf '\n=== %s\n' "$*"; }
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}
# The root's own files (not /proc, /dev, /tmp or the user's home), with their sizes.
listing() {
  in_root find /usr /etc /var/lib /opt -xdev \( -type f -o -type l \) -printf '%p %s\n' | sort > "$1"
}
unmount() {
  for mount in "$root/dev/shm" "$root/dev/pts" "$root/proc"; do
    mountpoint -q "$mount" && umount "$mount"
  done
  if [[ "${VARIATE_KEEP_ROOT:-0}" != 1 && -d "$root" ]]; then rm -rf --one-file-system "$root"; fi
}
trap unmount EXIT

step "debootstrap --variant=minbase bookworm ($mirror)"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$output/debootstrap.log"
mount -t proc proc "$root/proc"
mount -t devpts devpts "$root/dev/pts"
mkdir -p "$root/dev/shm" && mount -t tmpfs tmpfs "$root/dev/shm"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/packages"
cp "$runtime" "$development" "$root/packages/"
in_root apt-get update -q

step "apt-get install ./$(basename "$runtime") ./$(basename "$development") (and Xvfb, xdg-utils for the checks)"
in_root apt-get install -y -q xvfb xauth xdg-utils
in_root apt-get install -y -q "/packages/$(basename "$runtime")" "/packages/$(basename "$development")"
in_root dpkg-query -W variate libvariate-dev

# The listing without Variate's packages, their dependencies installed: remove them, list,
# and install them again (dpkg: nothing to download).
in_root dpkg -r libvariate-dev variate
listing "$output/files-before.txt"
in_root dpkg -i "/packages/$(basename "$runtime")" "/packages/$(basename "$development")"
listing "$output/files-installed.txt"

step "variate --version"
in_root variate --version

examples=/usr/share/variate/projects
step "variate sample on $examples/eight_schools"
in_root variate sample "$examples/eight_schools/eight_schools.vmod" --data "$examples/eight_schools/data.json" \
  --seed 1 --output /tmp/eight_schools --summary-json /tmp/eight_schools/summary.json
ls "$root/tmp/eight_schools"

step "variate-studio on $examples/eight_schools under Xvfb"
in_root xvfb-run -a -s "-screen 0 1600x1000x24" variate-studio "$examples/eight_schools/eight_schools.vmod" \
  --run-on-open --seed 1 --screenshot /tmp/studio.png --quit-when-done
cp "$root/tmp/studio.png" "$output/studio.png"
project=/root/Documents/Variate/eight_schools.variate
ls -l "$root$project"
echo "files in $examples/eight_schools: $(ls "$root$examples/eight_schools" | tr '\n' ' ')"

step "MIME type and handler of a .variate file"
type="$(in_root xdg-mime query filetype "$project")"
echo "xdg-mime query filetype $project: $type"
[[ "$type" == application/x-variate-project* ]]
handler="$(in_root xdg-mime query default application/x-variate-project)"
echo "xdg-mime query default application/x-variate-project: $handler"
[[ "$handler" == org.variate.Studio.desktop ]]
model_type="$(in_root xdg-mime query filetype "$examples/eight_schools/eight_schools.vmod")"
echo "xdg-mime query filetype eight_schools.vmod: $model_type"
[[ "$model_type" == text/x-variate-model* ]]

step "variate export, built against libvariate-dev, sampling"
in_root variate export "$examples/eight_schools/eight_schools.vmod" --cpp /tmp/exported
in_root cmake -S /tmp/exported -B /tmp/exported/build
in_root cmake --build /tmp/exported/build -j "$(nproc)"
in_root /tmp/exported/build/eight_schools sample --data "$examples/eight_schools/data.json" --seed 1 \
  --output /tmp/exported/draws
ls "$root/tmp/exported/draws"

step "dpkg -r libvariate-dev variate"
in_root dpkg -r libvariate-dev variate
listing "$output/files-after.txt"
echo "files the packages installed: $(comm -13 "$output/files-before.txt" "$output/files-installed.txt" | wc -l)"
if ! diff "$output/files-before.txt" "$output/files-after.txt" > "$output/files-left.txt"; then
  echo "dpkg -r left these differences:"
  cat "$output/files-left.txt"
  exit 1
fi
echo "after dpkg -r the root's files are those before the install"
step "passed; log, screenshot and listings in $output"
