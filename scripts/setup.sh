#!/usr/bin/env bash
# Installs every build, test and run dependency of lanediff from Debian 12 packages.
# Idempotent: packages already present are not touched, and apt-get update runs only when
# something is missing. Run as root (or with sudo available).
set -euo pipefail

PACKAGES=(
  # toolchain: compiler, libFuzzer runtime, AMDGPU assembler/linker/objdump
  clang-22 lld-22 llvm-22 libclang-rt-22-dev
  cmake ninja-build pkg-config
  # libraries
  libprotobuf-dev protobuf-compiler libabsl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # ROCm HIP host runtime (no GPU needed to build and link)
  libamdhip64-dev
  # tests: python3 for the LLVM differential scripts; chromium renders the HTML report;
  # xmllint (libxml2-utils) checks the JUnit report is well-formed XML; zip/unzip pack and
  # unpack ClusterFuzzLite seed corpora (scripts/clusterfuzzlite-test.sh)
  python3 chromium libxml2-utils zip unzip
  # packaging and its test: dpkg-shlibdeps (the .deb's Depends), man/groff render the man
  # page, zsh checks the generated completion
  dpkg-dev man-db groff-base zsh
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup.sh: done"
