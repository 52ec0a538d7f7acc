#!/usr/bin/env bash
# Installs the Debian 12 packages Variate needs (only those missing), then configures and
# builds it in ./build. Run as root from anywhere; safe to run again.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git
  libtorch-dev libgloo-dev libopenblas0-pthread
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqt6sql6-sqlite
  libsqlite3-dev nlohmann-json3-dev libcli11-dev zlib1g-dev dataset-fashion-mnist
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libssl-dev openssl
  xvfb xauth fonts-dejavu-core imagemagick
  clang libclang-rt-14-dev
  # The Debian packages and their tests (installer/README.md): CPack's DEB generator uses
  # dpkg-shlibdeps (dpkg-dev); the tests validate with these tools.
  dpkg-dev lintian desktop-file-utils appstream shared-mime-info libglib2.0-bin man-db bash-completion
)
# The benchmarks' Stan side (bench/README.md), R's loo for regenerating the PSIS reference
# (tests/data/psis/make_reference.R) and bayesplot for the ECDF bands
# (tests/data/sbc/make_ecdf_bands.R), on request: VARIATE_WITH_STAN=1.
if [[ "${VARIATE_WITH_STAN:-0}" == 1 ]]; then
  packages+=(r-cran-rstan r-cran-jsonlite r-cran-posterior r-cran-loo r-cran-bayesplot)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_type="${CMAKE_BUILD_TYPE:-Release}"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE="$build_type"
cmake --build "$root/build" -j "$(nproc)"
