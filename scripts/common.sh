# Sourced by scripts/run.sh and scripts/test.sh: installs the Debian packages scanviz needs that are
# missing (through sudo when not root) and configures and builds the Release preset.
set -euo pipefail

SCANVIZ_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Build tools, libraries (headers), and what the tests and headless rendering use.
SCANVIZ_PACKAGES=(
  build-essential cmake ninja-build pkg-config python3 ccache
  libboost-context-dev nlohmann-json3-dev libcli11-dev doctest-dev libtomlplusplus-dev
  libglfw3-dev libimgui-dev python3-glad libstb-dev libgif-dev zlib1g-dev fonts-dejavu-core
  xvfb xauth libgl1-mesa-dri time
)

# Installs the packages named, or SCANVIZ_PACKAGES when none are.
scanviz_install_packages() {
  local wanted=("$@")
  [ ${#wanted[@]} -gt 0 ] || wanted=("${SCANVIZ_PACKAGES[@]}")
  local missing=()
  for p in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing+=("$p"); fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "scanviz: all ${#wanted[@]} packages already installed"
    return
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "scanviz: installing ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

scanviz_build() {
  cd "$SCANVIZ_ROOT"
  # nvcc is not a Debian package here: use it when the CUDA toolkit is installed in its usual place.
  if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH="/usr/local/cuda/bin:$PATH"; fi
  if command -v nvcc >/dev/null 2>&1; then
    echo "scanviz: building with $(nvcc --version | tail -n 1) (the configure step says for which GPUs)"
  else
    echo "scanviz: nvcc not found; building without the CUDA parts (the CPU emulator runs everything)"
  fi
  cmake --preset release
  cmake --build --preset release -j "$(nproc)"
}

# clang and its sanitizer runtime (the asan preset's compiler), of the version the clang package
# names: 14 on Debian 12, 18 on Ubuntu 24.04.
scanviz_install_asan_packages() {
  local v
  v=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n 1)
  if [ -z "$v" ]; then
    echo "scanviz: apt knows no clang package; cannot build the asan preset" >&2
    return 1
  fi
  scanviz_install_packages clang "libclang-rt-$v-dev"
}
