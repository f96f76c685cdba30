#!/usr/bin/env bash
# Builds scanviz for the web: the engine, the emulator and the window compiled by Emscripten to
# WebAssembly and WebGL 2, into one static folder, build/web/site (index.html, index.js,
# index.wasm, index.data). Everything comes from Debian 12's packages: emscripten, the header-only
# libraries, the fonts, and the sources of Dear ImGui 1.86, giflib and zlib from the source packages
# imgui, giflib and zlib (a deb-src entry is added for them when apt has none); for the page test only,
# axe-core from the npm registry (where npm is installed) into the build folder. Run with sudo rights,
# or as root, on a fresh machine.
#
#   scripts/web.sh          installs what is missing and builds
#   scripts/web.sh serve    ... then serves the folder at http://localhost:8000 (any static server will do)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/web"
deps="$root/build/web-deps"
packages=(emscripten cmake ninja-build python3 dpkg-dev nlohmann-json3-dev libtomlplusplus-dev libstb-dev fonts-dejavu-core)
# The browser the page's tests drive (tests/web): installed too, so that ctest can run them.
packages+=(chromium-headless-shell)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -q "$@"; }

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing+=("$p"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "scanviz web: installing ${missing[*]}"
  apt_get update
  apt_get install -y --no-install-recommends "${missing[@]}"
fi

# A Debian source package's sources, unpacked (with Debian's patches) into $deps/NAME unless there.
debian_source() {
  local name="$1" probe="$2"
  [ -f "$deps/$name/$probe" ] && return
  if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "scanviz web: adding a deb-src entry for Debian's source packages"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
      $sudo tee /etc/apt/sources.list.d/scanviz-deb-src.sources >/dev/null
    apt_get update
  fi
  mkdir -p "$deps" && rm -rf "$deps/$name" "$deps/${name}_"*
  (cd "$deps" && apt-get source --download-only "$name" && dpkg-source -x "${name}"_*.dsc "$name")
}

# Dear ImGui's sources, as Debian packages them (the native build links Debian's libimgui), and
# giflib's, for the GIF export (the native build links Debian's libgif), and zlib's, for a kernel in a
# link (the native build links Debian's zlib).
imgui="$deps/imgui"
giflib="$deps/giflib"
zlib="$deps/zlib"
debian_source imgui imgui.cpp
debian_source giflib egif_lib.c
debian_source zlib deflate.c
grep -Eq 'IMGUI_VERSION +"1\.86"' "$imgui/imgui.h" || { echo "scanviz web: $imgui is not Dear ImGui 1.86" >&2; exit 1; }

# Emscripten's JavaScript optimizer needs acorn, which Debian installs for its own nodejs under
# /usr/share/nodejs; a node from elsewhere (NodeSource's, say) does not look there by itself.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

start=$(date +%s)
emcmake cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCANVIZ_CUDA=OFF -DSCANVIZ_TESTS=OFF \
  -DSCANVIZ_IMGUI_SOURCE_DIR="$imgui" -DSCANVIZ_GIFLIB_SOURCE_DIR="$giflib" \
  -DSCANVIZ_ZLIB_SOURCE_DIR="$zlib"
cmake --build "$build" -j "${SCANVIZ_JOBS:-2}"
# axe-core, the accessibility rules the page test runs in the page (tests/web/page_axe.py), from the
# npm registry into the build folder beside the site (not into the site, nor the sources).
axe_version=4.14.1
if [ ! -f "$build/axe-core/axe.min.js" ] || ! grep -q "axe v$axe_version" "$build/axe-core/axe.min.js"; then
  if command -v npm >/dev/null 2>&1 && mkdir -p "$build/axe-core" &&
     (cd "$build/axe-core" && npm pack --silent "axe-core@$axe_version" >/dev/null &&
      tar -xzf "axe-core-$axe_version.tgz" --strip-components=1 package/axe.min.js && rm "axe-core-$axe_version.tgz"); then
    echo "scanviz web: axe-core $axe_version fetched for the page test"
  else
    echo "scanviz web: could not fetch axe-core with npm; the page test will skip its WCAG rules"
  fi
fi

echo "scanviz web: built in $(($(date +%s) - start)) s into $build/site:"
ls -l "$build/site"

if [ "${1:-}" = "serve" ]; then
  echo "scanviz web: serving at http://localhost:8000 (Ctrl-C stops)"
  exec python3 -m http.server 8000 --bind 127.0.0.1 --directory "$build/site"
fi
